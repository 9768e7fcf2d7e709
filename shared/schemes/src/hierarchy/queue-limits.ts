/**
 * The grid execution hierarchy's queue limits (paper 000, §3.2): a queue serves tasks expected to
 * wait at most T_q and run at most T_e on its grid, and turns those times into complexities with
 * Eq. 1. Pure: the queue actors (still to come) call these with their own state.
 */

/** The migration policies of Figures 1 and 2, each of which a queue may switch off. */
export const MIGRATION_POLICIES = [
  'overload',
  'complexity-mismatch',
  'overdue',
  'task-potential-overdue',
  'queue-potential-overdue',
] as const;
export type MigrationPolicy = (typeof MIGRATION_POLICIES)[number];

export interface QueueLimits {
  /** Queue waiting-time limit: from arrival in the queue to termination, seconds. */
  readonly T_q: number;
  /** Queue execution-time limit: from the first job's start to termination, seconds. */
  readonly T_e: number;
  /** CPUs one user may hold in the queue's grid. */
  readonly N: number;
  /** Their average performance, operations per second. */
  readonly P: number;
  /** The application's efficiency on one CPU (its share of CPU-bound operations). */
  readonly beta: number;
  /** The share of T_e a new task's complexity estimation may take (α < 1). */
  readonly alpha: number;
  /** The policies switched on. */
  readonly policies: ReadonlySet<MigrationPolicy>;
  /** The last level: a task that would migrate is rejected (new) or terminated (running) instead. */
  readonly last: boolean;
}

/** Eq. 1: the complexity a queue's grid gets through in T seconds, optimistically (linear speed-up, every CPU, average speed). */
export function phi(T: number, q: Pick<QueueLimits, 'N' | 'P' | 'beta'>): number {
  return T * q.N * q.P * q.beta;
}

/** What a queue does with a task it would move on: the next queue down, or nothing if it is the last. */
export type Departure =
  | { readonly kind: 'migrate'; readonly policy: MigrationPolicy }
  | { readonly kind: 'reject'; readonly policy: MigrationPolicy }
  | { readonly kind: 'terminate'; readonly policy: MigrationPolicy };

function departNew(q: QueueLimits, policy: MigrationPolicy): Departure {
  return q.last ? { kind: 'reject', policy } : { kind: 'migrate', policy };
}

function departRunning(q: QueueLimits, policy: MigrationPolicy): Departure {
  return q.last ? { kind: 'terminate', policy } : { kind: 'migrate', policy };
}

export type NewTaskDecision =
  | Departure
  /** Run the complexity estimator for up to this long, then call `afterEstimation` with its bound. */
  | { readonly kind: 'estimate'; readonly for_s: number }
  | { readonly kind: 'invoke' };

/**
 * Figure 1, ProcessNewTask, up to the estimation: (1) overload, Q > C_q, moves the task on without
 * estimating it; (2) a task of unknown complexity, or one above C_e, is estimated for up to αT_e;
 * (3) otherwise it is invoked here.
 * @param Q the queue's workload complexity, as EnforceQueueLimits last computed it
 * @param C the task's complexity bound so far (undefined for a new task)
 */
export function processNewTask(q: QueueLimits, Q: number, C: number | undefined): NewTaskDecision {
  if (q.policies.has('overload') && Q > phi(q.T_q, q)) return departNew(q, 'overload');
  if (C === undefined || C > phi(q.T_e, q)) return { kind: 'estimate', for_s: q.alpha * q.T_e };
  return { kind: 'invoke' };
}

/** Figure 1, step 3: with the estimator's bound C, a task above C_e moves on (complexity mismatch); else it is invoked. */
export function afterEstimation(q: QueueLimits, C: number): Departure | { readonly kind: 'invoke' } {
  if (q.policies.has('complexity-mismatch') && C > phi(q.T_e, q)) return departNew(q, 'complexity-mismatch');
  return { kind: 'invoke' };
}

/** A task in the queue, as EnforceQueueLimits sees it. */
export interface QueuedTask {
  readonly id: string;
  /** Seconds since it arrived in this queue (t_q). */
  readonly waited_s: number;
  /** Seconds since its first job started here (t_e); 0 if none has. */
  readonly executed_s: number;
  /** Complexity of its remaining computations. */
  readonly remaining: number;
}

/**
 * Figure 2, EnforceQueueLimits, over the tasks from the head of the queue: (1) overdue, t_q > T_q
 * or t_e > T_e; (2b) task potential overdue, its remaining complexity above what the time left
 * buys, φ(T_e − t_e) or φ(T_q − t_q); (2c) queue potential overdue, Q + C > C_q; else its C counts
 * towards Q. Returns Q and what leaves. A task alone in the queue stays until another arrives
 * (§3.2.3 says so of overdue; here of every policy, since an overdue task is also potentially
 * overdue and moving a lone task frees nothing anyone waits for).
 */
export function enforceQueueLimits(
  q: QueueLimits,
  tasks: readonly QueuedTask[],
): { Q: number; departures: { id: string; departure: Departure }[] } {
  let Q = 0;
  const departures: { id: string; departure: Departure }[] = [];
  const leave = (id: string, policy: MigrationPolicy) => departures.push({ id, departure: departRunning(q, policy) });
  const C_q = phi(q.T_q, q);
  const alone = tasks.length === 1;
  for (const t of tasks) {
    if (alone) {
      Q += t.remaining;
      break;
    }
    if (q.policies.has('overdue') && (t.waited_s > q.T_q || t.executed_s > q.T_e)) {
      leave(t.id, 'overdue');
      continue;
    }
    const C = t.remaining;
    if (
      q.policies.has('task-potential-overdue') &&
      (C > phi(q.T_e - t.executed_s, q) || C > phi(q.T_q - t.waited_s, q))
    ) {
      leave(t.id, 'task-potential-overdue');
      continue;
    }
    if (q.policies.has('queue-potential-overdue') && Q + C > C_q) {
      leave(t.id, 'queue-potential-overdue');
      continue;
    }
    Q += C;
  }
  return { Q, departures };
}
