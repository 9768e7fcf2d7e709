import type { Job, JobTrail } from '@gridemu/model';
import type { QueueKind } from '@gridemu/scheduling';

/**
 * `hold` (paper 001 §7): a copy the local policy starts keeps its processors and asks the origin
 * for the job's semaphore; it runs once granted. `optimistic`: it runs at once and asks; a loser
 * is killed.
 */
export const CLAIM_MODES = ['hold', 'optimistic'] as const;
export type ClaimMode = (typeof CLAIM_MODES)[number];

export interface ClaimProtocolOptions {
  readonly site: string;
  readonly cpus: number;
  /** How long to hold processors waiting for the origin's answer; each retry waits twice as long. */
  readonly claimTimeout_s: number;
  readonly mode: ClaimMode;
}

/** What happens at a site, as the claim protocol sees it. */
export type ClaimEvent =
  /** A job or a copy arrives: submitted here by a user (`sent` false) or sent by a metascheduler. */
  | {
      readonly kind: 'arrived';
      readonly job: Job;
      readonly queue: QueueKind;
      readonly claim: boolean;
      readonly trail: JobTrail;
      readonly sent: boolean;
    }
  /** The local policy started this job now (its processors are taken in the policy). */
  | { readonly kind: 'policy-started'; readonly jobId: string }
  /** The executor gave the job's processors back. */
  | { readonly kind: 'finished'; readonly jobId: string }
  /**
   * The origin's answers. `by` is the site whose metascheduler sent it: an answer that
   * does not come from the job's origin is counted and ignored. Without `by` (unit tests of the
   * protocol alone) the sender is not checked.
   */
  | { readonly kind: 'grant'; readonly jobId: string; readonly claimId: number; readonly by?: string }
  | { readonly kind: 'deny'; readonly jobId: string; readonly claimId: number; readonly by?: string }
  /** The origin cancels this site's copy: another copy has the job, granted at `granted_s`. */
  | { readonly kind: 'cancel'; readonly jobId: string; readonly by?: string; readonly granted_s?: number }
  | { readonly kind: 'timeout'; readonly jobId: string; readonly claimId: number }
  /** The job's run here died with the site's process: it runs again from the start. */
  | { readonly kind: 'lost'; readonly jobId: string };

/** What the site must do; the actor carries these out in order. */
export type ClaimDecision =
  /** Put the job in the local policy's queue (the policy may start it at once). */
  | { readonly kind: 'enqueue'; readonly job: Job; readonly queue: QueueKind }
  /** Its run was lost: free its processors (unless they were already) and queue it at the head again. */
  | { readonly kind: 'requeue'; readonly job: Job; readonly queue: QueueKind; readonly processorsHeld: boolean }
  /** Give the job's processors back to the local policy (a claim that failed or timed out). */
  | { readonly kind: 'release'; readonly jobId: string }
  /** Take a queued copy out of the local policy's queue. */
  | { readonly kind: 'withdraw'; readonly jobId: string }
  /** Start the job on the executor; a provisional start reports nothing until confirmed. */
  | { readonly kind: 'run'; readonly job: Job; readonly trail: JobTrail; readonly provisional: boolean }
  /** Ask the origin for the job's semaphore, and set a timer for the answer. */
  | {
      readonly kind: 'claim';
      readonly jobId: string;
      readonly origin: string;
      readonly claimId: number;
      readonly timeout_s: number;
    }
  | { readonly kind: 'confirm'; readonly jobId: string }
  | { readonly kind: 'kill'; readonly jobId: string }
  /** The job can never run here, and there is no other copy: tell the results collector. */
  | { readonly kind: 'reject'; readonly jobId: string; readonly reason: 'wider_than_site' }
  | { readonly kind: 'count'; readonly name: string; readonly by: number }
  /** A distribution's value (the live runtime exports it as a Prometheus histogram). */
  | { readonly kind: 'observe'; readonly name: string; readonly value: number };

/** A job (or a copy of one) this site knows about, and how far it has got here. */
interface Copy {
  readonly job: Job;
  readonly queue: QueueKind;
  /** Must win the job's semaphore at its origin before it may run (false again once it has won it). */
  claim: boolean;
  readonly trail: JobTrail;
  readonly sent: boolean;
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
 * The site side of paper 001's claim protocol (§4, §7) as a step function: it takes an event and
 * returns decisions, with no clock but `now` and no I/O, so it is tested with hand-built events.
 * It keeps every copy's state: queued, claiming (holding processors for the grant), provisional
 * (running before the verdict, optimistic mode) or running. A denial, a cancel or a timeout gives
 * held processors back; a cancel that overtakes its copy on the wire drops the copy when it lands;
 * a grant for a claim no longer waited for makes the copy the job's holder, so it runs without
 * claiming again (the origin re-grants its holder).
 */
export class ClaimProtocol {
  private readonly copies = new Map<string, Copy>();
  /**
   * Cancels that overtook their copy on the wire (jitter reorders messages): drop the copy when it
   * lands, if the cancel came from its origin. The value is the sender (undefined: not checked).
   */
  private readonly cancelledBeforeArrival = new Map<string, string | undefined>();
  private nextClaimId = 1;

  constructor(private readonly options: ClaimProtocolOptions) {}

  /** Ids of the jobs with a copy still queued or claiming here. */
  waitingCopies(): string[] {
    const ids: string[] = [];
    for (const [id, c] of this.copies) if (c.state === 'queued' || c.state === 'claiming') ids.push(id);
    return ids;
  }

  handle(now: number, event: ClaimEvent): ClaimDecision[] {
    if (
      (event.kind === 'grant' || event.kind === 'deny' || event.kind === 'cancel') &&
      !this.fromOrigin(event.jobId, event.by)
    ) {
      return [count('claims.not_from_origin')];
    }
    switch (event.kind) {
      case 'arrived':
        return this.arrived(event);
      case 'policy-started':
        return this.started(now, event.jobId);
      case 'finished': {
        // A provisional copy stays until its verdict: the executor reports it only if it won.
        const copy = this.copies.get(event.jobId);
        if (copy?.state === 'provisional') copy.ended = true;
        else this.copies.delete(event.jobId);
        return [{ kind: 'release', jobId: event.jobId }];
      }
      case 'grant':
        return this.granted(now, event.jobId, event.claimId);
      case 'deny':
        return [count('claims.denied_here'), ...this.drop(now, event.jobId, event.claimId)];
      case 'cancel': {
        if (!this.copies.has(event.jobId)) this.cancelledBeforeArrival.set(event.jobId, event.by);
        const dropped = this.drop(now, event.jobId, undefined);
        // The cancel delay: how long a losing copy stayed here after its job was granted elsewhere.
        const delay: ClaimDecision[] =
          dropped.length > 0 && event.granted_s !== undefined
            ? [{ kind: 'observe', name: 'copies.cancel_delay_s', value: Math.max(0, now - event.granted_s) }]
            : [];
        return [count('copies.cancelled'), ...dropped, ...delay];
      }
      case 'timeout':
        return this.timedOut(now, event.jobId, event.claimId);
      case 'lost':
        return this.lost(event.jobId);
    }
  }

  /** Whether an answer about `jobId` from `by` may be acted on: only the job's origin answers for it. */
  private fromOrigin(jobId: string, by: string | undefined): boolean {
    if (by === undefined) return true;
    const copy = this.copies.get(jobId);
    // An unknown copy: a cancel is checked when its copy lands; a grant or denial changes nothing anyway.
    return copy === undefined || copy.job.origin === by;
  }

  /**
   * A run lost in a crash goes back to the queue. A copy that won the semaphore keeps it (the
   * origin's semaphore is durable) and runs again without claiming; a provisional one still
   * awaits its verdict and claims again when it next starts (the origin re-grants a holder).
   */
  private lost(jobId: string): ClaimDecision[] {
    const copy = this.copies.get(jobId);
    if (copy?.state !== 'running' && copy?.state !== 'provisional')
      throw new Error(`assertion: ${jobId} lost at ${this.options.site}, where it was not running`);
    const processorsHeld = !copy.ended;
    if (copy.state === 'running') copy.claim = false;
    copy.state = 'queued';
    copy.ended = false;
    copy.attempts = 0;
    return [count('jobs.restarted'), { kind: 'requeue', job: copy.job, queue: copy.queue, processorsHeld }];
  }

  private arrived(e: Extract<ClaimEvent, { kind: 'arrived' }>): ClaimDecision[] {
    const { job } = e;
    if (job.procs > this.options.cpus) {
      // A copy that can never run here just bows out; the origin still has others.
      if (e.claim) return [count('copies.too_wide')];
      return [count('jobs.rejected.wider_than_site'), { kind: 'reject', jobId: job.id, reason: 'wider_than_site' }];
    }
    if (e.claim && this.cancelledBeforeArrival.has(job.id)) {
      const by = this.cancelledBeforeArrival.get(job.id);
      this.cancelledBeforeArrival.delete(job.id);
      if (by === undefined || by === job.origin) return [count('copies.arrived_after_cancel')];
      // A cancel from anyone but the origin never counted: the copy stays.
      return [count('claims.not_from_origin'), ...this.arrived(e)];
    }
    if (this.copies.has(job.id)) throw new Error(`assertion: ${job.id} queued twice at ${this.options.site}`);
    this.copies.set(job.id, {
      job,
      queue: e.queue,
      claim: e.claim,
      trail: e.trail,
      sent: e.sent,
      state: 'queued',
      ended: false,
      claimId: 0,
      claimStart_s: 0,
      attempts: 0,
    });
    return [{ kind: 'enqueue', job, queue: e.queue }];
  }

  /** The local policy started this copy: run it, or first claim the semaphore if it needs it. */
  private started(now: number, jobId: string): ClaimDecision[] {
    const copy = this.copies.get(jobId);
    if (!copy || copy.state !== 'queued')
      throw new Error(`assertion: policy at ${this.options.site} started ${jobId}, which is not waiting here`);
    if (!copy.claim) {
      copy.state = 'running';
      return [this.run(copy, false)];
    }
    copy.claimStart_s = now;
    if (this.options.mode === 'optimistic') {
      copy.state = 'provisional';
      return [this.run(copy, true), ...this.claim(copy)];
    }
    copy.state = 'claiming';
    return this.claim(copy);
  }

  private claim(copy: Copy): ClaimDecision[] {
    copy.claimId = this.nextClaimId++;
    copy.attempts++;
    // Bug 3 of paper 001's property tests: with a fixed timeout, a round trip longer than it
    // livelocked; doubling on each retry lets the answer arrive eventually.
    const timeout_s = this.options.claimTimeout_s * 2 ** (copy.attempts - 1);
    return [
      count('claims.sent'),
      { kind: 'claim', jobId: copy.job.id, origin: copy.job.origin, claimId: copy.claimId, timeout_s },
    ];
  }

  private run(copy: Copy, provisional: boolean): ClaimDecision {
    // Moving a job that a metascheduler sent here away from its origin is one move.
    const moved = copy.sent && copy.job.origin !== this.options.site;
    const trail = moved ? { ...copy.trail, migrations: copy.trail.migrations + 1 } : copy.trail;
    return { kind: 'run', job: copy.job, trail, provisional };
  }

  private granted(now: number, jobId: string, claimId: number): ClaimDecision[] {
    const copy = this.copies.get(jobId);
    if (copy?.state === 'provisional') {
      // Optimistic: any grant is ours (the origin never takes it back); the job counts from its start.
      if (copy.ended) this.copies.delete(jobId);
      else copy.state = 'running';
      return [count('optimistic.confirmed'), { kind: 'confirm', jobId }];
    }
    if (copy?.state === 'claiming' && copy.claimId === claimId) {
      copy.state = 'running';
      return [this.held(now, copy), this.run(copy, false)];
    }
    // Bug 1: a grant for a claim we stopped waiting for. Acting on that claim could run the job on
    // processors since given to another. But the semaphore is this site's for good (the origin
    // re-grants its holder and denies every other site: JobSemaphore), so the copy need not ask
    // again: claiming anew, it runs on the processors it holds now; queued again, it runs as soon as
    // its policy starts it. Asking again would cost a round trip, which under load times out too.
    if (copy?.claim && copy.state === 'claiming') {
      copy.claim = false;
      copy.state = 'running';
      return [count('claims.late_grants'), this.held(now, copy), this.run(copy, false)];
    }
    if (copy?.claim && copy.state === 'queued') copy.claim = false;
    return [count('claims.late_grants')];
  }

  /** Drops a copy after a denial (of `claimId`) or a cancel (any state but running). */
  private drop(now: number, jobId: string, claimId: number | undefined): ClaimDecision[] {
    const copy = this.copies.get(jobId);
    if (!copy || copy.state === 'running') return [];
    // A denial of an earlier claim of a copy that is claiming anew says nothing about the new claim.
    if (claimId !== undefined && copy.state === 'claiming' && copy.claimId !== claimId) return [];
    this.copies.delete(jobId);
    // Optimistic loser: stop it (the executor gives the processors back through job.finished).
    if (copy.state === 'provisional') return [{ kind: 'kill', jobId }];
    if (copy.state === 'claiming') return [this.held(now, copy), { kind: 'release', jobId }];
    return [{ kind: 'withdraw', jobId }];
  }

  /** No answer in time: give the processors back and queue the copy again, to claim later. */
  private timedOut(now: number, jobId: string, claimId: number): ClaimDecision[] {
    const copy = this.copies.get(jobId);
    if (copy?.state === 'provisional' && copy.claimId === claimId) {
      // Already running: just ask again (the origin re-grants a holder).
      return [count('claims.timed_out'), ...this.claim(copy)];
    }
    if (copy?.state !== 'claiming' || copy.claimId !== claimId) return [];
    copy.state = 'queued';
    return [
      count('claims.timed_out'),
      this.held(now, copy),
      { kind: 'release', jobId },
      { kind: 'enqueue', job: copy.job, queue: copy.queue },
    ];
  }

  /** Processor-seconds held while waiting for the origin's answer. */
  private held(now: number, copy: Copy): ClaimDecision {
    return count('claims.held_processor_s', copy.job.procs * (now - copy.claimStart_s));
  }
}

function count(name: string, by = 1): ClaimDecision {
  return { kind: 'count', name, by };
}
