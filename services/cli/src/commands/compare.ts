import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseCommandArgs } from '../command-args.js';
import { readProtocolTrace, type MeanWithInterval, type ProtocolTraceRow } from '@gridemu/metrics';
import { schemeTraceComparison, type TraceComparison } from '@gridemu/schemes';
import {
  CHECKED_BY_DEFAULT,
  COMPARED_METRICS,
  compareResults,
  type MetricDiff,
  type Submission,
  type SubmissionDiffs,
} from '../compare/compare-results.js';
import {
  CHECKED_SEED_COLUMNS,
  compareSeeds,
  isSeedsFolder,
  readRunAsSeeds,
  readSeedsFolder,
  type SeedsFolder,
} from '../compare/compare-seeds.js';
import { describeSpecDifference, type SpecDifference } from '../compare/spec-differences.js';
import { isSweepFolder, readSweepVariant } from '../compare/sweep-variant.js';
import { EXIT_FAILED, EXIT_OK, UsageError } from '../exit-codes.js';
import { abortedRunOf } from '../results-folder.js';
import { identicalRuns } from '../seed-spread.js';
import { fmt, table } from '../summary-table.js';

export const COMPARE_HELP = `Usage: gridemu compare DIR_A DIR_B [--tolerance PCT] [--metrics a,b,...] [--max-start-diff S]
                       [--job ID] [--json]
       gridemu compare SWEEP_DIR VARIANT_A VARIANT_B [--tolerance PCT] [--metrics a,b,...] [--json]

Compares two results folders (of simulate or run, in any mix): the fields their specs differ in (as
--set names them), each metric of summary.json side by side with its difference, then the jobs'
start times job by job (jobs.csv; if the runs did not submit the same jobs, that is said first: the
starts are then different jobs'). When both folders have a protocol-trace.csv (protocol_trace:
true), also the scheme's protocol step by step (paper 001's claims: steps per job, how first claims
ended, each claim's round trip, each job's time from its copies to its grant, and the jobs whose
grant came furthest apart). A live run stopped before its end (summary.json's live.aborted) is named
so beside its folder, and with --tolerance or --max-start-diff it fails the comparison: its metrics
cover only the jobs that ended before. Two live runs add what each measured of itself (wall time,
the one-way delay between its processes and its timers' lag, mean and 95th percentile), and a run
whose fidelity guard warned is named: part of its figures are the emulator's, not the scheme's.

Two folders of seeds (simulate --seeds or run --seeds, in any mix) are compared by their seeds.csv:
each metric's mean over the seeds with its 90% interval on both sides, the difference of the means,
and the two-sided p of a t-test that they are equal, paired seed by seed when both ran the same
seeds (a seed draws the same on both sides; the runs' jobs_sha256 say whether it submitted the same
jobs, and the test's line says so), Welch's otherwise. One run against a folder of seeds is a value
against the seeds' mean (a one-sample t-test): a live run against simulate --seeds N --network-from
of it. There --metrics names seeds.csv's columns and --tolerance applies to the means.

Two variants of one sweep (simulated or --live; their names as sweep.csv's variant column gives
them, e.g. meta.k=1) are compared the same way from sweep.csv, paired by seed: every variant of a
sweep ran the same seeds.

Options:
  --tolerance PCT      exit 1 if a checked metric differs by more than PCT percent of DIR_A's value
  --metrics a,b,...    the metrics --tolerance checks (default:
                       ${CHECKED_BY_DEFAULT.join(', ')});
                       any number in summary.json by its dotted path, e.g. live.latency_ms.mean_ms
  --max-start-diff S   exit 1 if any job started more than S seconds apart in the two runs, or if
                       the runs did not submit the same jobs (another seed of a synthetic source)
  --job ID             print job ID's protocol steps in both runs, side by side (needs both traces)
  --json               print the comparison as JSON
  -h, --help           this help`;

export async function compareCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('compare', {
    args: argv,
    allowPositionals: true,
    options: {
      tolerance: { type: 'string' },
      metrics: { type: 'string' },
      'max-start-diff': { type: 'string' },
      job: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(COMPARE_HELP);
    return EXIT_OK;
  }
  const sweepVariants = positionals.length === 3 && isSweepFolder(positionals[0]!);
  if (positionals.length !== 2 && !sweepVariants)
    throw new UsageError(
      positionals.length === 3
        ? `compare DIR VARIANT_A VARIANT_B compares two variants of a sweep, and ${positionals[0]} has no sweep.csv\n\n${COMPARE_HELP}`
        : `compare takes two results folders\n\n${COMPARE_HELP}`,
    );
  const tolerance = values.tolerance === undefined ? undefined : Number(values.tolerance.replace(/%$/, ''));
  if (tolerance !== undefined && !(tolerance >= 0))
    throw new UsageError(`--tolerance must be a percentage, got "${values.tolerance}"`);
  const maxStart = values['max-start-diff'] === undefined ? undefined : Number(values['max-start-diff']);
  if (maxStart !== undefined && !(maxStart >= 0))
    throw new UsageError(`--max-start-diff must be seconds, got "${values['max-start-diff']}"`);
  const metricsNamed = values.metrics
    ? values.metrics
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean)
    : undefined;
  const checked = metricsNamed ?? CHECKED_BY_DEFAULT;
  if (sweepVariants) {
    if (maxStart !== undefined || values.job !== undefined)
      throw new UsageError(
        `${values.job !== undefined ? '--job' : '--max-start-diff'} compares two runs job by job; two variants of a sweep are compared by their seeds`,
      );
    const [dir, a, b] = positionals as [string, string, string];
    return compareSeedFolders(
      readSweepVariant(dir, a),
      readSweepVariant(dir, b),
      tolerance,
      metricsNamed,
      values.json === true,
    );
  }
  const [dirA, dirB] = positionals as [string, string];
  const seedsA = isSeedsFolder(dirA);
  const seedsB = isSeedsFolder(dirB);
  if (seedsA || seedsB) {
    if (maxStart !== undefined || values.job !== undefined)
      throw new UsageError(
        `${values.job !== undefined ? '--job' : '--max-start-diff'} compares two runs job by job; ${seedsA ? dirA : dirB} is a folder of seeds`,
      );
    // A single run against a folder of seeds reads as a folder of one seed (a live run against its replays).
    const side = (dir: string, seeds: boolean) => (seeds ? readSeedsFolder(dir) : readRunAsSeeds(dir));
    return compareSeedFolders(side(dirA, seedsA), side(dirB, seedsB), tolerance, metricsNamed, values.json === true);
  }
  const c = compareResults(
    dirA,
    dirB,
    checked.filter((m) => !(COMPARED_METRICS as readonly string[]).includes(m)),
  );
  const traces = readBothTraces(dirA, dirB);
  if (values.job !== undefined && !traces)
    throw new UsageError('--job needs a protocol-trace.csv in both folders (run both with protocol_trace: true)');
  // A's scheme reads both traces (compare is for two runs of one experiment).
  const protocol = traces ? schemeTraceComparison(c.schemes.a, traces.a, traces.b) : undefined;

  // An aborted run's metrics cover only the jobs that ended before it stopped.
  const aborted = { a: abortedRunOf(dirA), b: abortedRunOf(dirB) };
  // With a limit asked for, a run that is not whole fails the comparison whatever its numbers.
  const notWhole =
    tolerance === undefined && maxStart === undefined
      ? []
      : Object.entries(aborted)
          .filter(([, reason]) => reason !== undefined)
          .map(([side, reason]) => `${side.toUpperCase()} was aborted (${reason})`);
  const failures: string[] = [];
  if (tolerance !== undefined)
    failures.push(...overTolerance(c.metrics, checked, tolerance, 'not a number in both summaries'));
  const different = differentJobs(c.submitted);
  // Start times of different jobs under the same ids say nothing of either run's schedule.
  const incomparable = maxStart !== undefined && different !== undefined ? [`--max-start-diff: ${different}`] : [];
  if (maxStart !== undefined && different === undefined && c.starts.max_abs_s > maxStart)
    failures.push(`job start times differ by up to ${fmt(c.starts.max_abs_s)} s (limit ${maxStart} s)`);

  if (values.json) {
    console.log(
      JSON.stringify(
        {
          a: dirA,
          b: dirB,
          ...(aborted.a !== undefined || aborted.b !== undefined ? { aborted } : {}),
          ...c,
          ...(protocol ? { protocol: protocol.json } : {}),
          failures: [...notWhole, ...incomparable, ...failures],
        },
        null,
        2,
      ),
    );
  } else {
    const rows = [
      ['metric', 'A', 'B', 'B - A', 'change', ...toleranceHeader(tolerance)],
      ...c.metrics.map((m) => [
        m.metric,
        fmt(m.a),
        fmt(m.b),
        fmt(m.diff),
        pct(m),
        ...toleranceCell(m, checked, tolerance),
      ]),
    ];
    const s = c.starts;
    const named = (dir: string, reason: string | undefined) =>
      reason === undefined ? dir : `${dir}  ABORTED (${reason}): its metrics cover only the jobs that ended before`;
    console.log(
      `A: ${named(dirA, aborted.a)}\nB: ${named(dirB, aborted.b)}\n${specLine(c.spec_differences)}\n\n${table(rows)}\n`,
    );
    if (tolerance === undefined) console.log(`${toleranceNote(checked)}\n`);
    if (different !== undefined)
      console.log(`DIFFERENT JOBS: ${different}; the start times below compare different jobs under the same ids\n`);
    console.log(
      `job starts: ${s.compared} jobs started in both (${s.onlyA} only in A, ${s.onlyB} only in B); ${s.identical} at the same second, ${s.sameSite} at the same site\n` +
        `  |B - A| mean ${fmt(s.mean_abs_s)} s, median ${fmt(s.median_abs_s)} s, p95 ${fmt(s.p95_abs_s)} s, max ${fmt(s.max_abs_s)} s`,
    );
    if (s.largest.length > 0 && s.max_abs_s > 0) {
      console.log(
        table([
          ['largest', 'A start', 'B start', 'B - A'],
          ...s.largest.map((d) => [d.job, fmt(d.a), fmt(d.b), fmt(d.diff)]),
        ]),
      );
    }
    if (protocol) printProtocol(protocol);
    if (traces && values.job !== undefined) printJob(values.job, traces.a, traces.b);
    const warned = (['a', 'b'] as const).filter((side) => (c.fidelity_warnings[side] ?? 0) > 0);
    for (const side of warned)
      console.log(
        `FIDELITY WARNING: ${side.toUpperCase()}'s fidelity guard warned ${c.fidelity_warnings[side]} time${c.fidelity_warnings[side] === 1 ? '' : 's'} (its summary.json's live.fidelity.measured.warnings): its figures include what it measured of the emulator rather than the scheme`,
      );
    for (const f of notWhole) console.log(`NOT A WHOLE RUN: ${f}`);
    for (const f of incomparable) console.log(`NOT COMPARABLE: ${f}`);
    for (const f of failures) console.log(`OVER TOLERANCE: ${f}`);
  }
  return notWhole.length + incomparable.length + failures.length > 0 ? EXIT_FAILED : EXIT_OK;
}

/** What the two runs' specs differ in: the first few fields, and how many more --json lists. */
function specLine(differences: readonly SpecDifference[]): string {
  if (differences.length === 0) return 'spec: the same in both (overrides applied)';
  const shown = differences.slice(0, 8).map(describeSpecDifference).join(', ');
  const more = differences.length - 8;
  return `spec: B differs from A in ${shown}${more > 0 ? `, and ${more} more (--json lists them)` : ''}`;
}

/** What sets the two runs' jobs apart, or undefined when every job in both was submitted alike. */
function differentJobs(s: SubmissionDiffs): string | undefined {
  if (s.differing === 0 || s.example === undefined) return undefined;
  const { job, a, b } = s.example;
  const given = (v: number | null) => (v === null ? 'none' : String(v));
  const asked = (x: Submission) =>
    `at ${given(x.submit_s)} s for ${given(x.procs)} processor${x.procs === 1 ? '' : 's'}, ${given(x.requested_s)} s requested`;
  return (
    `${s.differing} of the ${s.compared} jobs in both runs were submitted differently (${job}: ${asked(a)} in A, ${asked(b)} in B): ` +
    'the runs did not submit the same jobs (another seed of a synthetic source, or another workload)'
  );
}

/**
 * Two folders of seeds: each metric's mean over the seeds with its 90% interval on both sides, the
 * difference of the means, and the t-test of it (paired by seed when both ran the same seeds).
 */
function compareSeedFolders(
  a: SeedsFolder,
  b: SeedsFolder,
  tolerance: number | undefined,
  metricsNamed: readonly string[] | undefined,
  json: boolean,
): number {
  const checked = metricsNamed ?? CHECKED_SEED_COLUMNS;
  const c = compareSeeds(a, b, metricsNamed ?? []);
  const failures: string[] = [];
  if (tolerance !== undefined)
    failures.push(...overTolerance(c.metrics, checked, tolerance, "not a number in both folders' seeds", 'mean '));
  const side = (f: SeedsFolder) => {
    if (f.single) {
      const aborted = abortedRunOf(f.dir);
      return `${f.dir} (one ${f.command === 'run' ? 'live run' : 'simulation'}, seed ${f.seeds[0]})${aborted === undefined ? '' : `  ABORTED (${aborted}): its metrics cover only the jobs that ended before`}`;
    }
    const seeds = `${f.seeds.length} seed${f.seeds.length === 1 ? '' : 's'}, ${f.seeds.join(', ')}`;
    if (f.variant !== undefined)
      return `${f.variant} of ${f.dir} (sweep${f.command === 'run' ? ' --live' : ''}: ${seeds})`;
    return `${f.dir} (${f.command} --seeds: ${seeds})`;
  };
  if (json) {
    const folder = (f: SeedsFolder) => ({
      dir: f.dir,
      ...(f.single ? { single: true } : {}),
      ...(f.variant !== undefined ? { variant: f.variant } : {}),
      command: f.command,
      scheme: f.scheme,
      seeds: f.seeds,
      ...(madeOneRun(f) ? { identical_runs: true } : {}),
    });
    console.log(
      JSON.stringify(
        {
          a: folder(c.a),
          b: folder(c.b),
          test: c.test,
          ...(c.seedsWithOtherJobs ? { seeds_with_other_jobs: c.seedsWithOtherJobs } : {}),
          metrics: c.metrics,
          failures,
        },
        null,
        2,
      ),
    );
    return failures.length > 0 ? EXIT_FAILED : EXIT_OK;
  }
  const interval = (i: MeanWithInterval | undefined) =>
    i === undefined ? '-' : i.n < 2 ? fmt(i.mean) : `${fmt(i.mean)} ± ${fmt(i.half_width)}`;
  const rows = [
    ['metric', 'A (mean ± 90%)', 'B (mean ± 90%)', 'B - A', 'change', 'p', ...toleranceHeader(tolerance)],
    ...c.metrics.map((m) => [
      m.metric,
      interval(m.a_interval),
      interval(m.b_interval),
      fmt(m.diff),
      pct(m),
      m.p === undefined ? '-' : m.p < 0.0001 ? '<0.0001' : m.p.toFixed(4),
      ...toleranceCell(m, checked, tolerance),
    ]),
  ];
  const test = {
    paired: `p: paired t-test over the ${c.a.seeds.length} seeds both ran (${pairing(c.seedsWithOtherJobs, c.a.seeds.length)}), two-sided`,
    welch: "p: Welch's t-test (the folders ran different seeds, so nothing pairs them), two-sided",
    'one-sample': `p: one-sample t-test of the ${Math.max(c.a.seeds.length, c.b.seeds.length)} seeds' mean against the single run's value, two-sided`,
    none: 'p: none (a t-test needs two seeds or more on one side at least)',
  }[c.test];
  console.log(`A: ${side(c.a)}\nB: ${side(c.b)}\n\n${table(rows)}\n${test}; "-" where a side lacks the metric.`);
  if (tolerance === undefined) console.log(toleranceNote(checked, 'the means of '));
  const sides = { A: c.a, B: c.b };
  const oneRun = (['A', 'B'] as const).filter((name) => madeOneRun(sides[name]));
  for (const name of oneRun)
    console.log(
      `NOTE: the ${sides[name].seeds.length} seeds of ${name} made the same run (every metric equal): nothing there draws from the seed, so its "± 0" is no confidence interval, and a p above rests on ${oneRun.length === 2 ? 'no spread at all' : "the other side's seeds alone"}`,
    );
  for (const f of failures) console.log(`OVER TOLERANCE: ${f}`);
  return failures.length > 0 ? EXIT_FAILED : EXIT_OK;
}

/** What pairing the seeds held the same on both sides, as their runs' jobs_sha256 say. */
function pairing(other: readonly number[] | undefined, seeds: number): string {
  if (other === undefined)
    return "each seed draws the same on both sides, and so submits the same jobs unless the two specs' workloads differ";
  if (other.length === 0) return 'each seed submitted the same jobs on both sides';
  return `but ${other.length === seeds ? 'every seed' : `${other.length} of them (${other.join(', ')})`} submitted other jobs on each side: the pairing holds the seed's other draws, not the workload`;
}

/** Whether a folder's seeds (two or more) all made the same run: seeds.csv's rows equal but for the wall times. */
function madeOneRun(f: SeedsFolder): boolean {
  const rows = f.seeds.map((_, i) => {
    const row: Record<string, number> = {};
    for (const [name, values] of f.columns) if (values[i] !== undefined) row[name] = values[i]!;
    return row;
  });
  return f.single !== true && identicalRuns(rows);
}

/**
 * The checked metrics whose B differs from A by more than `tolerance` percent of A, or that are
 * not a number on both sides (`missing` says where), one line each.
 */
function overTolerance(
  metrics: readonly MetricDiff[],
  checked: readonly string[],
  tolerance: number,
  missing: string,
  valuesAre = '',
): string[] {
  const failures: string[] = [];
  for (const name of checked) {
    const m = metrics.find((d) => d.metric === name);
    if (!m || m.a === undefined || m.b === undefined) failures.push(`${name}: ${missing}`);
    else if (!withinTolerance(m, tolerance))
      failures.push(`${name}: ${valuesAre}${fmt(m.a)} vs ${fmt(m.b)}, ${pct(m)} (tolerance ${tolerance}%)`);
  }
  return failures;
}

/** Whether B is within `tolerance` percent of A; a metric missing on a side is not. */
function withinTolerance(m: MetricDiff, tolerance: number): boolean {
  return m.a !== undefined && m.b !== undefined && Math.abs(m.relative ?? Infinity) * 100 <= tolerance;
}

/** The tables' last column, with --tolerance only: whether each metric it checks is within it. */
function toleranceHeader(tolerance: number | undefined): string[] {
  return tolerance === undefined ? [] : [`within ${tolerance}%`];
}

function toleranceCell(m: MetricDiff, checked: readonly string[], tolerance: number | undefined): string[] {
  if (tolerance === undefined) return [];
  return [checked.includes(m.metric) ? (withinTolerance(m, tolerance) ? 'yes' : 'NO') : ''];
}

/** Without --tolerance, which metrics it would check: the table checks nothing. */
function toleranceNote(checked: readonly string[], of = ''): string {
  return `--tolerance PCT would check ${of}${checked.join(', ')} (--metrics names others)`;
}

function pct(m: MetricDiff): string {
  if (m.relative === undefined) return m.diff === undefined ? '-' : 'n/a';
  return `${m.relative >= 0 ? '+' : ''}${(m.relative * 100).toFixed(2)}%`;
}

/** Both folders' protocol traces, or undefined when either has none. */
function readBothTraces(dirA: string, dirB: string): { a: ProtocolTraceRow[]; b: ProtocolTraceRow[] } | undefined {
  const [pa, pb] = [join(dirA, 'protocol-trace.csv'), join(dirB, 'protocol-trace.csv')];
  if (!existsSync(pa) || !existsSync(pb)) return undefined;
  return { a: readProtocolTrace(pa), b: readProtocolTrace(pb) };
}

function printProtocol(p: TraceComparison): void {
  console.log(`\n${p.heading}`);
  console.log(
    table([
      ['step', 'A', 'B', 'B - A'],
      ...p.rows.map((r) => [
        r.label,
        fmt(r.a),
        fmt(r.b),
        r.a === undefined || r.b === undefined ? '-' : fmt(r.b - r.a),
      ]),
    ]),
  );
  if (p.furthest && p.furthest.jobs.length > 0) {
    console.log(p.furthest.heading);
    console.log(
      table([['job', 'A', 'B', 'B - A'], ...p.furthest.jobs.map((d) => [d.job, fmt(d.a), fmt(d.b), fmt(d.b - d.a)])]),
    );
  }
}

/** One job's steps in both runs, in time order, side by side. */
function printJob(job: string, a: readonly ProtocolTraceRow[], b: readonly ProtocolTraceRow[]): void {
  const [sa, sb] = [a.filter((r) => r.job_id === job), b.filter((r) => r.job_id === job)];
  if (sa.length === 0 && sb.length === 0) throw new UsageError(`--job ${job}: no such job in either protocol trace`);
  const cell = (r: ProtocolTraceRow | undefined) =>
    r ? [fmt(r.time_s), r.location, r.event, r.detail] : ['', '', '', ''];
  const rows = Array.from({ length: Math.max(sa.length, sb.length) }, (_, i) => [...cell(sa[i]), '|', ...cell(sb[i])]);
  console.log(`\n${job}, step by step (A left, B right):`);
  console.log(table([['A time', 'where', 'step', 'detail', '|', 'B time', 'where', 'step', 'detail'], ...rows]));
}
