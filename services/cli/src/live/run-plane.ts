import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  ControlBus,
  describeNatsCredentials,
  natsConnectOptions,
  ORCHESTRATOR,
  splitNatsUrlCredentials,
  runCredentials,
  type ProcessCredentials,
  type ProxyTls,
} from '@gridemu/live';
import {
  makeRunCertificates,
  startLocalNatsServer,
  type LocalNatsServer,
  type LocalNatsServerOptions,
  type RunCertificates,
} from '@gridemu/nats-server';
import { silentLogger } from '@gridemu/runtime';
import type { RestartableServer } from './fault-injector.js';
import { UsageError } from '../exit-codes.js';

/**
 * The bus of one `gridemu run`: its own nats-server (unless one is given), with a NATS user per
 * process held to publishing as itself (configuration and JetStream store in DIR/nats), and this
 * process's connection and control bus. `close()` stops what it started.
 */
export class RunPlane {
  /** Told when our own server exits without being stopped (killed, or crashed): see onServerLost. */
  private serverLost: ((how: string) => void) | undefined;

  private constructor(
    /** What the processes connect to (or their delay proxies forward to). */
    readonly url: string,
    readonly nc: NatsConnection,
    readonly bus: ControlBus,
    private readonly credentials: ReadonlyMap<string, ProcessCredentials> | undefined,
    private readonly certificates: RunCertificates | undefined,
    private readonly serverOptions: LocalNatsServerOptions | undefined,
    private server: LocalNatsServer | undefined,
    /** With --nats: the credentials its URL carried, as every process's environment takes them. */
    private readonly givenCredentials: Readonly<Record<string, string>> = {},
  ) {}

  static async open(o: {
    readonly run: string;
    readonly out: string;
    readonly members: readonly string[];
    readonly nats?: string;
    readonly tls?: boolean;
    readonly say: (line: string) => void;
  }): Promise<RunPlane> {
    const credentials = o.nats ? undefined : runCredentials(o.run, o.members);
    const certificates = o.tls ? makeRunCertificates(join(o.out, 'nats', 'tls')) : undefined;
    const serverOptions = credentials
      ? { users: [...credentials.values()], dir: join(o.out, 'nats'), ...(certificates ? { tls: certificates } : {}) }
      : undefined;
    const server = serverOptions ? await startLocalNatsServer(serverOptions) : undefined;
    // A --nats URL's credentials are taken out of it: it is shown, and passed in processes' arguments.
    const given = o.nats !== undefined ? givenServer(o.nats) : undefined;
    const url = given?.url ?? server!.url;
    o.say(
      server
        ? `nats-server started on ${url}, a user per process${certificates ? ', TLS only' : ''} (${join(o.out, 'nats', 'nats-server.conf')})`
        : `using NATS at ${url}${given?.credentials ? `, ${given.credentials}` : ''}`,
    );
    const own = credentials?.get(ORCHESTRATOR);
    let nc: NatsConnection;
    try {
      // As every process of the run connects: its user, its own request inboxes, the run's CA.
      nc = await connect(
        natsConnectOptions(
          {
            nats: o.nats ?? url,
            run: o.run,
            ...(own ? { user: own.user, password: own.password } : {}),
            ...(given ? fromEnv(process.env) : {}),
            ...(certificates ? { 'tls-ca': certificates.caFile } : {}),
          },
          `gridemu-${o.run}-orchestrator`,
        ),
      );
    } catch (err) {
      await server?.stop();
      // A server the user named that cannot be reached is their input (exit 2), not a failed run.
      if (o.nats !== undefined)
        throw new UsageError(
          `--nats ${url}${given?.credentials ? `, ${given.credentials}` : ''}: cannot connect to it (${(err as Error).message})`,
          { cause: err },
        );
      throw err;
    }
    const bus = new ControlBus(nc, o.run, silentLogger, ORCHESTRATOR);
    const plane = new RunPlane(url, nc, bus, credentials, certificates, serverOptions, server, given?.env);
    if (server) plane.watch(server);
    return plane;
  }

  /**
   * `listener` is told, once, if the run's own nats-server exits when it was not stopped (by a
   * faults.nats_restart or at the end): killed from outside, or crashed. Without it a run went on
   * until the driver found a process silent, and named that process instead of the server.
   */
  onServerLost(listener: (how: string) => void): void {
    this.serverLost = listener;
  }

  private watch(server: LocalNatsServer): void {
    server.process.once('exit', (code, signal) => {
      if (this.server !== server) return; // stopped on purpose: this.server was let go first
      this.server = undefined;
      const how = signal !== null ? `killed by ${signal}` : `exit code ${code}`;
      this.serverLost?.(`the run's nats-server (pid ${server.process.pid}) exited during the run (${how})`);
      this.serverLost = undefined;
    });
  }

  /** With --tls: what a delay proxy needs to end its process's TLS and open its own to the server. */
  get proxyTls(): ProxyTls | undefined {
    const c = this.certificates;
    if (!c) return undefined;
    const read = (f: string) => readFileSync(f, 'utf8');
    return { ca: read(c.caFile), cert: read(c.certFile), key: read(c.keyFile) };
  }

  /** A process's environment: its user's credentials go there, not in its arguments (which ps shows). */
  envOf(name: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const c = this.credentials?.get(name);
    return {
      ...process.env,
      ...extra,
      ...this.givenCredentials,
      ...(c
        ? {
            NATS_USER: c.user,
            NATS_PASSWORD: c.password,
            ...(this.certificates ? { NATS_CA: this.certificates.caFile } : {}),
          }
        : {}),
    };
  }

  /** Our own server, which faults.nats_restart stops and starts again on the same port; none with --nats. */
  get restartable(): RestartableServer | undefined {
    const options = this.serverOptions;
    const port = this.server?.port;
    if (!options) return undefined;
    return {
      stop: async () => {
        const down = this.server;
        this.server = undefined;
        await down?.stop();
      },
      start: async () => {
        this.server = await startLocalNatsServer({ ...options, ...(port !== undefined ? { port } : {}) });
        this.watch(this.server);
      },
    };
  }

  async close(): Promise<void> {
    this.bus.close();
    await this.nc.close().catch(() => undefined);
    const server = this.server;
    this.server = undefined;
    await server?.stop();
  }
}

/**
 * A server given with --nats, and the credentials its processes use there: NATS_USER and
 * NATS_PASSWORD (or NATS_TOKEN) of this environment, which every process inherits, or else those
 * its URL carries (nats://USER:PASSWORD@host), then passed to each process in its environment.
 */
function givenServer(natsUrl: string): { url: string; env: Record<string, string>; credentials?: string } {
  const { url, ...inUrl } = splitNatsUrlCredentials(natsUrl);
  const env = fromEnv(process.env);
  if (env.user || env.token)
    return {
      url,
      env: {},
      credentials: `${describeNatsCredentials(env)} (from ${env.user ? 'NATS_USER' : 'NATS_TOKEN'})`,
    };
  if (inUrl.user === undefined && inUrl.token === undefined) return { url, env: {} };
  return {
    url,
    env:
      inUrl.user !== undefined
        ? { NATS_USER: inUrl.user, NATS_PASSWORD: inUrl.password ?? '' }
        : { NATS_TOKEN: inUrl.token ?? '' },
    credentials: `${describeNatsCredentials(inUrl)} (from the URL)`,
  };
}

/** NATS credentials from the environment, as every gridemu process reads them. */
function fromEnv(env: NodeJS.ProcessEnv): { user?: string; password?: string; token?: string } {
  return {
    ...(env['NATS_USER'] ? { user: env['NATS_USER'] } : {}),
    ...(env['NATS_PASSWORD'] !== undefined ? { password: env['NATS_PASSWORD'] } : {}),
    ...(env['NATS_TOKEN'] ? { token: env['NATS_TOKEN'] } : {}),
  };
}
