import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  meanWithInterval,
  pairedTTest,
  readCsvTable,
  welchTTest,
  type MeanWithInterval,
  type RunSummary,
} from '@gridemu/metrics';
import { closestName, didYouMean } from '@gridemu/model';
import { schemeMetrics } from '@gridemu/schemes';
import { UsageError } from '../exit-codes.js';
import { jobsDigestOf, readResultsSummary, type ResultsSummary } from '../results-folder.js';
import { seedFolder, seedsFolderOrigin } from '../seed-tables.js';
import { flattenSummary } from '../sweep/metrics-table.js';
import { CHECKED_BY_DEFAULT, COMPARED_METRICS, metricDiff, type MetricDiff } from './compare-results.js';

/**
 * The seeds.csv column of a summary.json path that compare reads (flattenSummary's names: dots
 * become underscores, and the overall utilization is `utilization`).
 */
const columnOf = (path: string) => (path === 'utilization.overall' ? 'utilization' : path.replace(/\./g, '_'));

/** seeds.csv's columns compared by default: single runs' metrics and a live run's own; the schemes add theirs. */
export const COMPARED_SEED_COLUMNS = [
  ...COMPARED_METRICS.map(columnOf),
  'live_latency_mean_ms',
  'live_timer_lag_mean_ms',
];

/** Checked against --tolerance unless --metrics names others: those of single runs, by seeds.csv's names. */
export const CHECKED_SEED_COLUMNS = CHECKED_BY_DEFAULT.map(columnOf);

/** A folder of `simulate --seeds N` or `run --seeds N`: its seeds.csv, and no summary.json of one run. */
export function isSeedsFolder(dir: string): boolean {
  return existsSync(join(dir, 'seeds.csv')) && !existsSync(join(dir, 'summary.json'));
}

/**
 * One folder of seeds: which command made it, its scheme, its seeds, and each column's value by
 * seed; or one run (`single`), read as a folder of one seed; or one variant of a sweep.
 */
export interface SeedsFolder {
  readonly dir: string;
  readonly single?: true;
  /** One variant of the sweep in `dir` (its rows of sweep.csv). */
  readonly variant?: string;
  readonly command: 'simulate' | 'run';
  readonly scheme: string;
  readonly seeds: readonly number[];
  readonly columns: ReadonlyMap<string, readonly (number | undefined)[]>;
  /** Each seed's jobs_sha256, from its run's summary.json (undefined: no summary, or none in it). */
  readonly jobs: readonly (string | undefined)[];
}

export function readSeedsFolder(dir: string): SeedsFolder {
  const file = join(dir, 'seeds.csv');
  const table = readCsvTable(readFileSync(file, 'utf8'), file);
  const seedAt = table.column('seed');
  const columns = new Map<string, (number | undefined)[]>();
  table.header.forEach((name, i) => {
    if (i === seedAt) return;
    columns.set(
      name,
      table.rows.map((r, row) => (r[i] === '' || r[i] === undefined ? undefined : table.number(row, i))),
    );
  });
  const origin = seedsFolderOrigin(dir);
  const seeds = table.rows.map((_, row) => table.number(row, seedAt));
  return {
    dir,
    command: origin?.command ?? 'simulate',
    scheme: origin?.scheme ?? '',
    seeds,
    columns,
    jobs: seeds.map((seed) => jobsDigestOf(seedFolder(dir, seed))),
  };
}

/** One run's results folder as a folder of one seed: its summary's metrics by seeds.csv's names. */
export function readRunAsSeeds(dir: string): SeedsFolder {
  const summary = readResultsSummary<
    ResultsSummary & { mode?: string; scheme?: string; seed?: number; jobs_sha256?: string }
  >(dir);
  const flat = flattenSummary(summary as unknown as RunSummary);
  return {
    dir,
    single: true,
    command: summary.mode === 'run' ? 'run' : 'simulate',
    scheme: summary.scheme ?? '',
    seeds: [summary.seed ?? Number.NaN],
    columns: new Map(Object.entries(flat).map(([name, v]) => [name, [v]])),
    jobs: [summary.jobs_sha256],
  };
}

/** A metric over the seeds of both folders: each side's mean with its 90% interval, and the test of their difference. */
export interface SeedsMetricDiff extends MetricDiff {
  readonly a_interval: MeanWithInterval | undefined;
  readonly b_interval: MeanWithInterval | undefined;
  /** Two-sided p-value of "the two have the same mean"; undefined with no test, or a side without the metric. */
  readonly p: number | undefined;
}

export interface SeedsComparison {
  readonly a: SeedsFolder;
  readonly b: SeedsFolder;
  /**
   * `paired`: both ran the same seeds, so each seed's draws (its synthetic jobs, its faults) are the
   * same on both sides unless the two specs differ there (seedsWithOtherJobs), and the test is on
   * the differences seed by seed; `welch`: they ran different seeds;
   * `one-sample`: one side is a single run, and the test is of the other side's mean against its
   * value (a live run against its replays, say); `none`: too few seeds for any.
   */
  readonly test: 'paired' | 'welch' | 'one-sample' | 'none';
  /**
   * Paired only: the seeds whose two runs did not submit the same jobs (their jobs_sha256 differ),
   * as when the two sides vary a workload's source; undefined where a summary does not say.
   */
  readonly seedsWithOtherJobs?: readonly number[];
  readonly metrics: readonly SeedsMetricDiff[];
}

/**
 * Two folders of seeds, metric by metric: the default columns, the schemes' own and `extra`
 * (seeds.csv's column names; one neither folder has is a usage error naming the closest).
 */
export function compareSeeds(a: SeedsFolder, b: SeedsFolder, extra: readonly string[] = []): SeedsComparison {
  const known = [...new Set([...a.columns.keys(), ...b.columns.keys()])];
  for (const name of extra)
    if (!known.includes(name))
      throw new UsageError(
        `--metrics: neither ${a.dir} nor ${b.dir} has a column "${name}" in ${a.variant === undefined ? 'seeds.csv' : 'sweep.csv'}${didYouMean(closestName(name, known))}`,
      );
  const own = [a, b].flatMap((f) => schemeMetrics(f.scheme).map((m) => m.column));
  const names = [...new Set<string>([...COMPARED_SEED_COLUMNS, ...own, ...extra])].filter(
    (name) => a.columns.has(name) || b.columns.has(name),
  );
  const sameSeeds = a.seeds.length === b.seeds.length && a.seeds.every((s, i) => s === b.seeds[i]);
  const [na, nb] = [a.seeds.length, b.seeds.length];
  const test =
    na >= 2 && nb >= 2
      ? sameSeeds
        ? 'paired'
        : 'welch'
      : Math.min(na, nb) === 1 && Math.max(na, nb) >= 2
        ? 'one-sample'
        : 'none';
  const metrics = names.map((name) => {
    const [xa, xb] = [whole(a.columns.get(name)), whole(b.columns.get(name))];
    const [ia, ib] = [xa && meanWithInterval(xa, 0.9), xb && meanWithInterval(xb, 0.9)];
    return { ...metricDiff(name, ia?.mean, ib?.mean), a_interval: ia, b_interval: ib, p: pValue(test, xa, xb) };
  });
  const digested = [...a.jobs, ...b.jobs].every((d) => d !== undefined);
  const seedsWithOtherJobs =
    test === 'paired' && digested ? a.seeds.filter((_, i) => a.jobs[i] !== b.jobs[i]) : undefined;
  return { a, b, test, ...(seedsWithOtherJobs ? { seedsWithOtherJobs } : {}), metrics };
}

/** The two-sided p of `test` on one metric's values; undefined where a side lacks them. */
function pValue(test: SeedsComparison['test'], xa: number[] | undefined, xb: number[] | undefined): number | undefined {
  if (!xa || !xb || test === 'none') return undefined;
  if (test === 'paired') return pairedTTest(xa, xb).p;
  if (test === 'welch') return welchTTest(xa, xb).p;
  // One value against a sample's mean: the paired test against that value repeated is the one-sample t-test.
  const [one, many] = xa.length === 1 ? [xa[0]!, xb] : [xb[0]!, xa];
  return pairedTTest(
    many,
    many.map(() => one),
  ).p;
}

/** A column's values when every seed has one (a metric some run leaves undefined is not compared). */
function whole(values: readonly (number | undefined)[] | undefined): number[] | undefined {
  if (!values || values.length === 0 || values.some((v) => v === undefined || !Number.isFinite(v))) return undefined;
  return values as number[];
}
