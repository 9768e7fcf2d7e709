import type { Job, JobTrail, RejectReason } from '@gridemu/model';

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
  /**
   * Executor → its local scheduler and the driver: the job's run died with the site's process
   * (issue 11); it runs again from the start.
   */
  JobLost: 'job.lost',
  /** Site → driver: the job can never run there. */
  JobRejected: 'job.rejected',
  /** A scheme's planner → driver: the job was given up (its retries ran out); it will not run. */
  JobFailed: 'job.failed',
  /** Driver timer: submit the jobs due now. */
  SubmitDue: 'timer.submit-due',
  /** Executor timer: a running job reaches its end. */
  JobEnds: 'timer.job-ends',
  /** Metascheduler → a site's local scheduler: queue a copy of a job that originated elsewhere (or here). */
  JobCopy: 'job.copy',
  /** Local scheduler → origin metascheduler: a copy is about to start here; may it? (paper 001 §7, the job's semaphore) */
  ClaimRequest: 'claim.request',
  /** Origin metascheduler → claiming site: yes, start it. */
  ClaimGrant: 'claim.grant',
  /** Origin metascheduler → claiming site: no, another copy has it; drop yours. */
  ClaimDeny: 'claim.deny',
  /** Origin metascheduler → a site holding a copy: another copy started; drop yours. */
  CopyCancel: 'copy.cancel',
  /** Local scheduler → every metascheduler: this site's load (load gossip). */
  LoadReport: 'load.report',
  /** Local scheduler timer: publish the load now. */
  LoadTick: 'timer.load-tick',
  /** Local scheduler timer: a claim got no answer in time. */
  ClaimTimeout: 'timer.claim-timeout',
  /** Local scheduler → executor: a copy started optimistically has won; report it. */
  JobConfirm: 'job.confirm',
  /** Local scheduler → executor: a copy started optimistically has lost; stop it and report nothing. */
  JobKill: 'job.kill',
  /**
   * A live runtime → the runtime that sent a durable message: it arrived (issue 11). Handled by
   * the runtimes, never by actors; the sender stops resending it.
   */
  BusAck: 'bus.ack',
  /** Hierarchical metascheduler → site scheduler: when would this job start with you? */
  StartQuery: 'start.query',
  /** Site scheduler → hierarchical metascheduler: the answer to a StartQuery. */
  StartEstimate: 'start.estimate',
} as const;
export type MessageType = (typeof MessageType)[keyof typeof MessageType];

export interface JobSubmit { readonly type: typeof MessageType.JobSubmit; readonly job: Job }

export { FRESH_TRAIL, type JobTrail } from '@gridemu/model';
export interface JobStart {
  readonly type: typeof MessageType.JobStart;
  readonly job: Job;
  readonly trail: JobTrail;
  /** Started before its claim was granted (optimistic): report nothing until confirmed. */
  readonly provisional?: boolean;
}
export interface JobConfirm { readonly type: typeof MessageType.JobConfirm; readonly jobId: string }
export interface JobKill { readonly type: typeof MessageType.JobKill; readonly jobId: string }
export interface JobFinished { readonly type: typeof MessageType.JobFinished; readonly jobId: string }
export interface JobStarted {
  readonly type: typeof MessageType.JobStarted;
  readonly jobId: string;
  readonly site: string;
  readonly time_s: number;
  /** Processor ids in Batsim's interval-set notation, e.g. "0-3 8". */
  readonly resources: string;
  readonly trail: JobTrail;
}
export interface JobCompleted {
  readonly type: typeof MessageType.JobCompleted;
  readonly jobId: string;
  readonly site: string;
  readonly time_s: number;
  /** What happened to the job after it started, when something did (paper 003's migrations of running tasks). */
  readonly trail?: JobTrail;
}
export interface JobLost {
  readonly type: typeof MessageType.JobLost;
  readonly jobId: string;
  readonly site: string;
  /** When the lost run started, and when it died (the crash). */
  readonly started_s: number;
  readonly time_s: number;
}
export interface JobRejected { readonly type: typeof MessageType.JobRejected; readonly jobId: string; readonly site: string; readonly reason: RejectReason }
export interface JobFailed {
  readonly type: typeof MessageType.JobFailed;
  readonly jobId: string;
  readonly time_s: number;
  /** Why, for jobs.csv's `reason` column (e.g. `retry_limit:application`). */
  readonly reason: string;
  readonly trail: JobTrail;
}
export interface SubmitDue { readonly type: typeof MessageType.SubmitDue }
export interface JobEnds { readonly type: typeof MessageType.JobEnds; readonly jobId: string }

/** Which of a dual-queue site's queues a copy waits in (paper 001 §4.2). */
export type CopyQueue = 'local' | 'remote';

export interface JobCopy {
  readonly type: typeof MessageType.JobCopy;
  readonly job: Job;
  readonly queue: CopyQueue;
  /** Whether the site must win the job's semaphore at its origin before starting it. */
  readonly claim: boolean;
  readonly trail: JobTrail;
}
export interface ClaimRequest { readonly type: typeof MessageType.ClaimRequest; readonly jobId: string; readonly site: string; readonly claimId: number }
export interface ClaimGrant { readonly type: typeof MessageType.ClaimGrant; readonly jobId: string; readonly claimId: number }
export interface ClaimDeny { readonly type: typeof MessageType.ClaimDeny; readonly jobId: string; readonly claimId: number }
export interface CopyCancel {
  readonly type: typeof MessageType.CopyCancel;
  readonly jobId: string;
  /** When the origin granted the job to another copy: the receiver measures the cancel delay from it. */
  readonly granted_s: number;
}
export interface LoadReport {
  readonly type: typeof MessageType.LoadReport;
  readonly site: string;
  /** Expected seconds to drain the site's running and queued work, from requested times (docs/metascheduling.md). */
  readonly load: number;
  readonly time_s: number;
}
export interface LoadTick { readonly type: typeof MessageType.LoadTick }
export interface ClaimTimeout { readonly type: typeof MessageType.ClaimTimeout; readonly jobId: string; readonly claimId: number }

export interface StartQuery {
  readonly type: typeof MessageType.StartQuery;
  readonly queryId: number;
  readonly jobId: string;
  readonly procs: number;
  readonly estimate_s: number;
}
export interface BusAck { readonly type: typeof MessageType.BusAck; readonly mid: string }
export interface StartEstimate { readonly type: typeof MessageType.StartEstimate; readonly queryId: number; readonly site: string; readonly start_s: number }

/**
 * Every message by its type tag. A scheme module adds its own by augmenting this interface
 * (`declare module '@gridemu/protocol' { interface MessageCatalogue { ... } }`) and registering
 * their shapes with the validator, so `Message` grows without this file changing.
 */
export interface MessageCatalogue {
  'job.submit': JobSubmit;
  'job.start': JobStart;
  'job.finished': JobFinished;
  'job.started': JobStarted;
  'job.completed': JobCompleted;
  'job.rejected': JobRejected;
  'job.lost': JobLost;
  'bus.ack': BusAck;
  'job.failed': JobFailed;
  'timer.submit-due': SubmitDue;
  'timer.job-ends': JobEnds;
  'job.copy': JobCopy;
  'claim.request': ClaimRequest;
  'claim.grant': ClaimGrant;
  'claim.deny': ClaimDeny;
  'copy.cancel': CopyCancel;
  'load.report': LoadReport;
  'timer.load-tick': LoadTick;
  'timer.claim-timeout': ClaimTimeout;
  'start.query': StartQuery;
  'start.estimate': StartEstimate;
  'job.confirm': JobConfirm;
  'job.kill': JobKill;
}

export type Message = MessageCatalogue[keyof MessageCatalogue];

/**
 * Messages that must not be lost (issue 11): a job's submission, its copies and every report the
 * results depend on. Faults never drop them, and a crashed receiver gets them when it is back (a
 * live run carries them on durable streams). Everything else (gossip, claims and their answers,
 * cancels, queries) may be lost: the protocols time out and ask again (docs/faults.md).
 */
export const DURABLE_MESSAGES: ReadonlySet<string> = new Set<string>([
  MessageType.JobSubmit,
  MessageType.JobCopy,
  // Within a site these never cross a link; the central scheme sends them between processes.
  MessageType.JobStart,
  MessageType.JobFinished,
  MessageType.JobStarted,
  MessageType.JobCompleted,
  MessageType.JobRejected,
  MessageType.JobFailed,
  MessageType.JobLost,
]);
