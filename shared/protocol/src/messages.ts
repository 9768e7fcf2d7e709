import type { Job, RejectReason } from '@gridemu/model';

/**
 * The message catalogue: every message an actor may send or schedule to itself. Each carries its
 * type tag; the wire envelope (protocol version, sender, run id) and the msgpack codec are added by
 * the live transport, never by actors.
 */
export const MessageType = {
  /** Driver → origin site: a user submits a job. */
  JobSubmit: 'job.submit',
  /** Local scheduler → executor of the same site: start this job now on these processors. */
  JobStart: 'job.start',
  /** Executor → local scheduler of the same site: the job's processors are free again. */
  JobFinished: 'job.finished',
  /** Executor → driver: the job started (for the results). */
  JobStarted: 'job.started',
  /** Executor → driver: the job finished (for the results). */
  JobCompleted: 'job.completed',
  /** Site → driver: the job can never run there. */
  JobRejected: 'job.rejected',
  /** Driver timer: submit the jobs due now. */
  SubmitDue: 'timer.submit-due',
  /** Executor timer: a running job reaches its end. */
  JobEnds: 'timer.job-ends',
} as const;
export type MessageType = (typeof MessageType)[keyof typeof MessageType];

export interface JobSubmit { readonly type: typeof MessageType.JobSubmit; readonly job: Job }
export interface JobStart { readonly type: typeof MessageType.JobStart; readonly job: Job }
export interface JobFinished { readonly type: typeof MessageType.JobFinished; readonly jobId: string }
export interface JobStarted {
  readonly type: typeof MessageType.JobStarted;
  readonly jobId: string;
  readonly site: string;
  readonly time_s: number;
  /** Processor ids in Batsim's interval-set notation, e.g. "0-3 8". */
  readonly resources: string;
}
export interface JobCompleted { readonly type: typeof MessageType.JobCompleted; readonly jobId: string; readonly site: string; readonly time_s: number }
export interface JobRejected { readonly type: typeof MessageType.JobRejected; readonly jobId: string; readonly site: string; readonly reason: RejectReason }
export interface SubmitDue { readonly type: typeof MessageType.SubmitDue }
export interface JobEnds { readonly type: typeof MessageType.JobEnds; readonly jobId: string }

export type Message = JobSubmit | JobStart | JobFinished | JobStarted | JobCompleted | JobRejected | SubmitDue | JobEnds;
