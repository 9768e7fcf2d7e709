import type { Job } from '@gridemu/model';
import type { FieldCheck, MessageShapes } from '@gridemu/protocol';

/**
 * Paper 003's messages (§3, §4). The scheduler (GSched) places tasks on computational resources
 * (CRs) hosted by their site's actor; the sites report progress to the information service (IS);
 * a migrating task's checkpoint goes through the checkpoint server (CS).
 */

/** A task's progress as its CR last measured it. */
export interface DagTaskProgress {
  readonly jobId: string;
  readonly resource: string;
  /** MI executed so far, over all its runs. */
  readonly done_mi: number;
  /** P in [0, 1], through the run's prediction model (§4, Figure 3). */
  readonly progress: number;
}

/**
 * GSched → site: run this task on CR `resource` once `delay_s` has passed (its inputs, or its
 * checkpoint and inputs, on their way). `done_mi` is what it did before (its checkpoint); the CR
 * runs the rest of its true length, which only the CR knows.
 */
export interface DagRun {
  readonly type: 'dag.run';
  readonly job: Job;
  readonly resource: string;
  readonly done_mi: number;
  readonly delay_s: number;
  readonly initial: boolean;
  /** Its first run: the one reported as the job's start. */
  readonly first: boolean;
  readonly migrations: number;
}
/** GSched → site: checkpoint this task and stop it (a migration, or an initial task making room, §3). */
export interface DagStop {
  readonly type: 'dag.stop';
  readonly jobId: string;
}
/**
 * Site → CS: the checkpoint of a stopped task. `begun`: it had begun to run at some point (a task
 * stopped while its inputs were on their way, on its first placement, has not, and its restart is
 * the start the driver hears of).
 */
export interface DagCheckpoint {
  readonly type: 'dag.checkpoint';
  readonly jobId: string;
  readonly resource: string;
  readonly done_mi: number;
  readonly bytes: number;
  readonly begun: boolean;
}
/** CS → GSched: the checkpoint is stored; the task may start elsewhere. */
export interface DagStopped {
  readonly type: 'dag.stopped';
  readonly jobId: string;
  readonly resource: string;
  readonly done_mi: number;
  readonly begun: boolean;
}
/** Site → GSched: the task finished on its CR. */
export interface DagDone {
  readonly type: 'dag.done';
  readonly jobId: string;
  readonly resource: string;
}
/** Site → IS, every progress period: its running tasks. */
export interface DagProgress {
  readonly type: 'dag.progress';
  readonly site: string;
  readonly tasks: readonly DagTaskProgress[];
}
/** GSched → IS, at each adaptive round (step 1), and the answer. */
export interface DagStatusQuery {
  readonly type: 'dag.status-query';
  readonly round: number;
}
export interface DagStatus {
  readonly type: 'dag.status';
  readonly round: number;
  readonly tasks: readonly DagTaskProgress[];
}

/** Site timers: a CR's next task ends; a task's inputs have arrived; report progress; a checkpoint is written. */
export interface DagResourceDue {
  readonly type: 'timer.dag-resource';
  readonly resource: string;
  /** When the task ends at the shares it was set at: a live timer may be handled later than this. */
  readonly due_s: number;
}
export interface DagBegin {
  readonly type: 'timer.dag-begin';
  readonly jobId: string;
}
export interface DagReport {
  readonly type: 'timer.dag-report';
}
export interface DagCheckpointed {
  readonly type: 'timer.dag-checkpointed';
  readonly jobId: string;
}
/**
 * GSched → site: the task's job has failed (it passed its limit, §4): stop the task without a
 * checkpoint and report it failed to the driver, unless it has already finished there.
 */
export interface DagKill {
  readonly type: 'dag.kill';
  readonly jobId: string;
  readonly reason: string;
}
/** GSched timer: a DAG job's limit on its execution time (§4) may have passed. */
export interface DagLimit {
  readonly type: 'timer.dag-limit';
  readonly dag: string;
}
/** GSched timer: the next adaptive round. */
export interface DagRound {
  readonly type: 'timer.dag-round';
}

declare module '@gridemu/protocol' {
  interface MessageCatalogue {
    'dag.run': DagRun;
    'dag.stop': DagStop;
    'dag.kill': DagKill;
    'timer.dag-limit': DagLimit;
    'dag.checkpoint': DagCheckpoint;
    'dag.stopped': DagStopped;
    'dag.done': DagDone;
    'dag.progress': DagProgress;
    'dag.status-query': DagStatusQuery;
    'dag.status': DagStatus;
    'timer.dag-resource': DagResourceDue;
    'timer.dag-begin': DagBegin;
    'timer.dag-report': DagReport;
    'timer.dag-checkpointed': DagCheckpointed;
    'timer.dag-round': DagRound;
  }
}

const nonNegative: FieldCheck = (v) =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? undefined : 'must be a non-negative number';
const progressList: FieldCheck = (v) => {
  if (!Array.isArray(v)) return 'must be a list of task progress';
  for (const [i, t] of v.entries()) {
    const p = t as Partial<DagTaskProgress> | null;
    if (typeof p !== 'object' || p === null || typeof p.jobId !== 'string' || typeof p.resource !== 'string')
      return `[${i}]: needs jobId and resource`;
    if (nonNegative(p.done_mi) !== undefined || typeof p.progress !== 'number' || !(p.progress >= 0 && p.progress <= 1))
      return `[${i}]: needs done_mi ≥ 0 and progress in [0, 1]`;
  }
  return undefined;
};

export const DAG_MESSAGES: MessageShapes = {
  'dag.run': {
    job: 'job',
    resource: 'string',
    done_mi: nonNegative,
    delay_s: nonNegative,
    initial: 'boolean',
    first: 'boolean',
    migrations: 'count',
  },
  'dag.stop': { jobId: 'string' },
  'dag.kill': { jobId: 'string', reason: 'string' },
  'timer.dag-limit': { dag: 'string' },
  'dag.checkpoint': { jobId: 'string', resource: 'string', done_mi: nonNegative, bytes: nonNegative, begun: 'boolean' },
  'dag.stopped': { jobId: 'string', resource: 'string', done_mi: nonNegative, begun: 'boolean' },
  'dag.done': { jobId: 'string', resource: 'string' },
  'dag.progress': { site: 'string', tasks: progressList },
  'dag.status-query': { round: 'count' },
  'dag.status': { round: 'count', tasks: progressList },
  'timer.dag-resource': { resource: 'string', due_s: 'number' },
  'timer.dag-begin': { jobId: 'string' },
  'timer.dag-report': {},
  'timer.dag-checkpointed': { jobId: 'string' },
  'timer.dag-round': {},
};

/**
 * Paper 003's messages that must not be lost: a task's run, stop and kill, its checkpoint on its
 * way to the checkpoint server and the server's word that it is stored, and a run's end. The sites'
 * progress reports to the IS may be lost: the next replaces them.
 */
export const DAG_DURABLE: readonly string[] = [
  'dag.run',
  'dag.stop',
  'dag.kill',
  'dag.checkpoint',
  'dag.stopped',
  'dag.done',
];
