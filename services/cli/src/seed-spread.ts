import { isOutcomeColumn } from './sweep/metrics-table.js';

/**
 * What a set of seeds sampled. A trace's jobs are the same whatever the seed, so `--seeds N` over
 * traces varies only what else the seed draws (link delays and loss, failures, the schemes' own
 * draws, such as site speeds or estimate errors), and over a deterministic scheme with no such draw it makes one run N times,
 * whose "± 0" reads like a tight interval. A researcher who reports such an interval should be
 * told what it is over.
 */
export interface SeedSpread {
  /** Every seed submitted the same jobs (their summaries' jobs_sha256 are equal). */
  readonly same_workload_every_seed: boolean;
  /** Every metric but the wall times was equal in every seed's run. */
  readonly identical_runs: boolean;
}

/**
 * Whether every run submitted the same jobs, from their summaries' jobs_sha256; false for fewer
 * than two runs, or when a summary has none (written before gridemu recorded it).
 */
export function sameJobsEveryRun(digests: readonly (string | undefined)[]): boolean {
  return digests.length >= 2 && digests.every((d) => d !== undefined && d === digests[0]);
}

/**
 * Whether the seeds' runs were one run: every column of their outcome (isOutcomeColumn) equal in
 * every row, the seed left out.
 */
export function identicalRuns(rows: readonly Record<string, number>[]): boolean {
  if (rows.length < 2) return false;
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((c) => c !== 'seed' && isOutcomeColumn(c));
  return columns.every((c) => rows.every((r) => Object.is(r[c], rows[0]![c])));
}

/**
 * The note printed under the means, or none when the seeds drew different workloads, or for a
 * replay (`simulate --network-from`), whose seeds are meant to vary its network draws alone.
 */
export function seedSpreadNote(spread: SeedSpread, seeds: number, replay = false): string | undefined {
  const fresh =
    'for workloads that differ, give each run its own slice of the trace (workload[i].skip) ' +
    'or use a synthetic source, which each seed draws anew';
  if (spread.identical_runs)
    return (
      `NOTE: the ${seeds} seeds made the same run (every metric equal): nothing in this experiment ` +
      `draws from its seed, so "± 0" is no confidence interval; ${fresh}`
    );
  if (spread.same_workload_every_seed && !replay)
    return (
      `NOTE: every seed submitted the same jobs: the intervals are over what else the seed draws ` +
      `(link delays and loss, failures, the schemes' own draws), not over workloads; ${fresh}`
    );
  return undefined;
}
