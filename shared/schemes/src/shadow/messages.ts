import type { Job } from '@gridemu/model';
import type { FieldCheck, MessageShapes } from '@gridemu/protocol';

/** Router → resource: run this task (its estimated length travels with it). */
export interface SrTask {
  readonly type: 'sr.task';
  readonly job: Job;
  readonly Lhat: number;
}
/** Router → resource: your state, please: `completion` for MCT (when would a task of L̂ finish here), `queue` for JSQ*. */
export interface SrQuery {
  readonly type: 'sr.query';
  readonly queryId: number;
  readonly kind: string;
  readonly Lhat: number;
}
/** Resource → router: the answer, in emulated seconds (completion) or tasks (queue). */
export interface SrAnswer {
  readonly type: 'sr.answer';
  readonly queryId: number;
  readonly site: string;
  readonly value: number;
}
/** Resource → router: a task's output, sent through the resource's link when the task ended at `ended_s`. */
export interface SrOutput {
  readonly type: 'sr.output';
  readonly jobId: string;
  readonly site: string;
  readonly bytes: number;
  readonly ended_s: number;
}
/** Router timers: a message leaves its link; a round's answers are all in through the link; a round gives up waiting. */
export interface SrSend {
  readonly type: 'timer.sr-send';
  readonly slot: number;
}
export interface SrDecide {
  readonly type: 'timer.sr-decide';
  readonly round: number;
}
export interface SrTimeout {
  readonly type: 'timer.sr-timeout';
  readonly round: number;
}
/** Resource timer: the running task ends. */
export interface SrTaskEnds {
  readonly type: 'timer.sr-task-ends';
  readonly jobId: string;
}

declare module '@gridemu/protocol' {
  interface MessageCatalogue {
    'sr.task': SrTask;
    'sr.query': SrQuery;
    'sr.answer': SrAnswer;
    'sr.output': SrOutput;
    'timer.sr-send': SrSend;
    'timer.sr-decide': SrDecide;
    'timer.sr-timeout': SrTimeout;
    'timer.sr-task-ends': SrTaskEnds;
  }
}

const nonNegative: FieldCheck = (v) =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? undefined : 'must be a non-negative number';
const kind: FieldCheck = (v) => (v === 'completion' || v === 'queue' ? undefined : 'must be "completion" or "queue"');

export const SHADOW_MESSAGES: MessageShapes = {
  'sr.task': { job: 'job', Lhat: nonNegative },
  'sr.query': { queryId: 'count', kind, Lhat: nonNegative },
  'sr.answer': { queryId: 'count', site: 'string', value: nonNegative },
  'sr.output': { jobId: 'string', site: 'string', bytes: nonNegative, ended_s: 'number' },
  'timer.sr-send': { slot: 'count' },
  'timer.sr-decide': { round: 'count' },
  'timer.sr-timeout': { round: 'count' },
  'timer.sr-task-ends': { jobId: 'string' },
};

/**
 * Paper 004's messages that must not be lost: a task on its way to its resource, and its output on
 * the way back (the user has the result only then: the flowtime counts until it is in). The state
 * queries and their answers may be lost: a round gives up on them after `query_timeout_s` and
 * decides with the answers it has, as it does for a slow resource.
 */
export const SHADOW_DURABLE: readonly string[] = ['sr.task', 'sr.output'];
