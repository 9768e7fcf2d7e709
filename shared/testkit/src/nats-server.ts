import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running nats-server for a test, and how to stop it. */
export interface NatsServerHandle {
  readonly url: string;
  /** How it was started: in a container (a container engine answered) or from the local binary. */
  readonly kind: 'container' | 'binary';
  stop(): Promise<void>;
}

export interface NatsServerOptions {
  /** Force one way of starting it; by default a container if an engine answers, else the binary. */
  readonly prefer?: 'container' | 'binary';
}

/**
 * Starts a real nats-server for integration tests (DESIGN.md, "Real parts"): testcontainers' NATS
 * module when a container engine answers, the local `nats-server` binary otherwise.
 */
export async function startNatsServer(options: NatsServerOptions = {}): Promise<NatsServerHandle> {
  if (options.prefer !== 'binary' && (await containerEngineAnswers())) return startInContainer();
  return startBinary();
}

async function containerEngineAnswers(): Promise<boolean> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

async function startInContainer(): Promise<NatsServerHandle> {
  const { NatsContainer } = await import('@testcontainers/nats');
  const container = await new NatsContainer('nats:2.9').withArg('-js', '-js').start();
  return {
    url: `nats://${container.getHost()}:${container.getMappedPort(4222)}`,
    kind: 'container',
    stop: async () => {
      await container.stop();
    },
  };
}

export function natsServerBinary(): string | undefined {
  const r = spawnSync('sh', ['-c', 'command -v nats-server'], { encoding: 'utf8' });
  const path = r.stdout.trim();
  return r.status === 0 && path !== '' ? path : undefined;
}

export const INSTALL_HINT = 'nats-server is not on PATH: install it with `apt-get install -y nats-server` (Debian) or from https://nats.io';

async function startBinary(): Promise<NatsServerHandle> {
  const binary = natsServerBinary();
  if (!binary) throw new Error(INSTALL_HINT);
  const port = await freePort();
  const storeDir = join(tmpdir(), `gridemu-nats-${process.pid}-${port}`);
  const child = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  try {
    await waitForPort(port, child, 10_000);
  } catch (err) {
    child.kill('SIGKILL');
    rmSync(storeDir, { recursive: true, force: true });
    throw new Error(`nats-server did not start on 127.0.0.1:${port}: ${(err as Error).message}\n${stderr.slice(-2000)}`);
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    kind: 'binary',
    stop: async () => {
      await stopProcess(child);
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

/** A port nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, timeout_ms: number): Promise<void> {
  const deadline = Date.now() + timeout_ms;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
    if (await canConnect(port)) return;
    if (Date.now() > deadline) throw new Error(`not accepting connections after ${timeout_ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => (clearTimeout(timer), resolve()));
    child.kill('SIGTERM');
  });
}
