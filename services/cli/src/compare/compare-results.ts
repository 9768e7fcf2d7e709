import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCsvTable } from '@gridemu/metrics';
import { schemeMetrics } from '@gridemu/schemes';
import { UsageError } from '../exit-codes.js';
import { readResultsSummary, type ResultsSummary } from '../results-folder.js';
import { specDifferences, type SpecDifference } from './spec-differences.js';

/** The metrics compared by default: what the papers report, plus what a run cost in messages; the schemes add their own. */
export const COMPARED_METRICS = [
  'jobs.completed',
  'jobs.rejected',
  'mean_wait_s',
  'mean_turnaround_s',
  'mean_bounded_slowdown',
  'mean_slowdown',
  'max_wait_s',
  'makespan_s',
  'flowtime_s',
  'utilization.overall',
  'messages.total',
] as const;

/**
 * Compared when both folders are live runs: what each run measured of itself, its wall time, the
 * one-way delay between its processes and its timers' lag (wall ms). Two runs whose schedules
 * differ may differ in these too, and then part of the schedules' difference is the emulator's.
 */
export const LIVE_METRICS = [
  'live.run_wall_s',
  'live.latency_ms.mean_ms',
  'live.latency_ms.p95_ms',
  'live.timer_lag_ms.mean_ms',
  'live.timer_lag_ms.p95_ms',
] as const;

/** Checked against --tolerance unless --metrics names others. */
export const CHECKED_BY_DEFAULT = ['mean_wait_s', 'mean_turnaround_s', 'mean_bounded_slowdown', 'utilization.overall'];

export interface MetricDiff {
  readonly metric: string;
  readonly a: number | undefined;
  readonly b: number | undefined;
  readonly diff: number | undefined;
  /** (b - a) / |a|; undefined when a is 0 or either is missing. */
  readonly relative: number | undefined;
}

export interface StartDiffs {
  /** Jobs that started in both runs. */
  readonly compared: number;
  readonly identical: number;
  readonly sameSite: number;
  /** Jobs that started in only one of the runs. */
  readonly onlyA: number;
  readonly onlyB: number;
  readonly mean_abs_s: number;
  readonly median_abs_s: number;
  readonly p95_abs_s: number;
  readonly max_abs_s: number;
  /** The largest differences, largest first. */
  readonly largest: readonly { readonly job: string; readonly a: number; readonly b: number; readonly diff: number }[];
}

/** What a job asked for when it was submitted, as jobs.csv records it (null: an empty cell). */
export interface Submission {
  readonly submit_s: number | null;
  readonly procs: number | null;
  readonly requested_s: number | null;
}

/**
 * Whether the two runs submitted the same jobs. Two seeds of a synthetic source draw different jobs
 * under the same ids (s1!1, s1!2, ...): their start times, compared job by job, would compare
 * different jobs.
 */
export interface SubmissionDiffs {
  /** Jobs in both jobs.csv files. */
  readonly compared: number;
  /** Of those, the jobs submitted at another time, or for other processors or another requested time. */
  readonly differing: number;
  /** The first of them in A's order, as each run submitted it. */
  readonly example?: { readonly job: string; readonly a: Submission; readonly b: Submission };
}

export interface Comparison {
  readonly metrics: readonly MetricDiff[];
  readonly submitted: SubmissionDiffs;
  readonly starts: StartDiffs;
  /** Each folder's `meta.scheme` as summary.json says. */
  readonly schemes: { readonly a: string; readonly b: string };
  /** The fields the two runs' specs differ in. */
  readonly spec_differences: readonly SpecDifference[];
  /** How many warnings each live run's fidelity guard gave (absent for a simulation). */
  readonly fidelity_warnings: { readonly a?: number; readonly b?: number };
}

/** The difference between two results folders (simulate or run): metric by metric, and job by job. */
export function compareResults(dirA: string, dirB: string, extraMetrics: readonly string[] = []): Comparison {
  const [sa, sb] = [readSummary(dirA), readSummary(dirB)];
  const own = [sa, sb].flatMap((s) =>
    schemeMetrics(String(s['scheme']))
      .filter((m) => m.compared === true)
      .map((m) => m.path),
  );
  const live = isLiveRun(sa) && isLiveRun(sb) ? LIVE_METRICS : [];
  const names = [...new Set<string>([...COMPARED_METRICS, ...own, ...live, ...extraMetrics])];
  const metrics = names.map((m) => metricDiff(m, pick(sa, m), pick(sb, m)));
  const [ja, jb] = [readJobs(dirA), readJobs(dirB)];
  return {
    metrics,
    submitted: submissionDiffs(ja.submissions, jb.submissions),
    starts: startDiffs(ja.starts, jb.starts),
    schemes: { a: String(sa['scheme']), b: String(sb['scheme']) },
    spec_differences: specDifferences(sa['spec'], sb['spec']),
    fidelity_warnings: {
      ...(isLiveRun(sa) ? { a: fidelityWarnings(sa) } : {}),
      ...(isLiveRun(sb) ? { b: fidelityWarnings(sb) } : {}),
    },
  };
}

/** A summary of gridemu run: it has a live section with the run's speed-up. */
function isLiveRun(summary: Record<string, unknown>): boolean {
  return pick(summary, 'live.speedup') !== undefined;
}

/** The fidelity guard's warnings in a live run's summary.json (0 when it was quiet). */
function fidelityWarnings(summary: Record<string, unknown>): number {
  const live = summary['live'] as { fidelity?: { measured?: { warnings?: unknown } } };
  const warnings = live.fidelity?.measured?.warnings;
  return Array.isArray(warnings) ? warnings.length : 0;
}

export function metricDiff(metric: string, a: number | undefined, b: number | undefined): MetricDiff {
  const diff = a !== undefined && b !== undefined ? b - a : undefined;
  const relative = diff !== undefined && a !== 0 ? diff / Math.abs(a!) : diff === 0 ? 0 : undefined;
  return { metric, a, b, diff, relative };
}

function readSummary(dir: string): Record<string, unknown> {
  return readResultsSummary<ResultsSummary & Record<string, unknown>>(dir);
}

/** A number at a dotted path of summary.json (null, for a metric over no jobs, reads as undefined). */
export function pick(summary: Record<string, unknown>, path: string): number | undefined {
  let v: unknown = summary;
  for (const key of path.split('.'))
    v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined;
  return typeof v === 'number' ? v : undefined;
}

interface Start {
  readonly start: number;
  readonly site: string;
}

/** Each job's submission, and the start of each job that started. */
function readJobs(dir: string): { submissions: Map<string, Submission>; starts: Map<string, Start> } {
  const file = join(dir, 'jobs.csv');
  if (!existsSync(file)) throw new UsageError(`${file}: not found`);
  const table = readCsvTable(readFileSync(file, 'utf8'), file);
  const [id, submit, procs, requested, start, site] = [
    'job_id',
    'submission_time',
    'requested_number_of_resources',
    'requested_time',
    'starting_time',
    'exec_site',
  ].map((c) => table.column(c));
  const submissions = new Map<string, Submission>();
  const starts = new Map<string, Start>();
  table.rows.forEach((f, i) => {
    // Compared as given: a job with no requested time, say, has it empty in both runs.
    const given = (column: number) => (f[column] === '' ? null : table.number(i, column));
    submissions.set(f[id!]!, { submit_s: given(submit!), procs: given(procs!), requested_s: given(requested!) });
    if (f[start!] === '') return;
    starts.set(f[id!]!, { start: table.number(i, start!), site: f[site!]! });
  });
  return { submissions, starts };
}

export function submissionDiffs(
  a: ReadonlyMap<string, Submission>,
  b: ReadonlyMap<string, Submission>,
): SubmissionDiffs {
  let compared = 0;
  let differing = 0;
  let example: SubmissionDiffs['example'];
  for (const [job, sa] of a) {
    const sb = b.get(job);
    if (!sb) continue;
    compared++;
    if (sa.submit_s === sb.submit_s && sa.procs === sb.procs && sa.requested_s === sb.requested_s) continue;
    differing++;
    example ??= { job, a: sa, b: sb };
  }
  return { compared, differing, ...(example ? { example } : {}) };
}

export function startDiffs(a: ReadonlyMap<string, Start>, b: ReadonlyMap<string, Start>): StartDiffs {
  const diffs: { job: string; a: number; b: number; diff: number }[] = [];
  let sameSite = 0;
  for (const [job, sa] of a) {
    const sb = b.get(job);
    if (!sb) continue;
    diffs.push({ job, a: sa.start, b: sb.start, diff: sb.start - sa.start });
    if (sa.site === sb.site) sameSite++;
  }
  const abs = diffs.map((d) => Math.abs(d.diff)).sort((x, y) => x - y);
  const q = (p: number) => (abs.length === 0 ? 0 : abs[Math.min(abs.length - 1, Math.floor(p * abs.length))]!);
  return {
    compared: diffs.length,
    identical: abs.filter((d) => d < 1e-6).length,
    sameSite,
    onlyA: [...a.keys()].filter((j) => !b.has(j)).length,
    onlyB: [...b.keys()].filter((j) => !a.has(j)).length,
    mean_abs_s: abs.length === 0 ? 0 : abs.reduce((s, x) => s + x, 0) / abs.length,
    median_abs_s: q(0.5),
    p95_abs_s: q(0.95),
    max_abs_s: abs.length === 0 ? 0 : abs[abs.length - 1]!,
    largest: [...diffs].sort((x, y) => Math.abs(y.diff) - Math.abs(x.diff)).slice(0, 5),
  };
}
