import type { Job, JobTrail, RejectReason } from '@gridemu/model';

/**
 * The message catalogue: every message an actor may send or schedule to itself. Each carries its
 * type tag; the wire envelope (protocol version, sender, run id) and the msgpack codec are added by
 * the live transport, never by actors.
 */
export const MessageType = {
  /** Driver → origin site: a user submits a job. */
  JobSubmit: 'job.submit',
  /** Executor → driver: the job started (for the results). */
  JobStarted: 'job.started',
  /** Executor → driver: the job finished (for the results). */
  JobCompleted: 'job.completed',
  /**
   * Executor → its local scheduler and the driver: the job's run died with the site's process
   *; it runs again from the start.
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
  /**
   * A live runtime → the runtime that sent a durable message: it arrived. Handled by
   * the runtimes, never by actors; the sender stops resending it.
   */
  BusAck: 'bus.ack',
} as const;
export type MessageType = (typeof MessageType)[keyof typeof MessageType];

export interface JobSubmit {
  readonly type: typeof MessageType.JobSubmit;
  readonly job: Job;
}

export { FRESH_TRAIL, type JobTrail } from '@gridemu/model';
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
export interface JobRejected {
  readonly type: typeof MessageType.JobRejected;
  readonly jobId: string;
  readonly site: string;
  readonly reason: RejectReason;
}
export interface JobFailed {
  readonly type: typeof MessageType.JobFailed;
  readonly jobId: string;
  readonly time_s: number;
  /** Why, for jobs.csv's `reason` column (e.g. `retry_limit:application`). */
  readonly reason: string;
  readonly trail: JobTrail;
}
export interface SubmitDue {
  readonly type: typeof MessageType.SubmitDue;
}
export interface JobEnds {
  readonly type: typeof MessageType.JobEnds;
  readonly jobId: string;
}
/**
 * A receiving runtime's answer about the durable messages of one link, the one from the location
 * it is sent to to the location that sends it (messages numbered by their envelopes' `lseq`).
 * `upto`: it has every one numbered up to this, for good (stored, with a journal), as TCP's
 * cumulative acknowledgement: one number answers everything it stored since its last answer (it
 * answers a link at most every 10 ms). `received`: a journaled receiver has these, not yet stored
 * (the sender stops resending them on a timer); a journaled receiver's answer always carries the
 * list, empty if everything that arrived since its last answer is stored (AnswersDue). An answer
 * without a journal carries `upto` alone.
 */
export interface BusAck {
  readonly type: typeof MessageType.BusAck;
  readonly upto?: number;
  readonly received?: readonly number[];
  /**
   * The receipts go on in the next `bus.ack`: one window's were more than a list holds
   * (MAX_LIST_LENGTH). The sender takes the answers up to the last as one, as they were meant.
   */
  readonly more?: true;
  /** Which start of the receiving process answers: a later one has lost what an earlier one received and had not stored. */
  readonly boot: string;
}

/**
 * Every message by its type tag. A scheme module adds its own by augmenting this interface
 * (`declare module '@gridemu/protocol' { interface MessageCatalogue { ... } }`) and registering
 * their shapes with the validator, so `Message` grows without this file changing.
 */
export interface MessageCatalogue {
  'job.submit': JobSubmit;
  'job.started': JobStarted;
  'job.completed': JobCompleted;
  'job.rejected': JobRejected;
  'job.lost': JobLost;
  'bus.ack': BusAck;
  'job.failed': JobFailed;
  'timer.submit-due': SubmitDue;
  'timer.job-ends': JobEnds;
}

export type Message = MessageCatalogue[keyof MessageCatalogue];

/**
 * The core messages that must not be lost: a job's submission and every report the results depend
 * on. Faults never drop them, and a crashed receiver gets them when it is back (a live run carries
 * them on durable streams). A scheme module adds its own (`SchemeModule.durableMessages`); the rest
 * (gossip, claims and their answers, cancels, queries) may be lost: the protocols time out and ask
 * again (docs/faults.md).
 */
export const CORE_DURABLE_MESSAGES: readonly string[] = [
  MessageType.JobSubmit,
  MessageType.JobStarted,
  MessageType.JobCompleted,
  MessageType.JobRejected,
  MessageType.JobFailed,
  MessageType.JobLost,
];
