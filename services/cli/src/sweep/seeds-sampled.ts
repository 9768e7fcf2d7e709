import { identicalRuns, sameJobsEveryRun } from '../seed-spread.js';

/** One variant of a sweep: each of its runs' metrics (flattenSummary) and jobs_sha256, seed by seed. */
export interface VariantRuns {
  readonly name: string;
  readonly metrics: readonly Record<string, number>[];
  readonly jobs: readonly (string | undefined)[];
}

/**
 * What each variant's seeds sampled, as `gridemu sweep` says it after its runs and its report shows
 * it: the variants whose seeds made one run (every metric equal; not judged for live runs, which
 * always differ a little), and those whose seeds differed but submitted the same jobs.
 */
export interface SweepSampling {
  readonly variants: number;
  readonly oneRun: readonly string[];
  readonly sharedJobs: readonly string[];
  /** Every variant's seeds drew jobs of their own (two seeds or more, and every run's digest known). */
  readonly ownJobs: boolean;
}

export function sweepSampling(variants: readonly VariantRuns[], live: boolean): SweepSampling {
  const oneRun = live ? [] : variants.filter((v) => identicalRuns(v.metrics)).map((v) => v.name);
  const sharedJobs = variants.filter((v) => !oneRun.includes(v.name) && sameJobsEveryRun(v.jobs)).map((v) => v.name);
  const ownJobs = variants.every(
    (v) => v.jobs.length >= 2 && v.jobs.every((d) => d !== undefined) && new Set(v.jobs).size === v.jobs.length,
  );
  return { variants: variants.length, oneRun, sharedJobs, ownJobs: variants.length > 0 && ownJobs };
}

const FRESH = "for workloads that differ, vary the trace's slice (workload[i].skip) or use a synthetic source";

/** The variants named, or "every variant" when they are all of the sweep's. */
function which(s: SweepSampling, names: readonly string[]): string {
  return names.length === s.variants ? 'every variant' : names.join(', ');
}

/** The notes `gridemu sweep` prints after its runs, one per kind of variant, or none. */
export function samplingNotes(s: SweepSampling): string[] {
  return [
    ...(s.oneRun.length > 0
      ? [
          `the seeds of ${which(s, s.oneRun)} made the same run (every metric equal): nothing there draws from the seed, so their "± 0" in sweep-mean.csv is no confidence interval; ${FRESH}`,
        ]
      : []),
    ...(s.sharedJobs.length > 0
      ? [
          `the seeds of ${which(s, s.sharedJobs)} submitted the same jobs (each run's summary.json has one jobs_sha256): their intervals in sweep-mean.csv are over what else the seed draws (link delays and loss, failures, the schemes' own draws), not over workloads; ${FRESH}`,
        ]
      : []),
  ];
}

/** The report's row: what the intervals are over, or undefined when the runs do not say. */
export function samplingRow(s: SweepSampling): string | undefined {
  const parts = [
    ...(s.oneRun.length > 0 ? [`one run in each seed of ${which(s, s.oneRun)}: no interval there`] : []),
    ...(s.sharedJobs.length > 0
      ? [
          `the same jobs in every seed of ${which(s, s.sharedJobs)}: the intervals are over link delays and loss, failures and the schemes' own draws, not over workloads`,
        ]
      : []),
  ];
  if (parts.length > 0) return parts.join('; ');
  return s.ownJobs ? 'a workload of its own in each seed' : undefined;
}
