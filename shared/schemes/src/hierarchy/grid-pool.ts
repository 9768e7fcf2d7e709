import type { Rng } from '@gridemu/runtime';

/**
 * A grid as paper 000 measures it (§2, §5, Tables 2 and 3): its CPUs, the share one user gets
 * (N), their average performance (P, reference CPU-seconds per second), the overhead of invoking
 * a job (seconds on a small dedicated pool, minutes on a large shared one) and its volatility
 * (how often a running job is evicted). Larger grids: more CPUs, more overhead, more evictions.
 */
export interface GridPool {
  readonly cpus: number;
  readonly N: number;
  readonly P: number;
  /** Mean seconds from submitting a job to its starting (exponential). */
  readonly overhead_s: number;
  /** Evictions per CPU-hour of running (a Poisson process while a job runs). */
  readonly evictions_per_hour: number;
}

/** How one invocation of a job goes on a grid. */
export interface JobRun {
  /** Seconds before it starts (the grid's invocation overhead). */
  readonly overhead_s: number;
  /** Seconds it then runs: to its end, or until it is evicted. */
  readonly run_s: number;
  readonly evicted: boolean;
}

/** Draws one invocation of a job of `work_s` reference CPU-seconds (β: its CPU-bound share). */
export function runJob(grid: GridPool, work_s: number, beta: number, rng: Rng): JobRun {
  const overhead_s = grid.overhead_s > 0 ? rng.exponential(grid.overhead_s) : 0;
  const full_s = work_s / (grid.P * beta);
  if (grid.evictions_per_hour <= 0) return { overhead_s, run_s: full_s, evicted: false };
  const evictAt = rng.exponential(3600 / grid.evictions_per_hour);
  return evictAt < full_s
    ? { overhead_s, run_s: evictAt, evicted: true }
    : { overhead_s, run_s: full_s, evicted: false };
}
