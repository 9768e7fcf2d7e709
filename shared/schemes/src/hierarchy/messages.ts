import type { FieldCheck, MessageShapes } from '@gridemu/protocol';

/**
 * A task as it travels between queues (migration, §3.2; a push, §3.3): what its master's
 * checkpoint keeps (the work its finished jobs did) and what the estimator learnt so far. `work_s`
 * is the truth the grids execute; the queues decide only from `bound` and the work still to do.
 */
export interface TaskState {
  readonly id: string;
  readonly submit_s: number;
  /** Complexity, reference CPU-seconds. */
  readonly work_s: number;
  /** Work of the jobs that finished, kept across migrations. */
  done_s: number;
  /** Jobs the task is split into, when its decomposition is fixed. */
  readonly split_jobs?: number;
  /** The estimator's first bound is k × the complexity. */
  readonly k: number;
  /** Seconds of complexity estimation so far, at every level. */
  estimated_s: number;
  /** The estimator's upper bound after `estimated_s` (absent before any estimation). */
  bound?: number;
  /** When its first job started, anywhere. */
  first_start_s?: number;
  /** Migrations and pushes so far. */
  moves: number;
  /** The level it was last pushed at: a task is pushed at most once per level. */
  pushed_level?: number;
  /** Where its time went (Figures 5, 6; Table 3), over every queue it visited. */
  grid_wait_s: number;
  queueing_s: number;
  evicted_cpu_s: number;
  cpu_s: number;
  /** Seconds during which at least one of its jobs was running: its time of actual computation. */
  compute_s: number;
  jobs_run: number;
  jobs_evicted: number;
  /** Jobs-running samples while it had pending jobs (Table 3, rows 3 and 4). */
  alloc_sum: number;
  alloc_samples: number;
}

/** Queue → queue: take this task (migrated down a level, or pushed within one). */
export interface HqTask {
  readonly type: 'hq.task';
  readonly task: TaskState;
  readonly reason: string;
}
/** Queue → grid: run one job of a task (work in reference CPU-seconds). */
export interface HqJobSubmit {
  readonly type: 'hq.job-submit';
  readonly jobId: string;
  readonly work_s: number;
  readonly priority: number;
  /** Whether the grid hands it back (`hq.job-unmatched`) when a negotiation cycle leaves it unmatched: Condor flocking. */
  readonly flock: boolean;
}
/** Grid → queue: a negotiation cycle left the job unmatched and the grid let it go, to flock to the next grid. */
export interface HqJobUnmatched {
  readonly type: 'hq.job-unmatched';
  readonly jobId: string;
}
/** Grid → queue: the job got a CPU. */
export interface HqJobStarted {
  readonly type: 'hq.job-started';
  readonly jobId: string;
}
/** Grid → queue: the job ended, done or evicted after `ran_s` seconds on its CPU. */
export interface HqJobDone {
  readonly type: 'hq.job-done';
  readonly jobId: string;
  readonly evicted: boolean;
  readonly ran_s: number;
}
/** Queue → grid: drop every job of this queue's task (it migrated). */
export interface HqJobCancel {
  readonly type: 'hq.job-cancel';
  readonly prefix: string;
}
/** Grid → every queue, on the grid topic: its CPUs now. */
export interface HqGridStatus {
  readonly type: 'hq.grid-status';
  readonly grid: string;
  readonly cpus: number;
  readonly free: number;
  readonly waiting: number;
}
/** Queue → the others, on the queue topic: its workload and the CPUs its grids offer it (§3.3). */
export interface HqQueueStatus {
  readonly type: 'hq.queue-status';
  readonly queue: string;
  readonly level: number;
  readonly workload: number;
  readonly available: number;
  readonly N: number;
  readonly P: number;
}
export interface HqJobReady {
  readonly type: 'timer.hq-job-ready';
  readonly jobId: string;
}
export interface HqJobEnds {
  readonly type: 'timer.hq-job-ends';
  readonly jobId: string;
}
export interface HqGridTick {
  readonly type: 'timer.hq-grid-tick';
}
/** Grid timer: a negotiation cycle. */
export interface HqNegotiate {
  readonly type: 'timer.hq-negotiate';
}
/** Grid timer: an outage starts or ends. */
export interface HqOutage {
  readonly type: 'timer.hq-outage';
}
export interface HqEstimated {
  readonly type: 'timer.hq-estimated';
  readonly taskId: string;
}
export interface HqQueueTick {
  readonly type: 'timer.hq-queue-tick';
}
export interface HqShareTick {
  readonly type: 'timer.hq-share-tick';
}
/** DAGMan has seen the task's last job end (§6): the task is done. */
export interface HqDagmanDone {
  readonly type: 'timer.hq-dagman-done';
  readonly taskId: string;
}

declare module '@gridemu/protocol' {
  interface MessageCatalogue {
    'hq.task': HqTask;
    'hq.job-submit': HqJobSubmit;
    'hq.job-started': HqJobStarted;
    'hq.job-unmatched': HqJobUnmatched;
    'hq.job-done': HqJobDone;
    'hq.job-cancel': HqJobCancel;
    'hq.grid-status': HqGridStatus;
    'hq.queue-status': HqQueueStatus;
    'timer.hq-job-ready': HqJobReady;
    'timer.hq-job-ends': HqJobEnds;
    'timer.hq-grid-tick': HqGridTick;
    'timer.hq-negotiate': HqNegotiate;
    'timer.hq-outage': HqOutage;
    'timer.hq-estimated': HqEstimated;
    'timer.hq-queue-tick': HqQueueTick;
    'timer.hq-share-tick': HqShareTick;
    'timer.hq-dagman-done': HqDagmanDone;
  }
}

const nonNegative: FieldCheck = (v) =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? undefined : 'must be a non-negative number';
const TASK_NUMBERS = [
  'submit_s',
  'work_s',
  'done_s',
  'k',
  'estimated_s',
  'moves',
  'grid_wait_s',
  'queueing_s',
  'evicted_cpu_s',
  'cpu_s',
  'compute_s',
  'jobs_run',
  'jobs_evicted',
  'alloc_sum',
  'alloc_samples',
];
const TASK_OPTIONAL = ['split_jobs', 'bound', 'first_start_s', 'pushed_level'];
const task: FieldCheck = (v) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'must be a task map';
  const o = v as Record<string, unknown>;
  if (typeof o['id'] !== 'string' || o['id'].length === 0) return '.id must be a non-empty string';
  for (const k of TASK_NUMBERS) if (nonNegative(o[k])) return `.${k} must be a non-negative number`;
  for (const k of TASK_OPTIONAL)
    if (o[k] !== undefined && nonNegative(o[k])) return `.${k} must be a non-negative number`;
  for (const k of Object.keys(o))
    if (k !== 'id' && !TASK_NUMBERS.includes(k) && !TASK_OPTIONAL.includes(k))
      return `has an unexpected field "${k.slice(0, 60)}"`;
  return undefined;
};

export const HIERARCHY_MESSAGES: MessageShapes = {
  'hq.task': { task, reason: 'string' },
  'hq.job-submit': { jobId: 'string', work_s: nonNegative, priority: 'count', flock: 'boolean' },
  'hq.job-unmatched': { jobId: 'string' },
  'hq.job-started': { jobId: 'string' },
  'hq.job-done': { jobId: 'string', evicted: 'boolean', ran_s: nonNegative },
  'hq.job-cancel': { prefix: 'string' },
  'hq.grid-status': { grid: 'string', cpus: 'count', free: 'count', waiting: 'count' },
  'hq.queue-status': {
    queue: 'string',
    level: 'count',
    workload: nonNegative,
    available: nonNegative,
    N: 'count',
    P: nonNegative,
  },
  'timer.hq-job-ready': { jobId: 'string' },
  'timer.hq-dagman-done': { taskId: 'string' },
  'timer.hq-job-ends': { jobId: 'string' },
  'timer.hq-grid-tick': {},
  'timer.hq-negotiate': {},
  'timer.hq-outage': {},
  'timer.hq-estimated': { taskId: 'string' },
  'timer.hq-queue-tick': {},
  'timer.hq-share-tick': {},
};

/**
 * Paper 000's messages that must not be lost: a task moving between queues, and a job's submission,
 * match, start, end and cancel between a queue and a grid. Each is the only word of its step (no
 * timeout asks again). The grids' and queues' status reports may be lost: the next replaces them.
 */
export const HIERARCHY_DURABLE: readonly string[] = [
  'hq.task',
  'hq.job-submit',
  'hq.job-unmatched',
  'hq.job-started',
  'hq.job-done',
  'hq.job-cancel',
];
