import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { keepsJournal, liveLocations, writeResolvedExperiment } from '@gridemu/live';
import type { LoadedSpec } from '@gridemu/model';
import { DEFAULT_TIMER_SPIN_MS } from '@gridemu/runtime/live';
import { FaultInjector } from './fault-injector.js';
import { settleRunJournals } from './journals-on-server.js';
import { ProcessSupervisor } from './process-supervisor.js';
import { ProxySet } from './proxy-set.js';
import { RunClockWatch } from './run-clock.js';
import { RunPlane } from './run-plane.js';
import { lingerEnv, RunWatch, type LiveStatus, type WatchResult } from './run-watch.js';
import { abortedRunOf, clearRunOutputs } from '../results-folder.js';
import { UsageError } from '../exit-codes.js';

export type { LiveStatus } from './run-watch.js';

export interface LiveRunOptions {
  /** The experiment, read once by the command; the driver and the members get it as data. */
  readonly experiment: LoadedSpec;
  readonly out: string;
  readonly run: string;
  /** An existing server; without it a local nats-server is started on a free port. */
  readonly nats?: string;
  /** Our server takes TLS only, with certificates made for the run (the delay proxies end it to read subjects). */
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

export interface LiveRunResult {
  /** 0 done, 1 failed or interrupted, 2 the driver refused its input. */
  readonly code: number;
  readonly failure?: string;
  readonly logs: string;
  /** Where the scrape configuration is, and, with --prometheus, what Prometheus saw. */
  readonly prometheus: WatchResult;
}

/**
 * `gridemu run`'s orchestration: the run's bus (RunPlane), a delay proxy per location when the spec
 * has latency (ProxySet), one process per location and the driver that leads the run and alone
 * writes summary.json (ProcessSupervisor), the spec's crashes and server restarts (FaultInjector),
 * all on the run's one clock (RunClockWatch), and what is watched and told about it (RunWatch).
 * A process that dies makes the run stop with a report naming it; so do Ctrl-C and --timeout.
 * Everything started here is stopped here, whatever happens.
 */
export async function runLive(o: LiveRunOptions): Promise<LiveRunResult> {
  const say = o.say ?? (() => undefined);
  const spec = o.experiment.spec;
  const logs = join(o.out, 'logs');
  // A failed run must not leave an earlier run's results looking like its own.
  clearRunOutputs(o.out);
  mkdirSync(logs, { recursive: true });
  const experimentFile = join(o.out, 'experiment.json');
  writeResolvedExperiment(experimentFile, o.experiment);
  // Each location the plan names, and the process kind (services/<kind>) that hosts it.
  const serviceOf = new Map(liveLocations(spec).map((l) => [l.location, l.service]));
  const members = [...serviceOf.keys()];
  const cleanup: (() => Promise<unknown>)[] = [];
  let processes: ProcessSupervisor | undefined;
  let opened: RunPlane | undefined;
  let ended = false;
  try {
    const plane = await RunPlane.open({ run: o.run, out: o.out, members, say, ...pick(o, 'nats', 'tls') });
    cleanup.push(() => plane.close());
    // Said before any process starts: a journaled process would find it out only after its warm-up,
    // and fail the run with the address of its delay proxy as the server's.
    const journaled = members.some((m) => keepsJournal(spec, m));
    if (o.journalStore === 'jetstream' && journaled && plane.nc.info?.jetstream !== true)
      throw new UsageError(
        `--journal-store jetstream: the server at ${plane.url} runs without JetStream, where this run's processes would keep their journals (start it with -js, or give --journal-store file)`,
      );
    opened = plane;
    const clock = new RunClockWatch(plane.bus);
    // Faults fire on the run's clock, and not once the driver has ended the run.
    plane.bus.on('end', () => clock.stop());
    plane.bus.on('abort', () => clock.stop());
    cleanup.push(async () => clock.stop());

    const proxies = await ProxySet.open(spec, o.run, plane.url, members, clock, plane.proxyTls);
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

    const linger = lingerEnv(o.prometheus === true);
    processes = new ProcessSupervisor({
      run: o.run,
      logs,
      serviceOf,
      urlOf: (m) => proxies.urlOf(m) ?? plane.url,
      envOf: (name) => plane.envOf(name, linger),
      timerSpin_ms: timerSpin,
      ...(o.journalStore === 'jetstream' ? {} : { journalDir: join(o.out, 'journal') }),
      restartUnplanned: spec.live.journal === true,
      bus: plane.bus,
      say,
    });
    const faults = new FaultInjector(spec.faults, clock, processes, plane.restartable, say);
    faults.arm();
    const watch = await RunWatch.start({
      run: o.run,
      out: o.out,
      scheme: spec.meta.scheme,
      members,
      bus: plane.bus,
      clock,
      faults,
      proxies,
      processes,
      prometheus: o.prometheus === true,
      say,
      ...(o.onStatus ? { onStatus: o.onStatus } : {}),
    });
    cleanup.push(() => watch.close());
    await plane.nc.flush();

    const driver = processes.startDriver([
      '--nats',
      plane.url,
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
      '--stop-on-stdin',
      ...(o.lenient ? ['--lenient'] : []),
    ]);
    processes.startMembers();
    faults.startStandbys();
    say(
      `run ${o.run}: driver and ${members.length} process${members.length === 1 ? '' : 'es'} (${members.join(', ')}); logs in ${logs}`,
    );
    cleanup.push(stopOnSignalsAndTimeout(processes, o.timeout_s ?? 0));
    let serverLost = false;
    plane.onServerLost((reason) => {
      serverLost = true;
      processes?.fail(reason);
    });

    await driver.exited;
    const code = driver.exit?.code ?? 1;
    let failure = processes.failure;
    if (code !== 0 && failure === undefined) {
      failure =
        code === 2
          ? `the driver refused its input:\n${driver.tail(4)}`
          : code === 3
            ? 'the schedule check failed (summary.json, schedule_check)'
            : // The driver's own word, as summary.json keeps it, when it aborted the run itself.
              (abortedRunOf(o.out) ??
              `the driver ${driver.describeExit()}; last lines of ${driver.logFile}:\n${driver.tail()}`);
    }
    // Members leave on the driver's `end` or `abort`; give them a moment, then stop any that linger.
    // Without the server they cannot hear either: stopped at once.
    const lingering = await processes.lingering(serverLost ? 0 : 10_000);
    if (lingering.length > 0) say(`stopping ${lingering.join(', ')}, still running after the driver ended`);
    // The members have lingered through a last scrape and left: ask what Prometheus saw.
    const prometheus = await watch.finish(say);
    ended = failure === undefined;
    return {
      code: failure === undefined ? 0 : code === 2 || processes.badInput ? 2 : 1,
      ...(failure !== undefined ? { failure } : {}),
      logs,
      prometheus,
    };
  } finally {
    await processes?.stopAll(3000);
    // Once no process of the run is left to append to them (a standby among them).
    if (opened && o.nats !== undefined && o.journalStore === 'jetstream')
      await settleRunJournals(opened.nc, o.run, opened.url, ended, say);
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
  }
}

/** Ctrl-C, SIGTERM and --timeout stop the run (once); returns what undoes the watching. */
function stopOnSignalsAndTimeout(processes: ProcessSupervisor, timeout_s: number): () => Promise<void> {
  const onSignal = (signal: string) => processes.fail(`interrupted by ${signal}`);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const limit =
    timeout_s > 0
      ? setTimeout(() => processes.fail(`the run did not end within --timeout ${timeout_s} s`), timeout_s * 1000)
      : undefined;
  return async () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    clearTimeout(limit);
  };
}

/** The options of `o` that are set, for passing on under exactOptionalPropertyTypes. */
function pick<T extends object, K extends keyof T>(o: T, ...keys: K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])) as Partial<Pick<T, K>>;
}
