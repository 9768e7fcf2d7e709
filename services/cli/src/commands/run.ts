import { PROMETHEUS_HINT, prometheusBinary } from '../live/prometheus-server.js';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { journalStoreOption, parseCommandArgs } from '../command-args.js';
import { describeScheduleCheck, writeProtocolTrace, type RunSummary, type ScheduleCheck } from '@gridemu/metrics';
import { parseOverride, parseOverrides, type Job, type LoadedSpec } from '@gridemu/model';
import { loadExperiment, loadExperimentWorkload } from '@gridemu/schemes';
import { INSTALL_HINT, natsServerBinary } from '@gridemu/nats-server';
import { checkRunId } from '@gridemu/runtime';
import { EXIT_FAILED, EXIT_OK, UsageError } from '../exit-codes.js';
import { runLive, type LiveStatus } from '../live/live-run.js';
import { describeRunLength, progressDetail, runLength } from '../live/run-length.js';
import { fidelityEstimateLines } from '../live/fidelity-estimate.js';
import { protocolTraceFromLogs } from '../live/protocol-trace-from-logs.js';
import { slowConsumerNote } from '../live/slow-consumers.js';
import { makeOutputFolder } from '../output-folder.js';
import { ProgressBar } from '../progress.js';
import { renderLiveSummary, renderSummary } from '../summary-table.js';
import { workloadWarnings } from '../workload-warnings.js';
import { sameJobsEveryRun } from '../seed-spread.js';
import { clearSeedsFolder, renderSeedMeans, seedFolder, writeSeedTables } from '../seed-tables.js';
import { flattenSummary } from '../sweep/metrics-table.js';
import { CHECK_FILE, checkResultsFolder, type RunCheckFile } from './check.js';

export const RUN_HELP = `Usage: gridemu run SPEC [--out DIR] [--nats URL] [--speedup S] [--set path=value]... [options]

Runs the experiment as a distributed system: one process per site (and one for the central
metascheduler of centralized and hierarchical), a driver that replays the workload, NATS between
them, the spec's link latency applied on the wire by a delay proxy per process, and time
compressed by the speed-up (emulated time = epoch + wall time x S). Writes the same
DIR/jobs.csv and DIR/summary.json as simulate, plus summary.live (latency seen, timer lag,
processes and their memory) and every process's log in DIR/logs/.

The spec's faults: are applied for real: a crash is a SIGKILL of the process, which is started
again down_s later and replays its journal (local files in DIR/journal, or with --journal-store
jetstream a stream in DIR/nats/jetstream) to rejoin; partitions and loss are done by the delay
proxies; nats_restart stops and restarts the server.
With live: { journal: true }, a process killed outside the plan (kill -9) is started again too.
The driver alone writes summary.json, with the faults this command injected. At the end the run
is checked as \`gridemu check DIR\` would, into DIR/check.json; DIR/experiment.json is the
experiment as it ran, its --set overrides and speed-up applied.

Options:
  --out DIR            where to write results (default: results/<name>-live)
  --nats URL           use this NATS server; without it, nats-server from PATH is started on a
                       free loopback port and stopped at the end. A server that asks for
                       credentials: nats://USER:PASSWORD@host:port (or TOKEN@), or NATS_USER
                       and NATS_PASSWORD (NATS_TOKEN), which come first; every process gets them
                       in its environment, and the password is shown nowhere
  --speedup S          emulated seconds per wall second (default: live.speedup of SPEC, 1000);
                       the run first says how long its submissions last at S
  --set path=value     override a field of SPEC, e.g. --set network.latency_ms=10
  --run ID             run id (default: <name>-<random>); runs on one server never mix
  --timeout S          stop the run if it has not ended after S wall seconds (default: no limit)
  --timer-spin-ms MS   how long each process spins before a timer's deadline, for sub-millisecond
                       timers (default: 2, or 0 when the run has more processes than this machine
                       has cores, where spinning starves the other processes)
  --prometheus         start Debian's prometheus on the run's scrape configuration (always
                       written to DIR/prometheus/prometheus.yml, for your own Prometheus), print
                       its address, and record what it saw in check.json's prometheus
  --seeds N            run the experiment N times, with seeds S, S+1, ... S+N-1 (S: the spec's
                       seed), one live run after another, each into DIR/seed-<s>/ and checked
                       as one run is; then DIR/seeds.csv (a row per seed) and DIR/seeds.json
                       (every metric's mean with its 90% interval, the felt delay's among them),
                       as simulate --seeds writes. The first run that does not pass stops them.
                       --timeout is each run's; --run ID becomes ID-seed-<s>
  --journal-store S    where processes keep their journals (faults.crash, live.journal): file
                       (default: local files in DIR/journal, which survive the process and keep
                       pace with the run) or jetstream (the server's store, which survives the
                       host too, at a cost in delay: docs/faults.md; on a --nats server, which
                       must have JetStream on (-js), a run that ended deletes its streams, one
                       that did not names them)
  --tls                the run's own nats-server takes TLS only, with a CA and certificate made
                       for the run (DIR/nats/tls; needs openssl). With link latency or faults,
                       each delay proxy ends its process's TLS and opens its own to the server
  --lenient            skip and count malformed trace lines instead of failing
  --quiet              print no summary table
  -h, --help           this help

A process that dies, Ctrl-C or --timeout stop the whole run; the driver still writes what it has
(summary.json marks it with live.aborted) and the exit code is 1.`;

export async function runCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('run', {
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      nats: { type: 'string' },
      speedup: { type: 'string' },
      set: { type: 'string', multiple: true },
      run: { type: 'string' },
      timeout: { type: 'string' },
      'timer-spin-ms': { type: 'string' },
      lenient: { type: 'boolean' },
      tls: { type: 'boolean' },
      prometheus: { type: 'boolean' },
      'journal-store': { type: 'string' },
      seeds: { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(RUN_HELP);
    return EXIT_OK;
  }
  if (positionals.length !== 1) throw new UsageError(`run takes one experiment file\n\n${RUN_HELP}`);
  const file = resolve(positionals[0]!);
  // The one reading of the experiment: the driver and the members get it from here as data.
  const speedup =
    values.speedup !== undefined
      ? [{ ...parseOverride(`live.speedup=${values.speedup}`, '--speedup'), given: `--speedup ${values.speedup}` }]
      : [];
  const overrides = [...parseOverrides(values.set ?? []), ...speedup];
  const experiment = loadExperiment(file, overrides);
  const { spec } = experiment;
  if (spec.faults.nats_restart.length > 0 && values.nats)
    throw new UsageError(
      `${file}: faults.nats_restart: gridemu run restarts only a server it started itself, not the one at --nats`,
    );
  if (values.tls && values.nats)
    throw new UsageError(
      "--tls makes certificates for the run's own nats-server; with --nats URL, the server is yours: give the processes its CA in NATS_CA",
    );
  const seeds = values.seeds === undefined ? undefined : Number(values.seeds);
  if (seeds !== undefined && !(Number.isInteger(seeds) && seeds >= 1))
    throw new UsageError(`--seeds must be a positive integer (got "${values.seeds}")`);
  const timeout_s = values.timeout === undefined ? 0 : Number(values.timeout);
  if (!(timeout_s >= 0)) throw new UsageError(`--timeout must be a number of seconds, got "${values.timeout}"`);
  const timerSpin_ms = values['timer-spin-ms'] === undefined ? undefined : Number(values['timer-spin-ms']);
  if (timerSpin_ms !== undefined && !(timerSpin_ms >= 0 && timerSpin_ms <= 100))
    throw new UsageError(`--timer-spin-ms must be milliseconds from 0 to 100, got "${values['timer-spin-ms']}"`);
  if (values.prometheus && !prometheusBinary()) {
    console.error(`gridemu: --prometheus: ${PROMETHEUS_HINT}`);
    return EXIT_FAILED;
  }
  if (!values.nats && !natsServerBinary()) {
    console.error(`gridemu: ${INSTALL_HINT}, or give --nats URL`);
    return EXIT_FAILED;
  }
  const journalStore = journalStoreOption(values['journal-store']) ?? 'file';
  // The workload is read once here, before any process starts, so that a malformed trace line or a
  // fault timed before the first submission fails at once and the same way as in `gridemu
  // simulate`, not from the driver after every process has started (issue 33 point 3). The driver
  // reads it again as its own input.
  const workload = await loadExperimentWorkload(spec, {
    specFile: file,
    lenient: values.lenient === true,
    locateIssues: experiment.locate,
  });
  for (const w of workloadWarnings(workload.sources)) console.error(`gridemu: ${w}`);
  const out = resolve(values.out ?? `results/${spec.name}-live`);
  makeOutputFolder(out, '--out');
  const options: RunOptions = {
    ...(values.nats ? { nats: values.nats } : {}),
    tls: values.tls === true,
    prometheus: values.prometheus === true,
    journalStore,
    lenient: values.lenient === true,
    timeout_s,
    ...(timerSpin_ms !== undefined ? { timerSpin_ms } : {}),
    quiet: values.quiet === true,
  };
  const runId = (name: string, seed?: number) =>
    checkRunId(
      (values.run ?? `${name.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 40)}-${randomBytes(3).toString('hex')}`) +
        (seed === undefined || values.run === undefined ? '' : `-seed-${seed}`),
    );
  if (seeds === undefined) return (await runOnce(experiment, out, runId(spec.name), workload.jobs, options)).code;

  // The same experiment again with seeds S, S+1, ..., each a live run of its own in DIR/seed-<s>/,
  // as simulate --seeds does; the tables over them are simulate's too.
  clearSeedsFolder(out);
  const rows: Record<string, number>[] = [];
  const digests: (string | undefined)[] = [];
  for (let k = 0; k < seeds; k++) {
    const seed = spec.seed + k;
    const seeded = loadExperiment(file, [
      ...overrides,
      { ...parseOverride(`seed=${seed}`, '--seeds'), given: `--seeds ${seeds} (seed ${seed})` },
    ]);
    // Each seed's workload and faults are its own: checked before its processes start, as the first's were.
    const jobs =
      k === 0
        ? workload.jobs
        : (
            await loadExperimentWorkload(seeded.spec, {
              specFile: file,
              lenient: values.lenient === true,
              locateIssues: seeded.locate,
            })
          ).jobs;
    if (!values.quiet) console.error(`seed ${seed} (${k + 1}/${seeds}):`);
    const result = await runOnce(seeded, seedFolder(out, seed), runId(spec.name, seed), jobs, options);
    if (result.code !== EXIT_OK || !result.summary) {
      console.error(
        `gridemu: the run of seed ${seed} did not pass (exit ${result.code}); the seeds stop there, its results are in ${seedFolder(out, seed)}`,
      );
      return result.code === EXIT_OK ? EXIT_FAILED : result.code;
    }
    rows.push({ seed, ...flattenSummary(result.summary) });
    digests.push(result.summary.jobs_sha256);
  }
  const written = writeSeedTables(out, rows, sameJobsEveryRun(digests));
  if (!values.quiet) {
    process.stdout.write(
      `\n${seeds} live runs:\n` +
        renderSeedMeans(written, spec.meta.scheme, { extra: ['live_latency_mean_ms', 'live_timer_lag_mean_ms'] }),
    );
    const warned = rows.filter((r) => (r['live_fidelity_warnings'] ?? 0) > 0).map((r) => r['seed']);
    if (warned.length > 0)
      process.stdout.write(
        `FIDELITY WARNING: the guard warned in the run${warned.length === 1 ? '' : 's'} of seed${warned.length === 1 ? '' : 's'} ${warned.join(', ')} (seeds.csv's live_fidelity_warnings; each run's summary.live.fidelity.measured.warnings): the means over the seeds include what it says those runs measured of the emulator rather than the scheme\n`,
      );
  }
  return EXIT_OK;
}

/** How every run of one `gridemu run` is made: its options, read once. */
interface RunOptions {
  readonly nats?: string;
  readonly tls: boolean;
  readonly prometheus: boolean;
  readonly journalStore: 'file' | 'jetstream';
  readonly lenient: boolean;
  readonly timeout_s: number;
  readonly timerSpin_ms?: number;
  readonly quiet: boolean;
}

/**
 * One live run of `experiment` into `out`: the run, its summary printed, and `gridemu check` on
 * its folder into check.json. The exit code, and the summary of a run that passed.
 */
async function runOnce(
  experiment: LoadedSpec,
  out: string,
  run: string,
  jobs: readonly Job[],
  options: RunOptions,
): Promise<{ code: number; summary?: RunSummary }> {
  const { spec } = experiment;
  makeOutputFolder(out, '--out');
  const say = (line: string) => {
    if (!options.quiet) console.error(line);
  };
  say(`gridemu run ${spec.name}: ${spec.meta.scheme}, speed-up ${spec.live.speedup}`);
  const length = runLength(jobs, spec.live.speedup);
  say(describeRunLength(length));
  for (const line of fidelityEstimateLines(spec, jobs)) say(line);
  const bar = new ProgressBar(
    `run ${spec.name}`,
    process.stderr,
    Boolean(process.stderr.isTTY) && !options.quiet,
    options.quiet ? 0 : 10_000,
  );
  const result = await runLive({
    experiment,
    out,
    run,
    ...(options.nats !== undefined ? { nats: options.nats } : {}),
    tls: options.tls,
    prometheus: options.prometheus,
    journalStore: options.journalStore,
    lenient: options.lenient,
    timeout_s: options.timeout_s,
    ...(options.timerSpin_ms !== undefined ? { timerSpin_ms: options.timerSpin_ms } : {}),
    say: (line) => {
      bar.done();
      say(line);
    },
    onStatus: (s: LiveStatus) => {
      if (s.phase === 'joining') bar.update(s.ready, s.expected, 'processes ready');
      else bar.update(s.finished, s.total, progressDetail(length, s.emulated_s, s.wall_s));
    },
  });
  bar.done();
  // The steps every process logged, as one file like simulate's (per-job traces in both modes).
  const protocolTrace =
    spec.protocol_trace === true && existsSync(result.logs)
      ? writeProtocolTrace(out, protocolTraceFromLogs(result.logs))
      : undefined;
  const summaryFile = resolve(out, 'summary.json');
  if (result.failure) console.error(`gridemu: run failed: ${result.failure}`);
  // Only the server's log says whom it cut off; a failed run's lost jobs may be why it failed.
  const slow = slowConsumerNote(resolve(out, 'nats', 'nats-server.log'), run, spec.live.journal === true);
  if (slow !== undefined) (result.failure ? console.error : say)(`gridemu: ${slow}`);
  if (!existsSync(summaryFile)) return { code: result.code };
  // The driver wrote it, once; this process only reads it.
  const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as RunSummary & { schedule_check?: ScheduleCheck };
  const impossible = summary.schedule_check !== undefined && !summary.schedule_check.ok;
  // A failed or impossible run is not checked below: its folder has no check.json.
  const checked = result.code === EXIT_OK && !impossible;
  if (!options.quiet && result.code !== 2) {
    process.stdout.write(renderSummary(summary));
    process.stdout.write(renderLiveSummary(summary));
    const written = [
      resolve(out, 'jobs.csv'),
      summaryFile,
      ...(checked ? [resolve(out, CHECK_FILE)] : []),
      resolve(out, 'experiment.json'),
      ...(protocolTrace ? [protocolTrace] : []),
      `${result.logs}/`,
    ];
    console.log(`\nwrote ${written.join('\n      ')}`);
  }
  if (summary.schedule_check && impossible) {
    console.error(
      `gridemu: ${resolve(out, 'jobs.csv')} records a schedule that cannot have happened:\n  ${describeScheduleCheck(summary.schedule_check).join('\n  ')}`,
    );
    return { code: EXIT_FAILED };
  }
  if (!checked) return { code: result.code };
  // gridemu check on the finished run, logs and all, and what Prometheus saw: checks.json, beside the results.
  const invariants = checkResultsFolder(out);
  const ok = invariants.every((i) => i.ok);
  const p = result.prometheus;
  const check: RunCheckFile = {
    ok,
    invariants,
    prometheus: {
      config: p.config,
      ...(p.url ? { url: p.url } : {}),
      ...(p.completedJobs !== undefined ? { completed_jobs: p.completedJobs } : {}),
    },
  };
  writeFileSync(resolve(out, CHECK_FILE), JSON.stringify(check, null, 2) + '\n');
  if (p.url) {
    // Set beside jobs.csv's, so that a dashboard read during the run can be trusted as far as it goes.
    const completed = summary.jobs.completed;
    const against =
      p.completedJobs === completed
        ? ', as jobs.csv does'
        : `; jobs.csv has ${completed} (Prometheus has what the sites' last scrapes saw: see docs/observability.md)`;
    say(
      `Prometheus (${p.url}, now stopped; its data is in ${resolve(out, 'prometheus', 'data')}) counted ${p.completedJobs ?? 'no'} completed jobs${against}`,
    );
  }
  if (!ok) {
    for (const i of invariants.filter((x) => !x.ok)) console.error(`gridemu: invariant broken: ${i.name}: ${i.detail}`);
    return { code: EXIT_FAILED };
  }
  return { code: EXIT_OK, summary };
}
