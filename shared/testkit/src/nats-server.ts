import { startLocalNatsServer } from '@gridemu/nats-server';

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

async function startBinary(): Promise<NatsServerHandle> {
  const server = await startLocalNatsServer();
  return { url: server.url, kind: 'binary', stop: () => server.stop() };
}
