import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { programOnPath } from './program-on-path.js';
import { diesWithParent } from './dies-with-parent.js';

/** How long a client may take to authenticate (the server's `authorization.timeout`). */
export const AUTH_TIMEOUT_S = 20;

/** A nats-server this process started, and how to stop it. */
export interface LocalNatsServer {
  readonly url: string;
  readonly port: number;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

export const INSTALL_HINT =
  'nats-server is not on PATH: install it with `apt-get install -y nats-server` (Debian) or from https://nats.io';

/**
 * Where Debian's package puts the server: /usr/sbin, which is not on a non-root user's PATH there,
 * so a user who installed it with sudo would otherwise be told it is missing.
 */
const SBIN_PLACES = ['/usr/sbin/nats-server', '/usr/local/sbin/nats-server'];

/** nats-server from PATH, else where Debian puts it (`path` and `fallbacks` for tests). */
export function natsServerBinary(
  path = process.env['PATH'] ?? '',
  fallbacks: readonly string[] = SBIN_PLACES,
): string | undefined {
  return programOnPath('nats-server', path, fallbacks);
}

/** A NATS user of a run and what it may publish and subscribe to (subject patterns). */
export interface NatsUser {
  readonly user: string;
  readonly password: string;
  readonly publish: readonly string[];
  readonly subscribe: readonly string[];
}

export interface LocalNatsServerOptions {
  /**
   * Only these users may connect, each held to its permissions. The server's
   * configuration is written to `dir` (mode 0600: it holds the passwords).
   */
  readonly users?: readonly NatsUser[];
  /** Where the configuration and the JetStream store go; kept after stop. Default: a scratch folder, removed on stop. */
  readonly dir?: string;
  /** Clients must connect over TLS with this certificate (makeRunCertificates). */
  readonly tls?: { readonly certFile: string; readonly keyFile: string };
  /** Listen on this port (a restart of a run's server keeps its port); default: a free one. */
  readonly port?: number;
}

/** Starts `nats-server` from PATH on a free loopback port, with JetStream. */
export async function startLocalNatsServer(options: LocalNatsServerOptions = {}): Promise<LocalNatsServer> {
  const binary = natsServerBinary();
  if (!binary) throw new Error(INSTALL_HINT);
  const port = options.port ?? (await freePort());
  const scratch = options.dir === undefined;
  const dir = options.dir ?? join(tmpdir(), `gridemu-nats-${process.pid}-${port}`);
  const storeDir = join(dir, 'jetstream');
  mkdirSync(dir, { recursive: true });
  let args = ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir];
  if (options.users !== undefined || options.tls !== undefined) {
    // NATS reads JSON as configuration.
    const config = {
      listen: `127.0.0.1:${port}`,
      jetstream: { store_dir: storeDir },
      ...(options.users
        ? {
            authorization: {
              // Seconds a client has to authenticate once connected. The server's 2 s default was not
              // enough for one of 50 site processes all starting at once on 2 cores (paper 004's
              // grid in docs/fidelity.md): the server closed it with "Authentication Timeout".
              timeout: AUTH_TIMEOUT_S,
              users: options.users.map((u) => ({
                user: u.user,
                password: u.password,
                permissions: { publish: { allow: u.publish }, subscribe: { allow: u.subscribe } },
              })),
            },
          }
        : {}),
      ...(options.tls ? { tls: { cert_file: options.tls.certFile, key_file: options.tls.keyFile } } : {}),
    };
    const file = join(dir, 'nats-server.conf');
    writeFileSync(file, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
    args = ['-c', file];
  }
  const storeToRemove = scratch ? dir : undefined;
  // A run's server must not outlive the run's process when that is killed outright.
  const started = diesWithParent(binary, args);
  const child = spawn(started.command, started.args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  // A kept folder keeps the server's log too (added to by a restart of the run's server): its
  // warnings, a slow consumer's connection closed with what was in flight among them, are what
  // explain a run's lost messages.
  const log = scratch ? undefined : createWriteStream(join(dir, 'nats-server.log'), { flags: 'a' });
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
    log?.write(d);
  });
  const logWritten = new Promise<void>((resolve) => {
    if (!log) return resolve();
    log.once('close', () => resolve());
    // A log that cannot be written (its folder removed) must not take the run down with it.
    log.on('error', () => resolve());
    child.once('close', () => log.end());
  });
  try {
    await waitForPort(port, child, 10_000);
  } catch (err) {
    child.kill('SIGKILL');
    if (storeToRemove) rmSync(storeToRemove, { recursive: true, force: true });
    throw new Error(`nats-server did not start on 127.0.0.1:${port}: ${(err as Error).message}\n${stderr}`);
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    process: child,
    stop: async () => {
      await stopProcess(child);
      await logWritten;
      if (storeToRemove) rmSync(storeToRemove, { recursive: true, force: true });
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

/** SIGTERM, then SIGKILL after `grace_ms`; resolves when the process has exited. */
export function stopProcess(child: ChildProcess, grace_ms = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), grace_ms);
    child.once('exit', () => (clearTimeout(timer), resolve()));
    child.kill('SIGTERM');
  });
}
