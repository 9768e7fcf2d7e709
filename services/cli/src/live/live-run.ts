import { mkdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  ControlBus,
  liveLocations,
  ORCHESTRATOR,
  runCredentials,
  writeResolvedExperiment,
  type LiveProgress,
} from '@gridemu/live';
import type { LoadedSpec } from '@gridemu/model';
import { makeRunCertificates, startLocalNatsServer, type LocalNatsServer } from '@gridemu/nats-server';
import { silentLogger } from '@gridemu/runtime';
import { DEFAULT_TIMER_SPIN_MS } from '@gridemu/runtime/live';
import { FaultInjector } from './fault-injector.js';
import { orchestratorRegistry, serveMetrics } from './orchestrator-metrics.js';
import { ProcessSupervisor } from './process-supervisor.js';
import {
  completedJobsQuery,
  SCRAPE_INTERVAL_S,
  ScrapeTargets,
  startPrometheus,
  type PrometheusServer,
} from './prometheus-server.js';
import { ProxySet } from './proxy-set.js';
import { RunClockWatch } from './run-clock.js';

export interface LiveRunOptions {
  /** The experiment, read once by the command; the driver and the members get it as data. */
  readonly experiment: LoadedSpec;
  readonly out: string;
  readonly run: string;
  /** An existing server; without it a local nats-server is started on a free port. */
  readonly nats?: string;
  /** Our server takes TLS only, with certificates made for the run (no delay proxies: they read subjects). */
  readonly tls?: boolean;
  readonly lenient?: boolean;
  /** Stop the run if it has not ended after this many wall seconds (0: no limit). */
  readonly timeout_s?: number;
  /** Force how long timers spin before their deadlines; by default 2 ms, or 0 with more processes than cores. */
  readonly timerSpin_ms?: number;
  /** Where journals live: local files in DIR/journal (default), or the server's JetStream. */
  readonly journalStore?: 'file' | 'jetstream';
  /** Start Debian's prometheus on the run's scrape configuration; it is written either way. */
  readonly prometheus?: boolean;
  readonly onStatus?: (s: LiveStatus) => void;
  /** Lines for the user (what started, what failed). */
  readonly say?: (line: string) => void;
}

export type LiveStatus =
  | { readonly phase: 'joining'; readonly ready: number; readonly expected: number }
  | ({ readonly phase: 'running'; readonly emulated_s: number } & LiveProgress);

export interface LiveRunResult {
  /** 0 done, 1 failed or interrupted, 2 the driver refused its input. */
  readonly code: number;
  readonly failure?: string;
  readonly logs: string;
  /** Where the scrape configuration is, and, with --prometheus, what Prometheus saw. */
  readonly prometheus: { readonly config: string; readonly url?: string; readonly completedJobs?: number };
}

/** What a run writes into its results folder; a new run clears them first. */
const RUN_OUTPUTS = [
  'logs',
  'jobs.csv',
  'summary.json',
  'network.json',
  'check.json',
  'experiment.json',
  'protocol-trace.csv',
  'nats',
  'journal',
  'prometheus',
];

/**
 * `gridemu run`'s orchestration: a nats-server (unless one is given), a delay proxy per location
 * when the spec has latency, one process per site (and central), and the driver that leads the
 * run and alone writes summary.json, with what this process did to the run (the faults it
 * injected, the processes it restarted) handed over when the driver asks for it (`tally`).
 * A process that dies makes the run stop with a report naming it; so do Ctrl-C and --timeout.
 * Everything started here is stopped here, whatever happens.
 */
export async function runLive(o: LiveRunOptions): Promise<LiveRunResult> {
  const say = o.say ?? (() => undefined);
  const spec = o.experiment.spec;
  const logs = join(o.out, 'logs');
  // A failed run must not leave an earlier run's results looking like its own.
  for (const old of RUN_OUTPUTS) rmSync(join(o.out, old), { recursive: true, force: true });
  mkdirSync(logs, { recursive: true });
  const experimentFile = join(o.out, 'experiment.json');
  writeResolvedExperiment(experimentFile, o.experiment);
  const cleanup: (() => Promise<unknown>)[] = [];
  let supervisor: ProcessSupervisor | undefined;
  try {
    // Each location the plan names, and the process kind (services/<kind>) that hosts it.
    const serviceOf = new Map(liveLocations(spec).map((l) => [l.location, l.service]));
    const members = [...serviceOf.keys()];
    // A server of our own gets a NATS user per process, held to publishing as itself;
    // its configuration and JetStream store go in DIR/nats.
    const credentials = o.nats ? undefined : runCredentials(o.run, members);
    const certificates = o.tls ? makeRunCertificates(join(o.out, 'nats', 'tls')) : undefined;
    const serverOptions = credentials
      ? { users: [...credentials.values()], dir: join(o.out, 'nats'), ...(certificates ? { tls: certificates } : {}) }
      : undefined;
    // faults.nats_restart replaces it with a new server on the same port and configuration.
    let server: LocalNatsServer | undefined = serverOptions ? await startLocalNatsServer(serverOptions) : undefined;
    cleanup.push(async () => server?.stop());
    const url = o.nats ?? server!.url;
    say(
      server
        ? `nats-server started on ${url}, a user per process${certificates ? ', TLS only' : ''} (${join(o.out, 'nats', 'nats-server.conf')})`
        : `using NATS at ${url}`,
    );
    const login = (name: string) => {
      const c = credentials?.get(name);
      return {
        ...(c ? { user: c.user, pass: c.password } : {}),
        ...(certificates ? { tls: { caFile: certificates.caFile } } : {}),
      };
    };
    const nc: NatsConnection = await connect({
      servers: url,
      name: `gridemu-${o.run}-orchestrator`,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 50,
      ...login(ORCHESTRATOR),
    });
    cleanup.push(() => nc.close());
    const bus = new ControlBus(nc, o.run, silentLogger, ORCHESTRATOR);
    const clock = new RunClockWatch(bus);
    // Faults fire on the run's clock, and not once the driver has ended the run.
    bus.on('end', () => clock.stop());
    bus.on('abort', () => clock.stop());
    cleanup.push(async () => clock.stop());
    // Credentials go to each process in its environment, not its arguments (which ps shows).
    const envOf = (name: string) => {
      const c = credentials?.get(name);
      // With our Prometheus, members keep serving /metrics for a last scrape after the end.
      const linger = o.prometheus ? { GRIDEMU_LINGER_MS: String(2500 * SCRAPE_INTERVAL_S) } : {};
      return {
        ...process.env,
        ...linger,
        ...(c
          ? { NATS_USER: c.user, NATS_PASSWORD: c.password, ...(certificates ? { NATS_CA: certificates.caFile } : {}) }
          : {}),
      };
    };

    const proxies = await ProxySet.open(spec, o.run, url, members, clock);
    cleanup.push(() => proxies.close());
    if (proxies.active) {
      const f = spec.faults;
      const proxyFaults = f.partition.length > 0 || f.drop > 0;
      say(
        `link latency ${spec.network.latency_ms} ms ± ${spec.network.jitter_ms} ms through a delay proxy per process${proxyFaults ? `; the proxies cut ${f.partition.length} partition(s) and drop ${f.drop * 100}% of losable messages` : ''}`,
      );
    }

    // Timers spin just before their deadlines for precision, but where more processes than cores
    // share this machine the spinning starves the others and makes every timer later (PreciseTimer).
    const processCount = members.length + 1 + (o.nats ? 0 : 1);
    const cores = availableParallelism();
    const timerSpin = String(o.timerSpin_ms ?? (processCount > cores ? 0 : DEFAULT_TIMER_SPIN_MS));
    if (o.timerSpin_ms === undefined && timerSpin === '0')
      say(`timers sleep to their deadlines (no spinning): ${processCount} processes on ${cores} cores`);

    const processes = new ProcessSupervisor({
      run: o.run,
      logs,
      serviceOf,
      urlOf: (m) => proxies.urlOf(m) ?? url,
      envOf,
      timerSpin_ms: timerSpin,
      ...(o.journalStore === 'jetstream' ? {} : { journalDir: join(o.out, 'journal') }),
      restartUnplanned: spec.live.journal === true,
      bus,
      say,
    });
    supervisor = processes;
    const port = server?.port;
    const restartable = serverOptions
      ? {
          stop: async () => {
            const down = server;
            server = undefined;
            await down?.stop();
          },
          start: async () => {
            server = await startLocalNatsServer({ ...serverOptions, port });
          },
        }
      : undefined;
    const faults = new FaultInjector(spec.faults, clock, processes, restartable, say);
    faults.arm();

    // Every process's /metrics, for a Prometheus of ours or the user's.
    const targets = new ScrapeTargets(o.out, o.run);
    let prometheus: PrometheusServer | undefined;
    if (o.prometheus) {
      prometheus = await startPrometheus(targets.configFile, join(targets.dir, 'data'));
      cleanup.push(async () => prometheus?.stop());
      say(`Prometheus at ${prometheus.url}, scraping every ${SCRAPE_INTERVAL_S} s (${targets.configFile})`);
    }
    const restartsOf = () => {
      const all = new Map<string, { planned: number; unplanned: number }>();
      for (const [m, n] of faults.restartsOf) all.set(m, { planned: n, unplanned: 0 });
      for (const [m, n] of processes.unplannedRestarts) all.set(m, { planned: all.get(m)?.planned ?? 0, unplanned: n });
      return all;
    };
    // This process's own: the faults it injects and the processes it restarts, which the victims cannot count.
    const ownMetrics = await serveMetrics(
      orchestratorRegistry({ run: o.run, scheme: spec.meta.scheme }, () => ({
        crashes: faults.crashesInjected,
        natsRestarts: faults.natsRestarts,
        proxy: proxies.faultCounts(),
        restarts: restartsOf(),
      })),
    );
    cleanup.push(() => ownMetrics.close());
    targets.set('orchestrator', ownMetrics.address);
    // The driver asks once, before it writes summary.json: the faults are its to report, with the rest.
    bus.on('tally', (_m, raw) => {
      const proxy = proxies.faultCounts();
      bus.reply(raw, {
        kind: 'tallied',
        tally: {
          counters: {
            'faults.crashes_applied': faults.crashesApplied,
            'faults.nats_restarts': faults.natsRestarts,
            'messages.dropped': proxy.dropped,
            'messages.held_by_partition': proxy.held,
            // What this process heard on the control plane from senders not allowed to send it.
            ...(bus.forged > 0 ? { 'control.forged_sender': bus.forged } : {}),
          },
          unplanned_restarts: Object.fromEntries(processes.unplannedRestarts),
        },
      });
    });
    const ready = new Set<string>();
    bus.on('ready', (m) => {
      targets.set(m.member, m.http);
      ready.add(m.member);
      o.onStatus?.({ phase: 'joining', ready: ready.size, expected: members.length });
    });
    bus.on('progress', (p) =>
      o.onStatus?.({
        phase: 'running',
        finished: p.finished,
        total: p.total,
        now_s: p.now_s,
        wall_s: p.wall_s,
        emulated_s: p.now_s - (clock.current?.epoch_s ?? p.now_s),
      }),
    );
    // The driver serves /metrics too, on a port it chooses and names on the bus ('serving'): one
    // chosen here and handed over could be taken by another process in between.
    bus.on('serving', (m) => targets.set(m.member, m.http));
    await nc.flush();

    const driver = processes.startDriver([
      '--nats',
      url,
      '--run',
      o.run,
      '--experiment',
      experimentFile,
      '--out',
      o.out,
      '--timer-spin-ms',
      timerSpin,
      '--http-port',
      '0',
      ...(o.lenient ? ['--lenient'] : []),
    ]);
    processes.startMembers();
    say(
      `run ${o.run}: driver and ${members.length} process${members.length === 1 ? '' : 'es'} (${members.join(', ')}); logs in ${logs}`,
    );

    const onSignal = (signal: string) => processes.fail(`interrupted by ${signal}`);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    cleanup.push(async () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    });
    const limit =
      (o.timeout_s ?? 0) > 0
        ? setTimeout(() => processes.fail(`the run did not end within --timeout ${o.timeout_s} s`), o.timeout_s! * 1000)
        : undefined;
    cleanup.push(async () => clearTimeout(limit));

    await driver.exited;
    const code = driver.exit?.code ?? 1;
    let failure = processes.failure;
    if (code !== 0 && failure === undefined) {
      failure =
        code === 2
          ? `the driver refused its input:\n${driver.tail(4)}`
          : code === 3
            ? 'the schedule check failed (summary.json, schedule_check)'
            : `the driver ${driver.describeExit()}; last lines of ${driver.logFile}:\n${driver.tail()}`;
    }
    // Members leave on the driver's `end` or `abort`; give them a moment, then stop any that linger.
    const lingering = await processes.lingering(10_000);
    if (lingering.length > 0) say(`stopping ${lingering.join(', ')}, still running after the driver ended`);
    let completedJobs: number | undefined;
    if (prometheus) {
      // The members have lingered through a last scrape and left: ask what Prometheus saw.
      completedJobs = await prometheus.query(completedJobsQuery(o.run)).catch((err: unknown) => {
        say(`could not ask Prometheus: ${(err as Error).message}`);
        return undefined;
      });
    }
    return {
      code: failure === undefined ? 0 : code === 2 ? 2 : 1,
      ...(failure !== undefined ? { failure } : {}),
      logs,
      prometheus: {
        config: targets.configFile,
        ...(prometheus ? { url: prometheus.url } : {}),
        ...(completedJobs !== undefined ? { completedJobs } : {}),
      },
    };
  } finally {
    await supervisor?.stopAll(3000);
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
  }
}
