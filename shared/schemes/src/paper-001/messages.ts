import type { Job, JobTrail } from '@gridemu/model';
import type { FieldCheck, MessageShapes } from '@gridemu/protocol';

/**
 * Paper 001's site protocol: a site's local scheduler and executor, copies of a job sent to K
 * sites, the claims on a job's semaphore at its origin (§7), load gossip and the hierarchical
 * scheme's start-time queries.
 */
export const Paper001MessageType = {
  /** Local scheduler → executor of the same site: start this job now on these processors. */
  JobStart: 'job.start',
  /** Executor → local scheduler of the same site: the job's processors are free again. */
  JobFinished: 'job.finished',
  /** Metascheduler → a site's local scheduler: queue a copy of a job that originated elsewhere (or here). */
  JobCopy: 'job.copy',
  /** Local scheduler → origin metascheduler: a copy is about to start here; may it? (§7, the job's semaphore) */
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
  /** Hierarchical metascheduler → site scheduler: when would this job start with you? */
  StartQuery: 'start.query',
  /** Site scheduler → hierarchical metascheduler: the answer to a StartQuery. */
  StartEstimate: 'start.estimate',
  /** Hierarchical metascheduler timer: a query round has waited long enough. */
  QueryTimeout: 'timer.query-timeout',
} as const;

export interface JobStart {
  readonly type: typeof Paper001MessageType.JobStart;
  readonly job: Job;
  readonly trail: JobTrail;
  /** Started before its claim was granted (optimistic): report nothing until confirmed. */
  readonly provisional?: boolean;
}
export interface JobConfirm {
  readonly type: typeof Paper001MessageType.JobConfirm;
  readonly jobId: string;
}
export interface JobKill {
  readonly type: typeof Paper001MessageType.JobKill;
  readonly jobId: string;
}
export interface JobFinished {
  readonly type: typeof Paper001MessageType.JobFinished;
  readonly jobId: string;
}

/** Which of a dual-queue site's queues a copy waits in (§4.2). */
export type CopyQueue = 'local' | 'remote';

export interface JobCopy {
  readonly type: typeof Paper001MessageType.JobCopy;
  readonly job: Job;
  readonly queue: CopyQueue;
  /** Whether the site must win the job's semaphore at its origin before starting it. */
  readonly claim: boolean;
  readonly trail: JobTrail;
}
export interface ClaimRequest {
  readonly type: typeof Paper001MessageType.ClaimRequest;
  readonly jobId: string;
  readonly site: string;
  readonly claimId: number;
}
export interface ClaimGrant {
  readonly type: typeof Paper001MessageType.ClaimGrant;
  readonly jobId: string;
  readonly claimId: number;
}
export interface ClaimDeny {
  readonly type: typeof Paper001MessageType.ClaimDeny;
  readonly jobId: string;
  readonly claimId: number;
}
export interface CopyCancel {
  readonly type: typeof Paper001MessageType.CopyCancel;
  readonly jobId: string;
  /** When the origin granted the job to another copy: the receiver measures the cancel delay from it. */
  readonly granted_s: number;
}
export interface LoadReport {
  readonly type: typeof Paper001MessageType.LoadReport;
  readonly site: string;
  /** Expected seconds to drain the site's running and queued work, from requested times (docs/metascheduling.md). */
  readonly load: number;
  readonly time_s: number;
  /** Its free processors and queued jobs then (what an external policy is told; docs/external.md). */
  readonly free?: number;
  readonly queued?: number;
}
export interface LoadTick {
  readonly type: typeof Paper001MessageType.LoadTick;
}
export interface ClaimTimeout {
  readonly type: typeof Paper001MessageType.ClaimTimeout;
  readonly jobId: string;
  readonly claimId: number;
}
export interface StartQuery {
  readonly type: typeof Paper001MessageType.StartQuery;
  readonly queryId: number;
  readonly jobId: string;
  readonly procs: number;
  readonly estimate_s: number;
}
export interface StartEstimate {
  readonly type: typeof Paper001MessageType.StartEstimate;
  readonly queryId: number;
  readonly site: string;
  readonly start_s: number;
}
export interface QueryTimeout {
  readonly type: typeof Paper001MessageType.QueryTimeout;
  readonly queryId: number;
}

declare module '@gridemu/protocol' {
  interface MessageCatalogue {
    'job.start': JobStart;
    'job.finished': JobFinished;
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
    'timer.query-timeout': QueryTimeout;
  }
}

const optionalCount: FieldCheck = (v) =>
  v === undefined || (typeof v === 'number' && Number.isInteger(v) && v >= 0)
    ? undefined
    : 'must be a non-negative integer when present';
const copyQueue: FieldCheck = (v) => (v === 'local' || v === 'remote' ? undefined : 'must be "local" or "remote"');

/** The shapes of paper 001's messages, for the bus's validator. */
export const PAPER_001_MESSAGES: MessageShapes = {
  [Paper001MessageType.JobStart]: { job: 'job', trail: 'trail', provisional: 'optional-boolean' },
  [Paper001MessageType.JobFinished]: { jobId: 'string' },
  [Paper001MessageType.JobCopy]: { job: 'job', queue: copyQueue, claim: 'boolean', trail: 'trail' },
  [Paper001MessageType.ClaimRequest]: { jobId: 'string', site: 'string', claimId: 'count' },
  [Paper001MessageType.ClaimGrant]: { jobId: 'string', claimId: 'count' },
  [Paper001MessageType.ClaimDeny]: { jobId: 'string', claimId: 'count' },
  [Paper001MessageType.CopyCancel]: { jobId: 'string', granted_s: 'number' },
  [Paper001MessageType.LoadReport]: {
    site: 'string',
    load: 'number',
    time_s: 'number',
    free: optionalCount,
    queued: optionalCount,
  },
  [Paper001MessageType.LoadTick]: {},
  [Paper001MessageType.ClaimTimeout]: { jobId: 'string', claimId: 'count' },
  [Paper001MessageType.StartQuery]: { queryId: 'count', jobId: 'string', procs: 'count', estimate_s: 'number' },
  [Paper001MessageType.StartEstimate]: { queryId: 'count', site: 'string', start_s: 'number' },
  [Paper001MessageType.JobConfirm]: { jobId: 'string' },
  [Paper001MessageType.JobKill]: { jobId: 'string' },
  [Paper001MessageType.QueryTimeout]: { queryId: 'count' },
};

/**
 * Paper 001's messages that must not be lost: a job's copies, and the start and finish a site's
 * scheduler and executor exchange (within a site they never cross a link; the central scheme
 * sends them between processes).
 */
export const PAPER_001_DURABLE: readonly string[] = [
  Paper001MessageType.JobCopy,
  Paper001MessageType.JobStart,
  Paper001MessageType.JobFinished,
];
