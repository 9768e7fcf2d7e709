import type { Rng } from '@gridemu/runtime';

/** A stream of divisible tasks as paper 000's Superlink-online saw them (§5, Figure 7): the experiment file's `tasks.stream`. */
export interface TaskStreamParams {
  readonly tasks: number;
  /** Share of tasks lasting a few minutes (Figure 7: about 60%), log-uniform in [short_min_s, short_max_s]. */
  readonly short_share: number;
  readonly short_min_s: number;
  readonly short_max_s: number;
  /** Share up to a few hours (Figure 7: about 28%), log-uniform in [short_max_s, medium_max_s]. */
  readonly medium_share: number;
  readonly medium_max_s: number;
  /** The rest: a Pareto tail from medium_max_s with this shape (smaller: heavier), capped at tail_max_s. */
  readonly tail_shape: number;
  readonly tail_max_s: number;
  /** Mean seconds between bursts, and mean tasks per burst (geometric); tasks of a burst come seconds apart. */
  readonly burst_gap_s: number;
  readonly burst_size: number;
  readonly within_burst_gap_s: number;
}

export const TASK_STREAM_DEFAULTS: Omit<TaskStreamParams, 'tasks'> = {
  short_share: 0.6,
  short_min_s: 30,
  short_max_s: 600,
  medium_share: 0.28,
  medium_max_s: 3 * 3600,
  tail_shape: 1.2,
  tail_max_s: 20 * 24 * 3600,
  burst_gap_s: 1800,
  burst_size: 4,
  within_burst_gap_s: 20,
};

/**
 * Most tasks are short, a quarter or so run up to a few hours, and a heavy tail runs for days;
 * they arrive in bursts (a user submits several analyses at once). Work is in seconds on one
 * reference CPU.
 */
export interface GeneratedTask {
  readonly number: number;
  readonly submit_s: number;
  /** CPU-seconds on a reference CPU: the task's complexity divided by P · β of that CPU. */
  readonly work_s: number;
}

export function generateTaskStream(p: TaskStreamParams, rng: Rng): GeneratedTask[] {
  const logUniform = (lo: number, hi: number) => Math.exp(rng.uniform(Math.log(lo), Math.log(hi)));
  const out: GeneratedTask[] = [];
  let t = 0;
  while (out.length < p.tasks) {
    // A burst: its size is geometric with mean burst_size (at least one task).
    const size = 1 + Math.floor(Math.log(rng.nextOpen()) / Math.log(1 - 1 / Math.max(1, p.burst_size)) || 0);
    for (let i = 0; i < size && out.length < p.tasks; i++) {
      const u = rng.next();
      let work: number;
      if (u < p.short_share) work = logUniform(p.short_min_s, p.short_max_s);
      else if (u < p.short_share + p.medium_share) work = logUniform(p.short_max_s, p.medium_max_s);
      else work = Math.min(p.tail_max_s, p.medium_max_s * Math.pow(rng.nextOpen(), -1 / p.tail_shape));
      out.push({ number: out.length + 1, submit_s: Math.round(t), work_s: Math.max(1, Math.round(work)) });
      t += rng.exponential(p.within_burst_gap_s);
    }
    t += rng.exponential(p.burst_gap_s);
  }
  return out;
}
