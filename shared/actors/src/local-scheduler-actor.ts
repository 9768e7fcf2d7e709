import { transferTime_s, type Job, type SchedulableJob } from '@gridemu/model';
import {
  DRIVER, FRESH_TRAIL, LOAD_TOPIC, MessageType, siteAddress, type Address, type CopyQueue, type JobTrail, type Message,
} from '@gridemu/protocol';
import type { Actor, ActorContext } from '@gridemu/runtime';
import type { LocalPolicy } from '@gridemu/scheduling';

export interface LocalSchedulerOptions {
  /** Where job reports go (the driver). */
  readonly resultsTo?: Address;
  /** Publish this site's load on the `load` topic, every `loadPeriod_s` from `gossipFrom_s` (load gossip). */
  readonly gossip?: boolean;
  readonly loadPeriod_s?: number;
  readonly gossipFrom_s?: number;
  /** How long to hold processors waiting for an answer to a claim. */
  readonly claimTimeout_s?: number;
  /** `hold` (default): claim first, then start. `optimistic`: start, then claim; a loser is killed. */
  readonly claimMode?: 'hold' | 'optimistic';
  /** With a transfer cost, a job from another site is planned to hold its processors for its transfer too. */
  readonly transferBandwidth_mbps?: number;
}

/** A job (or a copy of one) this site knows about, and how far it has got here. */
interface Copy {
  readonly job: Job;
  readonly queue: CopyQueue;
  /** What was done to the job before it got here. */
  readonly trail: JobTrail;
  /** Sent here by a metascheduler (not submitted here by a user): running it away from its origin is a move. */
  readonly sent: boolean;
  /** Must win the job's semaphore at its origin before it may run. */
  readonly claim: boolean;
  /** claiming: holds processors, waits for the grant (hold). provisional: already running, waits for the verdict (optimistic). */
  state: 'queued' | 'claiming' | 'provisional' | 'running';
  /** A provisional copy whose job already ended at the executor. */
  ended: boolean;
  claimId: number;
  claimStart_s: number;
  /** Claims made so far; each retry waits twice as long, so a round trip longer than the timeout cannot livelock. */
  attempts: number;
}

/**
 * A site's local scheduler: keeps the jobs and copies waiting here, runs the site's policy on
 * every event, and starts what the policy picks. A copy that needs the job's semaphore keeps its
 * processors while it asks the origin (paper 001 §7, "hold"); a denial, a cancel or a timeout
 * gives them back and the policy schedules again. Jobs wider than the whole site are rejected.
 * It also publishes the site's load to the metaschedulers on a period (load gossip).
 */
export class LocalSchedulerActor implements Actor<Message> {
  private readonly copies = new Map<string, Copy>();
  /** Cancels that overtook their copy on the wire (jitter reorders messages): drop the copy when it lands. */
  private readonly cancelledBeforeArrival = new Set<string>();
  private readonly executor: Address;
  private readonly resultsTo: Address;
  private nextClaimId = 1;

  constructor(
    readonly siteId: string,
    private readonly policy: LocalPolicy,
    private readonly options: LocalSchedulerOptions = {},
  ) {
    this.executor = siteAddress(siteId, 'executor');
    this.resultsTo = options.resultsTo ?? DRIVER;
  }

  start(ctx: ActorContext<Message>): void {
    if (this.options.gossip === true) {
      ctx.schedule(Math.max(0, (this.options.gossipFrom_s ?? 0) - ctx.now()), { type: MessageType.LoadTick });
    }
  }

  /** Copies still queued or claiming here (a test checks none outlives its job's start). */
  get copiesHeld(): number {
    return this.waitingCopies().length;
  }

  /** Ids of the jobs with a copy still queued or claiming here. */
  waitingCopies(): string[] {
    const ids: string[] = [];
    for (const [id, c] of this.copies) if (c.state === 'queued' || c.state === 'claiming') ids.push(id);
    return ids;
  }

  /** Expected seconds to drain this site's running and queued work, judged from requested times. */
  load(now: number): number {
    return this.policy.backlog_s(now) / this.policy.cpus;
  }

  receive(ctx: ActorContext<Message>, msg: Message, from: Address): void {
    switch (msg.type) {
      case MessageType.JobSubmit:
        this.enqueue(ctx, msg.job, 'local', false, FRESH_TRAIL, false);
        return;
      case MessageType.JobCopy:
        this.enqueue(ctx, msg.job, msg.queue, msg.claim, msg.trail, true);
        return;
      case MessageType.JobFinished: {
        // A provisional copy stays until its verdict: the executor reports it only if it won.
        const copy = this.copies.get(msg.jobId);
        if (copy?.state === 'provisional') copy.ended = true;
        else this.copies.delete(msg.jobId);
        this.dispatch(ctx, this.policy.finish(ctx.now(), msg.jobId));
        return;
      }
      case MessageType.ClaimGrant:
        this.granted(ctx, msg.jobId, msg.claimId);
        return;
      case MessageType.ClaimDeny:
        ctx.metrics.count('claims.denied_here');
        this.drop(ctx, msg.jobId, msg.claimId);
        return;
      case MessageType.CopyCancel:
        ctx.metrics.count('copies.cancelled');
        if (!this.copies.has(msg.jobId)) this.cancelledBeforeArrival.add(msg.jobId);
        this.drop(ctx, msg.jobId, undefined);
        return;
      case MessageType.ClaimTimeout:
        this.timedOut(ctx, msg.jobId, msg.claimId);
        return;
      case MessageType.LoadTick:
        this.gossip(ctx);
        return;
      case MessageType.StartQuery:
        ctx.send(from, {
          type: MessageType.StartEstimate,
          queryId: msg.queryId,
          site: this.siteId,
          start_s: this.policy.expectedStart(ctx.now(), { id: msg.jobId, procs: msg.procs, estimate_s: msg.estimate_s }),
        });
        return;
      default:
        ctx.log.warn({ type: msg.type, site: this.siteId }, 'local scheduler ignored an unexpected message');
        ctx.metrics.count('messages.unexpected');
    }
  }

  private enqueue(ctx: ActorContext<Message>, job: Job, queue: CopyQueue, claim: boolean, trail: JobTrail, sent: boolean): void {
    if (job.procs > this.policy.cpus) {
      if (claim) {
        // A copy that can never run here just bows out; the origin still has others.
        ctx.metrics.count('copies.too_wide');
        return;
      }
      ctx.metrics.count('jobs.rejected.wider_than_site');
      ctx.send(this.resultsTo, { type: MessageType.JobRejected, jobId: job.id, site: this.siteId, reason: 'wider_than_site' });
      return;
    }
    if (claim && this.cancelledBeforeArrival.delete(job.id)) {
      ctx.metrics.count('copies.arrived_after_cancel');
      return;
    }
    if (this.copies.has(job.id)) throw new Error(`assertion: ${job.id} queued twice at ${this.siteId}`);
    this.copies.set(job.id, { job, queue, claim, trail, sent, state: 'queued', ended: false, claimId: 0, claimStart_s: 0, attempts: 0 });
    this.dispatch(ctx, this.policy.submit(ctx.now(), this.planned(job), queue));
  }

  /** The job as the policy plans it: its requested time, plus its transfer if it comes from elsewhere. */
  private planned(job: Job): SchedulableJob {
    const bandwidth = this.options.transferBandwidth_mbps;
    if (bandwidth === undefined || job.origin === this.siteId) return job;
    return { id: job.id, procs: job.procs, estimate_s: job.estimate_s + transferTime_s(job, bandwidth) };
  }

  /** The policy started these: run them, or first claim the semaphore for copies that need it. */
  private dispatch(ctx: ActorContext<Message>, starts: readonly { id: string }[]): void {
    for (const s of starts) {
      const copy = this.copies.get(s.id);
      if (!copy || copy.state !== 'queued') throw new Error(`assertion: policy at ${this.siteId} started ${s.id}, which is not waiting here`);
      if (!copy.claim) {
        this.run(ctx, copy);
        continue;
      }
      copy.claimStart_s = ctx.now();
      if (this.options.claimMode === 'optimistic') {
        copy.state = 'provisional';
        ctx.send(this.executor, { type: MessageType.JobStart, job: copy.job, trail: this.trailHere(copy), provisional: true });
      } else {
        copy.state = 'claiming';
      }
      this.sendClaim(ctx, copy);
    }
  }

  private sendClaim(ctx: ActorContext<Message>, copy: Copy): void {
    copy.claimId = this.nextClaimId++;
    copy.attempts++;
    ctx.metrics.count('claims.sent');
    ctx.send(siteAddress(copy.job.origin, 'meta'), { type: MessageType.ClaimRequest, jobId: copy.job.id, site: this.siteId, claimId: copy.claimId });
    const timeout_s = (this.options.claimTimeout_s ?? 5) * 2 ** (copy.attempts - 1);
    ctx.schedule(timeout_s, { type: MessageType.ClaimTimeout, jobId: copy.job.id, claimId: copy.claimId });
  }

  private run(ctx: ActorContext<Message>, copy: Copy): void {
    copy.state = 'running';
    ctx.send(this.executor, { type: MessageType.JobStart, job: copy.job, trail: this.trailHere(copy) });
  }

  /** The job's trail as it starts here: one more move if a metascheduler sent it away from its origin. */
  private trailHere(copy: Copy): JobTrail {
    const moved = copy.sent && copy.job.origin !== this.siteId;
    return moved ? { ...copy.trail, migrations: copy.trail.migrations + 1 } : copy.trail;
  }

  private granted(ctx: ActorContext<Message>, jobId: string, claimId: number): void {
    const copy = this.copies.get(jobId);
    if (copy?.state === 'provisional') {
      // Optimistic: any grant is ours (the origin never takes it back); the job counts from its start.
      ctx.metrics.count('optimistic.confirmed');
      ctx.send(this.executor, { type: MessageType.JobConfirm, jobId });
      if (copy.ended) this.copies.delete(jobId);
      else copy.state = 'running';
      return;
    }
    if (copy?.state === 'claiming' && copy.claimId === claimId) {
      this.noteHeld(ctx, copy);
      this.run(ctx, copy);
      return;
    }
    // A grant for a claim we stopped waiting for: the semaphore stays ours, and the copy (queued
    // again, or claiming anew) will be granted again when it next claims.
    ctx.metrics.count('claims.late_grants');
  }

  /** Drops a copy after a denial (of `claimId`) or a cancel (any state but running). */
  private drop(ctx: ActorContext<Message>, jobId: string, claimId: number | undefined): void {
    const copy = this.copies.get(jobId);
    if (!copy || copy.state === 'running') return;
    if (claimId !== undefined && copy.state === 'claiming' && copy.claimId !== claimId) return;
    this.copies.delete(jobId);
    if (copy.state === 'provisional') {
      // Optimistic loser: stop it (the executor gives the processors back through job.finished).
      ctx.send(this.executor, { type: MessageType.JobKill, jobId });
      return;
    }
    if (copy.state === 'claiming') {
      this.noteHeld(ctx, copy);
      this.dispatch(ctx, this.policy.finish(ctx.now(), jobId));
    } else {
      this.dispatch(ctx, this.policy.withdraw(ctx.now(), jobId).starts);
    }
  }

  /** No answer in time: give the processors back and queue the copy again, to claim later. */
  private timedOut(ctx: ActorContext<Message>, jobId: string, claimId: number): void {
    const copy = this.copies.get(jobId);
    if (copy?.state === 'provisional' && copy.claimId === claimId) {
      // Already running: just ask again (the origin re-grants a holder).
      ctx.metrics.count('claims.timed_out');
      this.sendClaim(ctx, copy);
      return;
    }
    if (copy?.state !== 'claiming' || copy.claimId !== claimId) return;
    ctx.metrics.count('claims.timed_out');
    this.noteHeld(ctx, copy);
    copy.state = 'queued';
    const freed = this.policy.finish(ctx.now(), jobId);
    const requeued = this.policy.submit(ctx.now(), this.planned(copy.job), copy.queue);
    this.dispatch(ctx, [...freed, ...requeued]);
  }

  /** Processor-seconds held while waiting for the origin's answer. */
  private noteHeld(ctx: ActorContext<Message>, copy: Copy): void {
    ctx.metrics.count('claims.held_processor_s', copy.job.procs * (ctx.now() - copy.claimStart_s));
  }

  private gossip(ctx: ActorContext<Message>): void {
    const report = { type: MessageType.LoadReport, site: this.siteId, load: this.load(ctx.now()), time_s: ctx.now() } as const;
    ctx.publish(LOAD_TOPIC, report);
    ctx.schedule(this.options.loadPeriod_s ?? 60, { type: MessageType.LoadTick });
  }
}
