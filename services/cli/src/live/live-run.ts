import { mkdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  ControlBus,
  DelayProxy,
  delayProxyFor,
  liveLocations,
  needsDelayProxies,
  ORCHESTRATOR,
  proxyTarget,
  runCredentials,
  type LiveProgress,
} from '@gridemu/live';
import type { ExperimentSpec } from '@gridemu/model';
import { makeRunCertificates, startLocalNatsServer } from '@gridemu/nats-server';
import { silentLogger } from '@gridemu/runtime';
import { DEFAULT_TIMER_SPIN_MS, EmulatedClock, wallNow_ms } from '@gridemu/runtime/live';
import { RunProcess, serviceMain } from './run-process.js';
import { orchestratorRegistry, serveMetrics } from './orchestrator-metrics.js';
import {
  completedJobsQuery,
  SCRAPE_INTERVAL_S,
  ScrapeTargets,
  startPrometheus,
  type PrometheusServer,
} from './prometheus-server.js';

/** How often one process may die unplanned and be started again before the run gives up on it. */
const MAX_UNPLANNED_RESTARTS = 3;

export interface LiveRunOptions {
  readonly specFile: string;
  readonly spec: ExperimentSpec;
  /** The --set texts, passed on to the driver, which loads the spec itself. */
  readonly sets: readonly string[];
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
  /** Start Debian's prometheus on the run's scrape configuration; it is written either way. */
  readonly prometheus?: boolean;
  readonly onStatus?: (s: LiveStatus) => void;
  /** Lines for the user (what started, what failed). */
  readonly say?: (line: string) => void;
}

export type LiveStatus =
  | { readonly phase: 'joining'; readonly ready: number; readonly expected: number }
  | ({ readonly phase: 'running' } & LiveProgress);

export interface LiveRunResult {
  /** 0 done, 1 failed or interrupted, 2 the driver refused its input. */
  readonly code: number;
  readonly failure?: string;
  readonly logs: string;
  /** What the delay proxies did for the spec's faults: messages dropped, and held across a partition. */
  readonly proxyFaults: { readonly dropped: number; readonly held: number };
  /** nats-server restarts carried out (faults.nats_restart). */
  readonly natsRestarts: number;
  /** Processes killed and started again (faults.crash). */
  readonly crashesApplied: number;
  /** Processes that died unplanned and were started again (live.journal), by location. */
  readonly unplannedRestarts: Readonly<Record<string, number>>;
  /** Where the scrape configuration is, and, with --prometheus, what Prometheus saw. */
  readonly prometheus: { readonly config: string; readonly url?: string; readonly completedJobs?: number };
}

/**
 * `gridemu run`'s orchestration: a nats-server (unless one is given), a delay proxy per location
 * when the spec has latency, one process per site (and central), and the driver that leads the run.
 * A process that dies makes the run stop with a report naming it; so do Ctrl-C and --timeout.
 * Everything started here is stopped here, whatever happens.
 */
export async function runLive(o: LiveRunOptions): Promise<LiveRunResult> {
  const say = o.say ?? (() => undefined);
  const logs = join(o.out, 'logs');
  // A failed run must not leave an earlier run's results looking like its own.
  for (const old of [
    logs,
    join(o.out, 'jobs.csv'),
    join(o.out, 'summary.json'),
    join(o.out, 'protocol-trace.csv'),
    join(o.out, 'nats'),
    join(o.out, 'prometheus'),
  ])
    rmSync(old, { recursive: true, force: true });
  mkdirSync(logs, { recursive: true });
  const cleanup: (() => Promise<unknown>)[] = [];
  const processes: RunProcess[] = [];
  const proxies: DelayProxy[] = [];
  let natsRestarts = 0;
  let crashesApplied = 0;
  let crashesInjected = 0;
  const restartsOf = new Map<string, { planned: number; unplanned: number }>();
  const countRestart = (name: string, cause: 'planned' | 'unplanned') => {
    const n = restartsOf.get(name) ?? { planned: 0, unplanned: 0 };
    n[cause]++;
    restartsOf.set(name, n);
  };
  const proxyCounts = () => ({
    dropped: proxies.reduce((n, p) => n + p.faultCounts.dropped, 0),
    held: proxies.reduce((n, p) => n + p.faultCounts.held, 0),
  });
  try {
    // Each location the plan names, and the process kind (services/<kind>) that hosts it.
    const serviceOf = new Map(liveLocations(o.spec).map((l) => [l.location, l.service]));
    const members = [...serviceOf.keys()];
    // A server of our own gets a NATS user per process, held to publishing as itself;
    // its configuration and JetStream store go in DIR/nats.
    const credentials = o.nats ? undefined : runCredentials(o.run, members);
    const certificates = o.tls ? makeRunCertificates(join(o.out, 'nats', 'tls')) : undefined;
    const serverOptions = credentials
      ? { users: [...credentials.values()], dir: join(o.out, 'nats'), ...(certificates ? { tls: certificates } : {}) }
      : undefined;
    // `let`: faults.nats_restart replaces it with a new server on the same port.
    let server = serverOptions ? await startLocalNatsServer(serverOptions) : undefined;
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
    const bus = new ControlBus(nc, o.run, silentLogger);
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
    const ready = new Set<string>();
    // Every process's /metrics, for a Prometheus of ours or the user's.
    const targets = new ScrapeTargets(o.out, o.run);
    let prometheus: PrometheusServer | undefined;
    if (o.prometheus) {
      prometheus = await startPrometheus(targets.configFile, join(targets.dir, 'data'));
      cleanup.push(async () => prometheus?.stop());
      say(`Prometheus at ${prometheus.url}, scraping every ${SCRAPE_INTERVAL_S} s (${targets.configFile})`);
    }
    // This process's own: the faults it injects and the processes it restarts, which the victims cannot count.
    const ownMetrics = await serveMetrics(
      orchestratorRegistry({ run: o.run, scheme: o.spec.meta.scheme }, () => ({
        crashes: crashesInjected,
        natsRestarts,
        proxy: proxyCounts(),
        restarts: restartsOf,
      })),
    );
    cleanup.push(() => ownMetrics.close());
    targets.set('orchestrator', ownMetrics.address);
    bus.on('ready', (m) => {
      targets.set(m.member, m.http);
      ready.add(m.member);
      o.onStatus?.({ phase: 'joining', ready: ready.size, expected: members.length });
    });
    bus.on('progress', (p) =>
      o.onStatus?.({ phase: 'running', finished: p.finished, total: p.total, now_s: p.now_s, wall_s: p.wall_s }),
    );
    // faults.nats_restart: stop the server at each emulated time and start it again, same port and
    // configuration, down_s later. What was in flight is lost; durable messages are resent.
    const restarts = o.spec.faults.nats_restart;
    const restartTimers: NodeJS.Timeout[] = [];
    cleanup.push(async () => restartTimers.forEach((t) => clearTimeout(t)));
    if (restarts.length > 0 && server && serverOptions) {
      const port = server.port;
      bus.on('start', (m) => {
        const clock = new EmulatedClock(m.epoch_s, m.wallEpoch_ms, m.speedup);
        for (const r of restarts) {
          restartTimers.push(
            setTimeout(
              () => {
                const down = server;
                server = undefined;
                void down?.stop().then(async () => {
                  say(
                    `nats-server stopped at emulated ${r.at_s} s (faults.nats_restart); back in ${r.down_s} emulated s`,
                  );
                  await new Promise((done) =>
                    setTimeout(done, Math.max(0, clock.wall_ms(r.at_s + r.down_s) - wallNow_ms())),
                  );
                  server = await startLocalNatsServer({ ...serverOptions, port });
                  natsRestarts++;
                });
              },
              Math.max(0, clock.wall_ms(r.at_s) - wallNow_ms()),
            ),
          );
        }
      });
    }
    await nc.flush();

    const memberUrl = new Map<string, string>();
    const faults = o.spec.faults;
    const proxyFaults = faults.partition.length > 0 || faults.drop > 0;
    if (needsDelayProxies(o.spec)) {
      const target = proxyTarget(url);
      for (const m of members) {
        const proxy = delayProxyFor(o.spec, m, o.run, target);
        memberUrl.set(m, await proxy.listen());
        proxies.push(proxy);
        cleanup.push(() => proxy.close());
      }
      // Faults are timed in emulated seconds: the proxies take the clock the driver starts.
      bus.on('start', (m) => {
        for (const p of proxies) p.startClock(new EmulatedClock(m.epoch_s, m.wallEpoch_ms, m.speedup));
      });
      say(
        `link latency ${o.spec.network.latency_ms} ms ± ${o.spec.network.jitter_ms} ms through a delay proxy per process${proxyFaults ? `; the proxies cut ${faults.partition.length} partition(s) and drop ${faults.drop * 100}% of losable messages` : ''}`,
      );
    }

    // Timers spin just before their deadlines for precision, but where more processes than cores
    // share this machine the spinning starves the others and makes every timer later (PreciseTimer).
    const processCount = members.length + 1 + (o.nats ? 0 : 1);
    const cores = availableParallelism();
    const timerSpin = String(o.timerSpin_ms ?? (processCount > cores ? 0 : DEFAULT_TIMER_SPIN_MS));
    if (o.timerSpin_ms === undefined && timerSpin === '0')
      say(`timers sleep to their deadlines (no spinning): ${processCount} processes on ${cores} cores`);
    // The driver serves /metrics too, on a port it chooses and names on the bus ('serving'): one
    // chosen here and handed over could be taken by another process in between.
    bus.on('serving', (m) => targets.set(m.member, m.http));
    const driver = new RunProcess(
      'driver',
      join(logs, 'driver.log'),
      serviceMain('driver'),
      [
        '--nats',
        url,
        '--run',
        o.run,
        '--spec',
        o.specFile,
        '--out',
        o.out,
        '--timer-spin-ms',
        timerSpin,
        '--http-port',
        '0',
        '--speedup',
        String(o.spec.live.speedup),
        ...o.sets.flatMap((s) => ['--set', s]),
        ...(o.lenient ? ['--lenient'] : []),
      ],
      envOf('driver'),
    );
    processes.push(driver);
    const launch = (m: string, extra: readonly string[] = []) => {
      const service = serviceOf.get(m)!;
      const args = [
        '--nats',
        memberUrl.get(m) ?? url,
        '--run',
        o.run,
        '--http-port',
        '0',
        '--timer-spin-ms',
        timerSpin,
        service === 'site' ? '--site' : '--member',
        m,
        ...extra,
      ];
      const p = new RunProcess(m, join(logs, `${m}.log`), serviceMain(service), args, envOf(m));
      processes.push(p);
      return p;
    };
    const current = new Map(members.map((m) => [m, launch(m)]));
    say(
      `run ${o.run}: driver and ${members.length} process${members.length === 1 ? '' : 'es'} (${members.join(', ')}); logs in ${logs}`,
    );

    let failure: string | undefined;
    /** Stops the run once. A dead member is reported to the driver, which aborts naming it; anything else signals the driver. */
    const fail = (reason: string, dead?: { member: string; error: string }) => {
      if (failure !== undefined || !driver.running) return;
      failure = reason;
      say(`stopping: ${reason}`);
      if (dead) {
        bus.publish({ kind: 'failed', ...dead });
        setTimeout(() => driver.kill('SIGTERM'), 15_000).unref(); // should the driver not react
      } else {
        driver.kill('SIGTERM'); // the driver aborts the run, tells every process, and writes what it has
      }
    };
    const unplannedRestarts = new Map<string, number>();
    /** Processes killed on purpose (faults.crash): their death does not stop the run. */
    const killedByPlan = new Set<RunProcess>();
    const watch = (p: RunProcess) => {
      void p.exited.then(() => {
        if (p.exit?.code === 0 || !driver.running || killedByPlan.has(p)) return;
        // live.journal: a process killed from outside (kill -9, the OOM killer) is started again
        // and rejoins from its journal, as a restart policy would; one that failed on its own is not.
        const restarts = unplannedRestarts.get(p.name) ?? 0;
        if (
          o.spec.live.journal === true &&
          p.exit?.signal &&
          restarts < MAX_UNPLANNED_RESTARTS &&
          failure === undefined
        ) {
          unplannedRestarts.set(p.name, restarts + 1);
          countRestart(p.name, 'unplanned');
          say(
            `${p.name} (pid ${p.pid}) ${p.describeExit()}; starting it again to rejoin from its journal (live.journal)`,
          );
          const reborn = launch(p.name);
          current.set(p.name, reborn);
          watch(reborn);
          return;
        }
        const what = `${serviceOf.get(p.name)} process ${p.name} (pid ${p.pid}) ${p.describeExit()} during the run`;
        fail(`${what}; last lines of ${p.logFile}:\n${p.tail()}`, {
          member: p.name,
          error: `process ${p.describeExit()}`,
        });
      });
    };
    for (const p of current.values()) watch(p);
    // faults.crash: SIGKILL the process at each emulated time and start it again down_s later, with
    // the same arguments; it replays its journal and rejoins the run.
    const crashTimers: NodeJS.Timeout[] = [];
    cleanup.push(async () => crashTimers.forEach((t) => clearTimeout(t)));
    if (faults.crash.length > 0) {
      bus.on('start', (m) => {
        const clock = new EmulatedClock(m.epoch_s, m.wallEpoch_ms, m.speedup);
        for (const c of faults.crash) {
          crashTimers.push(
            setTimeout(
              () => {
                const victim = current.get(c.process);
                if (!victim?.running || !driver.running || failure !== undefined) return;
                killedByPlan.add(victim);
                const crashed_s = clock.now_s();
                victim.kill('SIGKILL');
                crashesInjected++;
                say(
                  `killed ${c.process} (pid ${victim.pid}) at emulated ${Math.round(crashed_s)} s (faults.crash); back in ${c.down_s} emulated s`,
                );
                void victim.exited.then(async () => {
                  await new Promise((done) =>
                    setTimeout(done, Math.max(0, clock.wall_ms(c.at_s + c.down_s) - wallNow_ms())),
                  );
                  if (!driver.running || failure !== undefined) return;
                  const reborn = launch(c.process, ['--crashed-at', String(crashed_s)]);
                  current.set(c.process, reborn);
                  watch(reborn);
                  crashesApplied++;
                  countRestart(c.process, 'planned');
                });
              },
              Math.max(0, clock.wall_ms(c.at_s) - wallNow_ms()),
            ),
          );
        }
      });
    }
    const onSignal = (signal: string) => fail(`interrupted by ${signal}`);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    cleanup.push(async () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    });
    const limit =
      (o.timeout_s ?? 0) > 0
        ? setTimeout(() => fail(`the run did not end within --timeout ${o.timeout_s} s`), o.timeout_s! * 1000)
        : undefined;
    cleanup.push(async () => clearTimeout(limit));

    await driver.exited;
    const code = driver.exit?.code ?? 1;
    if (code !== 0 && failure === undefined) {
      failure =
        code === 2
          ? `the driver refused its input:\n${driver.tail(4)}`
          : code === 3
            ? 'the schedule check failed (summary.json, schedule_check)'
            : `the driver ${driver.describeExit()}; last lines of ${driver.logFile}:\n${driver.tail()}`;
    }
    // Members leave on the driver's `end` or `abort`; give them a moment, then stop any that linger.
    const grace = Date.now() + 10_000;
    while (processes.some((p) => p.running) && Date.now() < grace) await new Promise((r) => setTimeout(r, 50));
    const lingering = processes.filter((p) => p.running);
    if (lingering.length > 0)
      say(`stopping ${lingering.map((p) => p.name).join(', ')}, still running after the driver ended`);
    let completedJobs: number | undefined;
    if (prometheus) {
      // The members have lingered through a last scrape and left: ask what Prometheus saw.
      completedJobs = await prometheus.query(completedJobsQuery(o.run)).catch((err: unknown) => {
        say(`could not ask Prometheus: ${(err as Error).message}`);
        return undefined;
      });
    }
    const promResult = {
      config: targets.configFile,
      ...(prometheus ? { url: prometheus.url } : {}),
      ...(completedJobs !== undefined ? { completedJobs } : {}),
    };
    return {
      code: failure === undefined ? 0 : code === 2 ? 2 : 1,
      ...(failure !== undefined ? { failure } : {}),
      logs,
      proxyFaults: proxyCounts(),
      natsRestarts,
      crashesApplied,
      unplannedRestarts: Object.fromEntries(unplannedRestarts),
      prometheus: promResult,
    };
  } finally {
    await Promise.all(processes.map((p) => p.stop(3000)));
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
  }
}
