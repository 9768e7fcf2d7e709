#!/usr/bin/env node
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { join, resolve } from 'node:path';
import {
  closeConnection,
  connectFirst,
  ControlBus,
  fidelityInputs,
  feltHop_ms,
  judgeBacklog,
  judgeFidelity,
  leadRun,
  liveResults,
  readResolvedExperiment,
  natsConnectOptions,
  natsFlagOptions,
  probeBus,
  shortestTimescale,
  shownNatsUrl,
  startHealthServer,
  timerSpinOf,
  timerWindowsOf,
} from '@gridemu/live';
import {
  buildRunSummary,
  checkSchedule,
  describeScheduleCheck,
  executedJobsFromCsv,
  runProvenance,
  writeJobsCsv,
  writeSummary,
} from '@gridemu/metrics';
import { InputError, parseOverrides, UnavailableError, UsageError } from '@gridemu/model';
import { loadExperiment, loadExperimentWorkload, schemeSummaryInput } from '@gridemu/schemes';
import { jobsSha256 } from '@gridemu/workload';
import { checkRunId, withFields } from '@gridemu/runtime';
import { pinoLogger, type LiveRuntime } from '@gridemu/runtime/live';
import { abortCause, ToldStop } from './told-stop.js';

const HELP = `Usage: gridemu-driver --run RUN (--spec FILE [--set path=value]... | --experiment FILE) --out DIR [--nats URL]

Leads a live run: answers the site processes' hello with the plan, waits until all are ready, starts
every clock at one epoch, submits each job to its origin at its emulated submission time, and when
every job has its outcome writes DIR/jobs.csv and DIR/summary.json (the same writers as simulate).
If the run is aborted (a process failed or went silent) it still writes what it has, marks
summary.json with live.aborted, and exits 1.

Options (each also from the environment):
  --nats URL             NATS server                    NATS_URL (default nats://127.0.0.1:4222)
  --user, --password     NATS credentials               NATS_USER, NATS_PASSWORD
  --token TOKEN          NATS token                     NATS_TOKEN
  --tls-ca FILE          connect over TLS, trusting this CA   NATS_CA
  --run RUN              run id                         GRIDEMU_RUN
  --spec FILE            experiment file                GRIDEMU_SPEC
  --set path=value       override a field of the spec (the speed-up: --set live.speedup=S)
  --experiment FILE      an experiment.json gridemu run wrote: the experiment as data, overrides applied
  --out DIR              results folder                 GRIDEMU_OUT (default results/<name>-live)
  --lenient              skip malformed trace lines
  --ready-timeout S      wait this long for every process (default 60)
  --heartbeat-timeout S  a process silent this long stops the run (default 10; 60 with live.journal;
                         longer where an external policy may block a site)
  --http-port N          /healthz and /metrics; 0: any  GRIDEMU_HTTP_PORT (default 9465)
  --log-level L          pino level                     GRIDEMU_LOG_LEVEL (default info)
  --timer-spin-ms MS     spin this long before a timer  GRIDEMU_TIMER_SPIN_MS (default 2; 0: never)
  --stop-on-stdin        read why to stop from standard input, one JSON line {"stop": "reason"},
                         kept as summary.json's live.aborted (gridemu run tells its driver so)`;

async function main(argv: string[]): Promise<number> {
  const env = process.env;
  const { values } = parseArgs({
    args: argv,
    options: {
      ...natsFlagOptions(env),
      spec: { type: 'string', default: env['GRIDEMU_SPEC'] },
      out: { type: 'string', default: env['GRIDEMU_OUT'] },
      set: { type: 'string', multiple: true },
      experiment: { type: 'string' },
      lenient: { type: 'boolean' },
      'ready-timeout': { type: 'string', default: '60' },
      'heartbeat-timeout': { type: 'string' },
      'http-port': { type: 'string', default: env['GRIDEMU_HTTP_PORT'] ?? '9465' },
      'stop-on-stdin': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (!values.run) throw new UsageError('--run is required');
  checkRunId(values.run);
  if ((values.spec === undefined) === (values.experiment === undefined))
    throw new UsageError('give the experiment as --spec FILE or as --experiment FILE (one of them)');
  if (values.experiment !== undefined && values.set !== undefined)
    throw new UsageError('--set applies to --spec; an --experiment file has its overrides applied already');
  // The one place a live run reads its experiment: members get it from here as data, in the plan.
  const experiment =
    values.experiment !== undefined
      ? readResolvedExperiment(values.experiment)
      : loadExperiment(values.spec!, parseOverrides(values.set ?? []));
  const { spec } = experiment;
  const workload = await loadExperimentWorkload(spec, {
    specFile: experiment.file,
    lenient: values.lenient === true,
    locateIssues: experiment.locate,
  });
  const timerSpin_ms = timerSpinOf(values);
  if (typeof timerSpin_ms === 'string') throw new UsageError(timerSpin_ms);
  const log = withFields(pinoLogger(values.run, { level: values['log-level'] ?? 'info' }), { site: 'driver' });
  const httpPort = Number(values['http-port']);
  if (!Number.isInteger(httpPort) || httpPort < 0 || httpPort > 65535)
    throw new UsageError(`--http-port must be a port number, got "${values['http-port']}"`);
  // The driver's own /metrics: the run's progress and the driver runtime's counters.
  const state: { phase: string; runtime: LiveRuntime | undefined } = { phase: 'running', runtime: undefined };
  const health = await startHealthServer(
    httpPort,
    { run: values.run, site: 'driver' },
    {
      get phase() {
        return state.phase;
      },
      get runtime() {
        return state.runtime;
      },
      scheme: spec.meta.scheme,
    },
  );
  log.info({ http: health.address }, 'driver serving /healthz and /metrics');
  // As the members do: a server still starting (compose, a pod) is waited for a while.
  const first = await connectFirst(natsConnectOptions(values, `gridemu-${values.run}-driver`));
  if ('error' in first) {
    await health.close();
    throw new UnavailableError(`cannot connect to NATS at ${shownNatsUrl(values.nats)}: ${first.error}`);
  }
  const nc = first.nc;
  // gridemu run lets the driver choose its port, so no other process can take it first; the
  // orchestrator learns it here and names it in the scrape targets.
  new ControlBus(nc, values.run, log, 'driver').publish({ kind: 'serving', member: 'driver', http: health.address });
  // The fidelity guard, before the run: one hop is the spec's link latency and what a
  // trip through the server costs now; both become speed-up times as long in emulated time.
  const { timescales, reports } = fidelityInputs(spec, workload.jobs);
  const probe = await probeBus(nc, values.run);
  const before = judgeFidelity({
    speedup: spec.live.speedup,
    hop_ms: probe.hop_ms + spec.network.latency_ms,
    timer_lag_ms: probe.timer_lag_ms,
    timescales,
    reports,
  });
  for (const w of before.warnings) log.warn({ event: 'fidelity.warning', when: 'before the run' }, w);
  const started = Date.now();
  let stopping: string | undefined;
  // Not once: a signal to the whole process group (Ctrl-C, `timeout`, `kill -- -PGID`) comes with
  // gridemu run's own SIGTERM, and a second one must not kill the driver while it writes the results.
  process.on('SIGTERM', () => (stopping ??= 'SIGTERM'));
  process.on('SIGINT', () => (stopping ??= 'SIGINT'));
  // The orchestrator's reason, when it stops the run, says more than the signal that follows it.
  const told =
    values['stop-on-stdin'] === true
      ? new ToldStop(process.stdin, (line) =>
          log.warn({ line: line.slice(0, 200) }, 'ignored a line on standard input that is not {"stop": "reason"}'),
        )
      : undefined;
  let lastLogged = 0;
  const led = await leadRun({
    nc,
    run: values.run,
    spec,
    experiment: experiment.data,
    jobs: workload.jobs,
    log,
    readyTimeout_s: Number(values['ready-timeout']),
    heartbeatTimeout_s: values['heartbeat-timeout'] === undefined ? undefined : Number(values['heartbeat-timeout']),
    shouldStop: () => told?.reason ?? (stopping ? `the driver got ${stopping}` : undefined),
    timerSpin_ms,
    onRuntime: (rt) => (state.runtime = rt),
    onHandled: health.observeHandler,
    onProgress: (p) => {
      if (p.wall_s - lastLogged < 10 && p.finished < p.total) return;
      lastLogged = p.wall_s;
      log.info(
        { finished: p.finished, total: p.total, now_s: Math.round(p.now_s), wall_s: Math.round(p.wall_s) },
        'progress',
      );
    },
  });
  const aborted = abortCause(led.aborted, told?.reason);
  const result = { ...led, ...(aborted === undefined ? {} : { aborted }) };
  told?.close();
  await closeConnection(nc);
  state.phase = result.aborted ? 'failed' : 'done';
  const results = liveResults(result, spec.live.speedup, reports.interval_ms);
  const { messages, counters } = results;
  // And after it, from what the hops and timers actually cost.
  const hop_ms = feltHop_ms(results.network.links);
  const timerLag = results.live.timer_lag_ms;
  const mean =
    hop_ms === undefined
      ? undefined
      : judgeFidelity({ speedup: spec.live.speedup, hop_ms, timer_lag_ms: timerLag.mean_ms, timescales, reports });
  // And stretch by stretch: a run whose means are small can still fall behind its clock for a while.
  const timeline = results.network.mailbox?.timer_fire_timeline;
  // The windows hold timers' lateness before their mailbox; the run's mean of the same.
  const fireLag = results.network.mailbox?.timer_fire_lag;
  const shortest = shortestTimescale(timescales);
  const backlog =
    mean && timeline && fireLag && fireLag.count > 0 && shortest
      ? judgeBacklog({
          speedup: spec.live.speedup,
          bin_s: timeline.bin_s,
          timers: timerWindowsOf(timeline),
          submits_s: workload.jobs.map((j) => j.submit_s),
          timescale: shortest,
          share: mean.share,
          run_mean_ms: fireLag.sum_ms / fireLag.count,
        })
      : undefined;
  const measured = mean && {
    ...mean,
    ...(backlog ? { backlog } : {}),
    warnings: [...mean.warnings, ...(backlog?.warnings ?? [])],
  };
  for (const w of measured?.warnings ?? []) log.warn({ event: 'fidelity.warning', when: 'measured in the run' }, w);
  const fidelity = {
    timescales,
    report_periods: reports.periods,
    report_interval_ms: reports.interval_ms,
    probe,
    before,
    ...(measured ? { measured } : {}),
  };
  const live = { ...results.live, timer_spin_ms: timerSpin_ms, fidelity };
  const summary = buildRunSummary({
    spec,
    mode: 'run',
    records: result.driver.records,
    execSites: result.execSites,
    messages,
    counters,
    workload: workload.sources,
    jobs_sha256: jobsSha256(workload.jobs),
    wall_s: (Date.now() - started) / 1000,
    provenance: runProvenance(),
    live,
    ...schemeSummaryInput(spec, counters, result.driver.records),
  });
  // Every live run checks, from jobs.csv as written, that its schedule could have happened: a live
  // clock read at the wrong moment once put two jobs on the same processors, and only the file shows it.
  const out = resolve(values.out ?? `results/${spec.name}-live`);
  const jobsPath = writeJobsCsv(out, result.driver.records);
  const check = checkSchedule(
    executedJobsFromCsv(readFileSync(jobsPath, 'utf8'), jobsPath),
    new Map(result.execSites.map((s) => [s.id, s.cpus])),
  );
  const summaryPath = writeSummary(out, { ...summary, schedule_check: check });
  // The network this run had, for `gridemu simulate SPEC --network-from OUT`.
  writeFileSync(join(out, 'network.json'), JSON.stringify(results.network) + '\n');
  log.info(
    { jobs_csv: jobsPath, summary_json: summaryPath, aborted: result.aborted, schedule_ok: check.ok },
    'results written',
  );
  // Kept serving a moment after the results, like the members, so a scraper has the end (GRIDEMU_LINGER_MS).
  const linger_ms = Number(env['GRIDEMU_LINGER_MS'] ?? 0);
  if (linger_ms > 0) await new Promise((r) => setTimeout(r, linger_ms));
  await health.close();
  if (!check.ok) {
    for (const line of describeScheduleCheck(check)) log.error({ event: 'schedule.impossible' }, line);
    return EXIT_SCHEDULE_IMPOSSIBLE;
  }
  return result.aborted ? 1 : 0;
}

/** jobs.csv records a schedule that cannot have happened (a site over capacity, a processor held twice). */
const EXIT_SCHEDULE_IMPOSSIBLE = 3;

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    const bad = err instanceof InputError;
    const said = bad || err instanceof UnavailableError;
    console.error(
      `gridemu-driver: ${err instanceof Error ? (said ? err.message : (err.stack ?? err.message)) : String(err)}${err instanceof UsageError ? `\n\n${HELP}` : ''}`,
    );
    // Now: what failed may have left a server or a connection open that would keep the process up.
    process.exit(bad ? 2 : 1);
  },
);
