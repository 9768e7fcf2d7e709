import type { SchedulableJob } from '@gridemu/model';
import { JobQueue } from './job-queue.js';
import type { LocalPolicy, QueueKind } from './policy.js';
import type { Reservation } from './reservation.js';
import { Processors } from './running-jobs.js';
import { AvailabilityProfile } from './availability-profile.js';

/**
 * What every local policy shares: the processors, the queues, and the rule that the policy runs
 * one scheduling pass after every event (as pyss and the paper's simulator do). Subclasses say
 * only how a pass picks jobs.
 */
export abstract class BasePolicy implements LocalPolicy {
  abstract readonly name: string;
  protected readonly cpusInUse: Processors;
  protected readonly localQueue = new JobQueue();
  protected readonly remoteQueue = new JobQueue();
  protected headReservation: Reservation | undefined;
  /** Whether remote jobs wait in a queue of their own (dual-queue EASY, paper 001 Figure 7). */
  protected readonly hasRemoteQueue: boolean = false;

  constructor(readonly cpus: number) {
    if (!Number.isInteger(cpus) || cpus < 1)
      throw new Error(`assertion: a site needs a positive number of processors, got ${cpus}`);
    this.cpusInUse = new Processors(cpus);
  }

  get free(): number {
    return this.cpusInUse.free;
  }

  get queued(): number {
    return this.localQueue.size + this.remoteQueue.size;
  }

  get running(): number {
    return this.cpusInUse.runningCount;
  }

  submit(now: number, job: SchedulableJob, queue: QueueKind = 'local'): SchedulableJob[] {
    if (job.procs < 1 || job.procs > this.cpus) {
      throw new Error(`assertion: ${job.id} needs ${job.procs} processors; this site has ${this.cpus}`);
    }
    // Only a dual-queue policy keeps remote jobs apart; for FCFS and EASY every job is an arrival.
    (queue === 'remote' && this.hasRemoteQueue ? this.remoteQueue : this.localQueue).push(job);
    return this.pass(now);
  }

  finish(now: number, jobId: string): SchedulableJob[] {
    this.cpusInUse.release(jobId);
    return this.pass(now);
  }

  requeue(now: number, job: SchedulableJob, queue: QueueKind = 'local', processorsHeld = true): SchedulableJob[] {
    if (processorsHeld) this.cpusInUse.release(job.id);
    (queue === 'remote' && this.hasRemoteQueue ? this.remoteQueue : this.localQueue).unshift(job);
    return this.pass(now);
  }

  withdraw(now: number, jobId: string): { removed: boolean; starts: SchedulableJob[] } {
    const removed = this.localQueue.remove(jobId) + this.remoteQueue.remove(jobId);
    return { removed: removed > 0, starts: removed > 0 ? this.pass(now) : [] };
  }

  reservation(): Reservation | undefined {
    return this.headReservation;
  }

  expectedStart(now: number, job: SchedulableJob): number {
    const profile = new AvailabilityProfile(now, this.cpusInUse.free, this.cpusInUse.running());
    for (const queue of [this.localQueue, this.remoteQueue]) {
      for (const q of queue) profile.reserve(profile.earliestStart(q.procs, q.estimate_s), q.procs, q.estimate_s);
    }
    return profile.earliestStart(job.procs, job.estimate_s);
  }

  backlog_s(now: number): number {
    let work = 0;
    for (const r of this.cpusInUse.running()) work += r.procs * Math.max(0, r.end_s - now);
    return this.remoteQueue.addWork(this.localQueue.addWork(work));
  }

  /** One scheduling pass; returns the jobs it started, in start order. */
  protected abstract pass(now: number): SchedulableJob[];

  protected start(now: number, job: SchedulableJob, started: SchedulableJob[]): void {
    this.cpusInUse.allocate({ id: job.id, procs: job.procs, end_s: now + job.estimate_s });
    started.push(job);
  }

  /** Starts queue heads in FCFS order while the head fits. */
  protected startHeads(now: number, queue: JobQueue, started: SchedulableJob[]): void {
    for (let head = queue.peek(); head !== undefined && head.procs <= this.cpusInUse.free; head = queue.peek()) {
      queue.shift();
      this.start(now, head, started);
    }
  }
}
