/**
 * Push load sharing between the queues of one hierarchy level (paper 000, §3.3): each queue
 * samples every grid's availability on a period, smooths it with its history, estimates when a
 * task would complete in each queue from that availability and the work queued ahead of it, and
 * pushes a whole task to a queue that would finish it sooner. Tasks with few pending jobs stay.
 * Pure: the queue actors hold the state and carry out the decision.
 */

export interface LoadSharingParams {
  /** Weight of the history when a new availability sample comes in (0: the sample alone). */
  readonly history_weight: number;
  /** A task with fewer pending jobs than this never moves. */
  readonly min_pending_jobs: number;
  /** Another queue must finish the task this much sooner, as a fraction, for a push (against fluctuations). */
  readonly margin: number;
}

/** Availability averaged with its history (an exponentially weighted mean of the samples). */
export function smoothAvailability(
  previous: number | undefined,
  sample: number,
  p: Pick<LoadSharingParams, 'history_weight'>,
): number {
  return previous === undefined ? sample : p.history_weight * previous + (1 - p.history_weight) * sample;
}

/** What one queue of the level knows about another (or itself). */
export interface QueueView {
  readonly id: string;
  /** Smoothed CPUs available in its grid now. */
  readonly available_cpus: number;
  /** CPUs one task may hold there (N). */
  readonly N: number;
  /** Average performance and efficiency there (P, β). */
  readonly P: number;
  readonly beta: number;
  /** Complexity queued there ahead of the task (its own queue: the tasks ahead of it; another: all of it). */
  readonly workload_ahead: number;
}

export interface TaskToShare {
  readonly remaining: number;
  readonly pending_jobs: number;
}

/**
 * Seconds until the task would be done in a queue: the work ahead of it and its own, at the rate
 * the CPUs it can get deliver (at most N of the available ones); Infinity with none available.
 */
export function expectedCompletion_s(task: Pick<TaskToShare, 'remaining'>, q: QueueView): number {
  const cpus = Math.min(q.N, q.available_cpus);
  if (cpus <= 0) return Infinity;
  return (q.workload_ahead + task.remaining) / (cpus * q.P * q.beta);
}

/**
 * Where to push the task, if anywhere: the queue that would complete it soonest, when that beats
 * staying by more than the margin; undefined to stay. The target calls this again when the task
 * arrives (with itself as `here`), which resolves conflicting pushes made on older samples.
 */
export function pushTarget(
  task: TaskToShare,
  here: QueueView,
  others: readonly QueueView[],
  p: LoadSharingParams,
): string | undefined {
  if (task.pending_jobs < p.min_pending_jobs) return undefined;
  const stay = expectedCompletion_s(task, here);
  let best: { id: string; t: number } | undefined;
  for (const q of others) {
    if (q.id === here.id) continue;
    const t = expectedCompletion_s(task, q);
    if (t < stay * (1 - p.margin) && (best === undefined || t < best.t)) best = { id: q.id, t };
  }
  return best?.id;
}
