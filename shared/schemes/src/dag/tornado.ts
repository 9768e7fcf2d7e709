import type { Rng } from '@gridemu/runtime';

export type VariationModel = 'high' | 'medium' | 'low';

/**
 * Tornado-like DAG jobs (paper 003 §4), generated: an initial task, a parent set of `parallel`
 * tasks, a final task (the experiment file's `tornado:`).
 */
export interface TornadoSpec {
  readonly jobs: number;
  /** Tasks in the parent set (the paper: 2, 5, 10 or 20). */
  readonly parallel: number;
  /** How much the parallel tasks' lengths vary (the paper's High-, Medium- and LowVariation). */
  readonly variation: VariationModel;
  /** σ of the parallel tasks' log-normal lengths instead of the variation model's (VARIATION_SIGMA), to see what the reading of Figure 5 decides. */
  readonly sigma?: number;
  /**
   * A parent subset (§2, Figure 1: {1,2} inside {1,2,3}): with k > 0, a task `sub` beside the final
   * task on the last level, fed by the first k parallel tasks, a subset of the set that feeds the
   * final task. 0 or absent: none.
   */
  readonly subset?: number;
  /** Median length of a job's parallel tasks, seconds on the 1000-MIPS reference. */
  readonly median_s: number;
  /** Mean jobs per batch (geometric), mean hours between batches, and the share of batches by day. */
  readonly batch_size: number;
  readonly batch_gap_h: number;
  readonly day_share: number;
}

export const TORNADO_DEFAULTS: Omit<TornadoSpec, 'jobs' | 'parallel' | 'variation'> = {
  median_s: 1800,
  batch_size: 5,
  batch_gap_h: 1,
  day_share: 0.8,
};

/**
 * Paper 003's Tornado-like jobs (§4): each job is a 3-level DAG, an initial task, a parent set of
 * `parallel` tasks (2, 5, 10 or 20 in the paper) that all feed one final task. Task lengths follow
 * one of three variation models (Figure 5 shows them; the text gives no numbers). Our choice: each
 * parallel task's length is log-normal around a job's own median, with
 * - HighVariation: σ = 1.0 (lengths spread over more than an order of magnitude, model sweeps);
 * - MediumVariation: σ = 0.5;
 * - LowVariation: σ = 0.15 (parameter sweeps: similar lengths).
 * A job's median is log-normal around `median_s` (σ = 0.5); the initial and final tasks take a
 * tenth of it. Lengths are in MI on a 1000-MIPS reference, i.e. seconds on that resource.
 * Jobs arrive in batches whose start follows a daily cycle: `day_share` of batches (about 80%)
 * start between 08:00 and 20:00.
 */
export const VARIATION_SIGMA: Readonly<Record<VariationModel, number>> = { high: 1.0, medium: 0.5, low: 0.15 };

export interface TornadoTask {
  /** `init`, `p<i>` (0-based, the parent set) or `final`. */
  readonly id: string;
  readonly parents: readonly string[];
  readonly length_s: number;
  /** The rough length a user would give it (§3's "rough initial length estimation"): the job's median for a parallel task. */
  readonly estimate_s: number;
}

export interface TornadoJob {
  readonly number: number;
  readonly submit_s: number;
  readonly tasks: readonly TornadoTask[];
}

export function generateTornado(p: TornadoSpec, rng: Rng): TornadoJob[] {
  const lognormal = (median: number, sigma: number) => median * Math.exp(sigma * rng.normal());
  const jobs: TornadoJob[] = [];
  let day = 0;
  let clock = 0;
  while (jobs.length < p.jobs) {
    // The next batch: a gap, then moved into the day window with probability day_share.
    clock += rng.exponential(p.batch_gap_h * 3600);
    day = Math.floor(clock / 86_400);
    const inDay = rng.next() < p.day_share;
    const hour = inDay ? rng.uniform(8, 20) : rng.uniform(20, 32) % 24;
    const start = day * 86_400 + hour * 3600;
    clock = Math.max(clock, start);
    const size = 1 + Math.floor(Math.log(rng.nextOpen()) / Math.log(1 - 1 / Math.max(1, p.batch_size)) || 0);
    for (let b = 0; b < size && jobs.length < p.jobs; b++) {
      const median = lognormal(p.median_s, 0.5);
      const rough = Math.max(1, Math.round(median));
      const set = Array.from({ length: p.parallel }, (_, i) => ({
        id: `p${i}`,
        parents: ['init'],
        length_s: Math.max(1, Math.round(lognormal(median, p.sigma ?? VARIATION_SIGMA[p.variation]))),
        estimate_s: rough,
      }));
      const tenth = Math.max(1, Math.round(median / 10));
      jobs.push({
        number: jobs.length + 1,
        submit_s: Math.round(start + b * 10),
        tasks: [
          { id: 'init', parents: [], length_s: tenth, estimate_s: tenth },
          ...set,
          { id: 'final', parents: set.map((t) => t.id), length_s: tenth, estimate_s: tenth },
          ...(p.subset
            ? [{ id: 'sub', parents: set.slice(0, p.subset).map((t) => t.id), length_s: tenth, estimate_s: tenth }]
            : []),
        ],
      });
    }
  }
  return jobs.sort((a, b) => a.submit_s - b.submit_s).map((j, i) => ({ ...j, number: i + 1 }));
}
