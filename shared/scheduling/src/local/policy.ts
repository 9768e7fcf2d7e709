import type { SchedulableJob } from '@gridemu/model';
import type { Reservation } from './reservation.js';

/** Which of a dual-queue site's queues a job waits in (paper 001 §4.2, Figure 7). */
export type QueueKind = 'local' | 'remote';

/**
 * A site's local scheduler as a step function: each event (a submission, a completion, a
 * withdrawal) updates the policy's state and returns the jobs to start now, in order. No clock,
 * no I/O: `now` comes with every event, so the same events give the same decisions.
 */
export interface LocalPolicy {
  readonly name: string;
  readonly cpus: number;
  readonly free: number;
  readonly queued: number;
  readonly running: number;
  /** A job arrives. Its processors must not exceed the site's (the site rejects those first). */
  submit(now: number, job: SchedulableJob, queue?: QueueKind): SchedulableJob[];
  /** A running job ended (at or before its estimate); its processors are free. */
  finish(now: number, jobId: string): SchedulableJob[];
  /**
   * A running job's run was lost (its site's process died): its processors are free (if
   * `processorsHeld`, the default; a run that had ended gave them back already), and it waits again
   * at the head of its queue, where it was before it started (as Slurm requeues).
   */
  requeue(now: number, job: SchedulableJob, queue?: QueueKind, processorsHeld?: boolean): SchedulableJob[];
  /** Removes a queued job (a cancelled copy); returns false if it was not queued here. */
  withdraw(now: number, jobId: string): { removed: boolean; starts: SchedulableJob[] };
  /** The reservation currently held by the queue head, if any (for tests and monitoring). */
  reservation(): Reservation | undefined;
  /**
   * When a job like this would start here if it arrived now, judged from requested times, with
   * the queued jobs placed first in queue order (the hierarchical scheme's question, paper 001
   * §2.1.2). Changes nothing.
   */
  expectedStart(now: number, job: SchedulableJob): number;
  /** Requested processor-seconds still to run or wait here, from estimates (a load measure). */
  backlog_s(now: number): number;
}
