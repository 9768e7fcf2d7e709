import { meanWithInterval, roundNumber } from '@gridemu/metrics';

/** One variant's metrics over its seeds: each one's mean, 90% half-width, and how many runs define it. */
export interface VariantMeans {
  readonly mean: Readonly<Record<string, number | undefined>>;
  readonly ci90: Readonly<Record<string, number | undefined>>;
  readonly runs: Readonly<Record<string, number>>;
}

/**
 * A run's value of metric `m` for the means: what the run gives; where it gives none, 0 for a count
 * of jobs (summary.json leaves out a group with no job) and undefined otherwise (a metric over no
 * jobs, such as GRUBER's Time where no job completed), which the mean leaves out rather than reading
 * as 0: read as 0, a run of paper 002's Table III that completed no job lowered G-LU's mean Time by
 * a tenth.
 */
export function valueForMean(metrics: Readonly<Record<string, number>>, m: string): number | undefined {
  return metrics[m] ?? (m.endsWith('_jobs') ? 0 : undefined);
}

/** Each metric's mean and interval over the runs (one variant's seeds) that define it. */
export function variantMeans(
  runs: readonly Readonly<Record<string, number>>[],
  metricNames: readonly string[],
): VariantMeans {
  const mean: Record<string, number | undefined> = {};
  const ci90: Record<string, number | undefined> = {};
  const defined: Record<string, number> = {};
  for (const m of metricNames) {
    const xs = runs.map((r) => valueForMean(r, m)).filter((v): v is number => v !== undefined);
    defined[m] = xs.length;
    if (xs.length === 0) continue;
    const interval = meanWithInterval(xs, 0.9);
    mean[m] = interval.mean;
    ci90[m] = roundNumber(interval.half_width);
  }
  return { mean, ci90, runs: defined };
}

/** The metrics some run does not define: the mean table says over how many runs each of their means is. */
export function metricsSomeRunLacks(
  runs: readonly Readonly<Record<string, number>>[],
  metricNames: readonly string[],
): ReadonlySet<string> {
  return new Set(metricNames.filter((m) => runs.some((r) => valueForMean(r, m) === undefined)));
}
