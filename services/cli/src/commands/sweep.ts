import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { journalStoreOption, parseCommandArgs } from '../command-args.js';
import type { RunSummary } from '@gridemu/metrics';
import { formatNumber } from '@gridemu/metrics';
import { parseOverride, parseOverrides } from '@gridemu/model';
import { loadExperiment, loadExperimentWorkload } from '@gridemu/schemes';
import { INSTALL_HINT, natsServerBinary } from '@gridemu/nats-server';
import { EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, UsageError } from '../exit-codes.js';
import { makeOutputFolder } from '../output-folder.js';
import { barChartsHtml } from '../sweep/chart.js';
import { ChildRuns } from '../child-runs.js';
import { finishedRun } from '../sweep/finished-run.js';
import { PROMETHEUS_HINT, prometheusBinary } from '../live/prometheus-server.js';
import { describeSweepLength, runLength, type RunLength } from '../live/run-length.js';
import { workloadWarnings } from '../workload-warnings.js';
import { idleAxes } from '../sweep/idle-axes.js';
import { samplingNotes, sweepSampling } from '../sweep/seeds-sampled.js';
import { flattenSummary } from '../sweep/metrics-table.js';
import { folderName, parseAxes, sweptValue, variants, type Variant } from '../sweep/variants.js';
import { metricsSomeRunLacks, valueForMean, variantMeans } from '../sweep/variant-means.js';

export const SWEEP_HELP = `Usage: gridemu sweep SPEC --vary path=v1,v2,... [--vary ...] [--seeds N] [--set path=value]...
                    [--parallel N] [--out DIR] [--summaries-only] [--resume] [--lenient]
                    [--live [--timeout S] [--journal-store S] [--nats URL] [--tls] [--prometheus]]

Simulates every combination of the --vary values (each with N seeds: the spec's seed, +1, ...),
in parallel, or with --live runs each as gridemu run does, one after another, and writes:
  DIR/sweep.csv        one row per run: the varied values, the seed, every summary metric (empty
                       where the run does not define it, e.g. a mean over no jobs)
  DIR/sweep-mean.csv   one row per variant: each metric's mean over the seeds that define it, and
                       the half-width of its 90% confidence interval (<metric>_ci90); for a metric
                       some run leaves undefined, how many runs the mean is over (<metric>_runs)
  DIR/sweep.html       bar charts of the main metrics per variant, each mean with its 90% interval
  DIR/<variant>/       each run's results folder: jobs.csv and summary.json, and a live run's
                       logs and check.json (summary.json alone with --summaries-only)

Options:
  --vary path=v1,v2    a field and the values to try, e.g. --vary network.latency_ms=0,10,50; one
                       whose values change no run's results is warned of (a field the scheme
                       does not read?); each field in one --vary, each value once; a --set of a
                       swept field must give one of its values; the seed is swept with --seeds
  --seeds N            seeds per variant (default 1)
  --set path=value     applies to every variant
  --parallel N         runs at once (default: the number of cores)
  --out DIR            default results/<name>-sweep
  --summaries-only     keep each run's summary.json and nothing else: the tables above need no
                       more, and a run's jobs.csv can be tens of MB (every local job included);
                       a live run keeps its check.json too
  --resume             keep the runs an earlier sweep into DIR finished (the same experiment, every
                       override and seed resolved; live, its check passed) and make only the rest:
                       after a failed run, a Ctrl-C or a larger --seeds (a kept run's gridemu
                       and live options were those of its own sweep)
  --lenient            each run skips and counts malformed trace lines instead of failing (said
                       once at the end, per source); without it a malformed line, like any bad
                       input, stops the sweep: no run starts after the first that exits 2

Live (each run a distributed run over NATS, as gridemu run makes it, and checked as it checks):
  --live               run each variant live, one at a time (--parallel 1 unless given: runs at
                       once share the machine's cores, and each then measures the others' load).
                       The tables add the felt one-way delay, the timers' lag and the fidelity
                       guard's warnings (live_* columns); the runs the guard warned of are named
                       at the end. Vary live.speedup to see what the emulation itself changes
  --timeout S          each live run's limit in wall seconds (gridemu run --timeout)
  --journal-store S    file or jetstream (gridemu run --journal-store)
  --nats URL           run every variant on this NATS server rather than one of its own
  --tls                each run's own nats-server and processes speak TLS (gridemu run --tls)
  --prometheus         each run starts Prometheus on its processes and records in its check.json
                       what it saw (gridemu run --prometheus)`;

interface RunResult {
  readonly variant: Variant;
  readonly summary: RunSummary;
}

const MAIN = fileURLToPath(new URL('../main.js', import.meta.url));

export async function sweepCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('sweep', {
    args: argv,
    allowPositionals: true,
    options: {
      vary: { type: 'string', multiple: true },
      seeds: { type: 'string' },
      set: { type: 'string', multiple: true },
      parallel: { type: 'string' },
      out: { type: 'string' },
      'summaries-only': { type: 'boolean' },
      resume: { type: 'boolean' },
      lenient: { type: 'boolean' },
      live: { type: 'boolean' },
      timeout: { type: 'string' },
      'journal-store': { type: 'string' },
      nats: { type: 'string' },
      tls: { type: 'boolean' },
      prometheus: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(SWEEP_HELP);
    return EXIT_OK;
  }
  if (positionals.length !== 1) throw new UsageError(`sweep takes one experiment file\n\n${SWEEP_HELP}`);
  const file = positionals[0]!;
  const common = values.set ?? [];
  const axes = parseAxes(values.vary ?? [], common);
  const seedCount = Number(values.seeds ?? 1);
  const live = values.live === true;
  const liveArgs = liveRunArgs(values);
  const parallel = Number(values.parallel ?? (live ? 1 : availableParallelism()));
  if (!Number.isInteger(seedCount) || seedCount < 1)
    throw new UsageError(`--seeds must be a positive integer (got ${values.seeds})`);
  if (!Number.isInteger(parallel) || parallel < 1)
    throw new UsageError(`--parallel must be a positive integer (got ${values.parallel})`);
  const { spec } = loadExperiment(file, parseOverrides(common));
  const runs = variants(
    axes,
    Array.from({ length: seedCount }, (_, i) => spec.seed + i),
  );
  // Check every variant's spec before running any, so a bad value fails at once.
  const experiments = runs.map((v) =>
    loadExperiment(file, [
      ...parseOverrides(common),
      ...parseOverrides(v.sets, '--vary'),
      parseOverride(`seed=${v.seed}`, '--seeds'),
    ]),
  );
  const specs = experiments.map((e) => e.spec);
  if (live && !values.nats && !natsServerBinary()) {
    console.error(`gridemu sweep --live: ${INSTALL_HINT}, or give --nats URL`);
    return EXIT_FAILED;
  }
  if (values.prometheus && !prometheusBinary()) {
    console.error(`gridemu sweep: --prometheus: ${PROMETHEUS_HINT}`);
    return EXIT_FAILED;
  }
  const out = resolve(values.out ?? `results/${spec.name}-sweep`);
  makeOutputFolder(out, '--out');
  if (live && parallel > 1)
    console.error(
      `gridemu sweep: warning: --parallel ${parallel} with --live: the runs share this machine's ${availableParallelism()} cores, and each measures the others' load (see each run's fidelity guard)`,
    );

  if (live) {
    // Before the first run, how long the sweep takes at the least (the runs a --resume keeps
    // aside). One run's workload at a time: a sweep of seeds over a large trace would otherwise
    // hold every copy at once.
    const lengths: RunLength[] = [];
    for (const [i, s] of specs.entries()) {
      if (values.resume && finishedRun(join(out, folderName(runs[i]!)), s, true)) continue;
      const { jobs } = await loadExperimentWorkload(s, {
        specFile: file,
        lenient: values.lenient === true,
        locateIssues: experiments[i]!.locate,
      });
      lengths.push(runLength(jobs, s.live.speedup));
    }
    if (lengths.length > 0) console.error(`gridemu sweep: ${describeSweepLength(lengths, parallel)}`);
  }
  const started = Date.now();
  const results: RunResult[] = [];
  const failures: { readonly code: number; readonly text: string }[] = [];
  // A run that exits 2 read bad input (a trace line, a file not found): the runs after it read the
  // same input, and would each fail the same way.
  const badInput = () => failures.some((f) => f.code === EXIT_BAD_INPUT);
  const children = new ChildRuns('sweep');
  // A live run takes minutes: one at a time, it shows its own messages and progress as gridemu run
  // does (a bar on a terminal, a line every 10 s in a log), rather than nothing until it ends.
  // Runs side by side would mix their lines: they are quiet, and a failed one's are kept.
  const shown = live && parallel === 1;
  let kept = 0;
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < runs.length && !children.stopped && !badInput(); i = next++) {
      const v = runs[i]!;
      const dir = join(out, folderName(v));
      const earlier = values.resume ? finishedRun(dir, specs[i]!, live) : undefined;
      if (earlier) {
        results.push({ variant: v, summary: earlier });
        kept++;
        console.error(
          `[${results.length + failures.length}/${runs.length}] ${v.name} seed ${v.seed}: kept, finished by an earlier sweep`,
        );
        continue;
      }
      if (live) console.error(`running ${v.name} seed ${v.seed} live (${i + 1}/${runs.length})`);
      const args = [
        MAIN,
        live ? 'run' : 'simulate',
        file,
        '--out',
        dir,
        ...(shown ? [] : ['--quiet']),
        ...(values.lenient ? ['--lenient'] : []),
        ...(values['summaries-only'] && !live ? ['--summary-only'] : []),
        ...liveArgs,
        ...[...common, ...v.sets, `seed=${v.seed}`].flatMap((s) => ['--set', s]),
      ];
      const { code, stderr } = await children.run(process.execPath, args, shown);
      if (children.stopped) break;
      if (code !== 0) {
        failures.push({
          code,
          text: `${v.name} seed ${v.seed}: exit ${code}${shown ? ' (its messages are above)' : `\n${stderr.trim()}`}`,
        });
        continue;
      }
      results.push({ variant: v, summary: JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as RunSummary });
      if (values['summaries-only']) keepSummaryOnly(dir);
      console.error(
        `[${results.length + failures.length}/${runs.length}] ${v.name} seed ${v.seed} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
    }
  };
  const unwatch = children.stopOnSignals();
  try {
    await Promise.all(Array.from({ length: Math.min(parallel, runs.length) }, worker));
  } finally {
    unwatch();
  }
  if (children.stopped) {
    // Tables over some of the variants would read as the sweep's; the runs that ended are kept.
    console.error(
      `gridemu sweep: stopped by ${children.stopped} after ${results.length} of ${runs.length} runs; no tables written, each finished run's folder is in ${out} (the same command with --resume makes only the rest)`,
    );
    return EXIT_FAILED;
  }
  if (failures.length > 0) {
    const notStarted = runs.length - results.length - failures.length;
    const rerun =
      results.length === 0
        ? 'the same command makes them'
        : `the same command with --resume keeps the ${results.length} that finished and makes the others`;
    const advice = badInput()
      ? `A run's input was bad (exit ${EXIT_BAD_INPUT}), so ${notStarted} run${notStarted === 1 ? ' was' : 's were'} not started: fix it, then ${rerun}.`
      : `To try them again: ${rerun}.`;
    console.error(
      `gridemu sweep: ${failures.length} of ${runs.length} runs failed:\n${failures.map((f) => f.text).join('\n')}\n${advice}`,
    );
    // Bad input fails the sweep as it fails a run, with 2; anything else with 1.
    return failures.every((f) => f.code === EXIT_BAD_INPUT) ? EXIT_BAD_INPUT : EXIT_FAILED;
  }
  results.sort((a, b) => runs.indexOf(a.variant) - runs.indexOf(b.variant));
  // Live runs are never exactly the same twice, so an axis that changed nothing cannot be told from them.
  const idle = live
    ? []
    : idleAxes(
        axes.map((a) => a.path),
        results.map((r) => ({ variant: r.variant, metrics: flattenSummary(r.summary) })),
      );
  for (const warning of new Set(results.flatMap((r) => workloadWarnings(r.summary.workload))))
    console.error(`gridemu sweep: ${warning}`);
  // A variant whose seeds all made one run (a trace's jobs, no draw from the seed): its "± 0" in
  // sweep-mean.csv would read as a tight interval; one whose seeds submitted the same jobs, an
  // interval that is not over workloads.
  const byVariant = new Map<string, (typeof results)[number][]>();
  for (const r of results) byVariant.set(r.variant.name, [...(byVariant.get(r.variant.name) ?? []), r]);
  const sampling = sweepSampling(
    [...byVariant].map(([name, group]) => ({
      name,
      metrics: group.map((r) => flattenSummary(r.summary)),
      jobs: group.map((r) => r.summary.jobs_sha256),
    })),
    live,
  );
  for (const note of samplingNotes(sampling)) console.error(`gridemu sweep: note: ${note}`);
  for (const path of idle)
    console.error(
      `gridemu sweep: warning: --vary ${path} changed nothing: each of its values gave every run the same results (is it a field ${spec.meta.scheme} does not use?)`,
    );
  writeTables(
    out,
    axes.map((a) => a.path),
    results,
    `${spec.name}: ${live ? 'live sweep' : 'sweep'}`,
  );
  console.log(
    `${runs.length} ${live ? 'live ' : ''}run${runs.length === 1 ? '' : 's'}${kept > 0 ? ` (${kept} kept from an earlier sweep)` : ''} in ${((Date.now() - started) / 1000).toFixed(1)} s; wrote ${join(out, 'sweep.csv')}, sweep-mean.csv, sweep.html`,
  );
  const warned = results.filter((r) => (flattenSummary(r.summary)['live_fidelity_warnings'] ?? 0) > 0);
  if (warned.length > 0)
    console.log(
      `FIDELITY WARNING: the guard warned in ${warned.length} of the ${results.length} runs (${warned.map((r) => `${r.variant.name} seed ${r.variant.seed}`).join('; ')}; sweep.csv's live_fidelity_warnings, each run's summary.live.fidelity.measured.warnings): their means include what the guard says those runs measured of the emulator rather than the scheme`,
    );
  return EXIT_OK;
}

/**
 * The options of `gridemu run` a live sweep passes to each of its runs. Refused without --live,
 * where a simulation would ignore them unseen.
 */
function liveRunArgs(values: {
  live?: boolean;
  timeout?: string;
  'journal-store'?: string;
  nats?: string;
  tls?: boolean;
  prometheus?: boolean;
}): string[] {
  const given: [string, string | undefined][] = [
    ['--timeout', values.timeout],
    ['--journal-store', values['journal-store']],
    ['--nats', values.nats],
  ];
  const flags = (['tls', 'prometheus'] as const).filter((f) => values[f] === true).map((f) => `--${f}`);
  if (!values.live) {
    const stray = [...given.filter(([, v]) => v !== undefined).map(([flag]) => flag), ...flags][0];
    if (stray) throw new UsageError(`sweep: ${stray} is an option of live runs: add --live, or leave it out`);
    return [];
  }
  if (values.tls && values.nats)
    throw new UsageError(
      "sweep: --tls makes certificates for each run's own nats-server; with --nats URL, the server is yours",
    );
  // Checked here, once, rather than failing every run the same way.
  if (values.timeout !== undefined && !(Number(values.timeout) >= 0))
    throw new UsageError(`--timeout must be a number of seconds, got "${values.timeout}"`);
  journalStoreOption(values['journal-store']);
  return [...given.flatMap(([flag, v]) => (v === undefined ? [] : [flag, v])), ...flags];
}

/**
 * Removes everything of a run's folder but its summary.json (and a live run's check.json). Paper 002's report sweeps 15 sites
 * with their local users' jobs: 20 MB of jobs.csv a run, about 40 GB over its sweeps and their fits.
 */
function keepSummaryOnly(dir: string): void {
  for (const name of readdirSync(dir)) {
    // A live run's check.json is its verdict, which --resume reads.
    if (name !== 'summary.json' && name !== 'check.json') rmSync(join(dir, name), { recursive: true, force: true });
  }
}

function writeTables(out: string, paths: readonly string[], results: readonly RunResult[], title: string): void {
  const rows = results.map((r) => ({ r, metrics: flattenSummary(r.summary) }));
  const metricNames = [...new Set(rows.flatMap((x) => Object.keys(x.metrics)))];
  const cell = (n: number | undefined) => (n === undefined ? '' : formatNumber(n));
  const header = ['variant', ...paths, 'seed', ...metricNames];
  const perRun = rows.map(({ r, metrics }) => [
    r.variant.name,
    ...paths.map((p) => sweptValue(r.variant, p)),
    String(r.variant.seed),
    ...metricNames.map((m) => cell(valueForMean(metrics, m))),
  ]);
  writeFileSync(join(out, 'sweep.csv'), [header, ...perRun].map((l) => l.map(csv).join(',')).join('\n') + '\n');

  const names = [...new Set(rows.map((x) => x.r.variant.name))];
  const partial = metricsSomeRunLacks(
    rows.map((x) => x.metrics),
    metricNames,
  );
  const means = names.map((n) => {
    const group = rows.filter((x) => x.r.variant.name === n);
    return {
      name: n,
      variant: group[0]!.r.variant,
      seeds: group.length,
      ...variantMeans(
        group.map((x) => x.metrics),
        metricNames,
      ),
    };
  });
  // Each metric's mean, then the half-width of its 90% confidence interval (paper 002's "± x"),
  // then, for a metric some run does not define, how many runs its mean is over.
  const meanHeader = [
    'variant',
    ...paths,
    'seeds',
    ...metricNames.flatMap((m) => [m, `${m}_ci90`, ...(partial.has(m) ? [`${m}_runs`] : [])]),
  ];
  const meanRows = means.map((m) => [
    m.name,
    ...paths.map((p) => sweptValue(m.variant, p)),
    String(m.seeds),
    ...metricNames.flatMap((k) => [cell(m.mean[k]), cell(m.ci90[k]), ...(partial.has(k) ? [String(m.runs[k])] : [])]),
  ]);
  writeFileSync(
    join(out, 'sweep-mean.csv'),
    [meanHeader, ...meanRows].map((l) => l.map(csv).join(',')).join('\n') + '\n',
  );

  const charted = [
    'mean_slowdown',
    'mean_bounded_slowdown',
    'mean_turnaround_s',
    'mean_wait_s',
    'utilization',
    'messages_per_job',
    // A live sweep's measure of the emulation itself, beside the scheme's.
    ...(metricNames.includes('live_latency_mean_ms') ? ['live_latency_mean_ms', 'live_fidelity_warnings'] : []),
  ];
  writeFileSync(
    join(out, 'sweep.html'),
    barChartsHtml(
      `${title} (means over seeds)`,
      names,
      charted.map((m) => ({ name: m, values: means.map((x) => x.mean[m]), halfWidths: means.map((x) => x.ci90[m]) })),
      seedsCaption(means.map((m) => m.seeds)),
    ),
  );
}

/** What sweep.html's bars are over, and what their whiskers are. */
function seedsCaption(seeds: readonly number[]): string {
  const least = Math.min(...seeds);
  const most = Math.max(...seeds);
  const over = least === most ? `${least} seed${least === 1 ? '' : 's'}` : `${least} to ${most} seeds`;
  return (
    `Each bar is a variant's mean over ${over}` +
    (most < 2
      ? ' (one seed gives no interval: --seeds 2 or more for one).'
      : ", with its 90% confidence interval (Student's t) as a whisker and ± half-width.") +
    ' sweep-mean.csv has every metric; gridemu report DIR draws these with each run.'
  );
}

function csv(v: string): string {
  return /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
