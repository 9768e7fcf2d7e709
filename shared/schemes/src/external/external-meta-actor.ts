import type { Job } from '@gridemu/model';
import { FRESH_TRAIL, MessageType, siteAddress, DRIVER, type Message } from '@gridemu/protocol';
import type { ActorContext } from '@gridemu/runtime';
import { MetaschedulerActor } from '../paper-001/metascheduler-actor.js';
import type { ClaimVerdict, JobSemaphore } from '../paper-001/job-semaphore.js';
import { Paper001MessageType, type LoadReport } from '../paper-001/messages.js';
import {
  PROTOCOL_VERSION,
  readAnswer,
  type AnswerContext,
  type HeardLoad,
  type PolicyAction,
  type PolicyJob,
  type PolicyRequest,
} from './policy-protocol.js';

/** Asks the policy: one request, its answer (a PolicyProcess, the user's program, in both runtimes). */
export interface PolicyChannel {
  ask(request: PolicyRequest): unknown;
  /** The error to raise for something wrong with the last answer (names the policy and its location). */
  error(what: string): Error;
  /** Requests asked so far: the last answer is this line of the policy's output. */
  readonly line: number;
}

/**
 * A site's metascheduler whose choices an external policy makes (docs/external.md). It is paper
 * 001's metascheduler in everything else: it hears the sites' load gossip, and it keeps the
 * semaphore of a job the policy sent as several copies, granting the first copy's claim (or, with
 * `claims: policy`, the one the policy grants) and cancelling the others (§7). The policy sees what
 * this location knows: the job, the loads heard with each site's free processors, queued jobs and
 * age, the time. A job another site's policy offers here is this policy's to decide.
 */
export class ExternalMetaschedulerActor extends MetaschedulerActor {
  private readonly siteCpus: ReadonlyMap<string, number>;
  /** The one central policy (its location is no site's): no copies, no offers. */
  private readonly central: boolean;
  /** The claim being answered now was the policy's (claimVerdict), so it is not told again. */
  private policyDecided = false;
  /** Each site's free processors and queued jobs, from its last load report. */
  private readonly state = new Map<string, { readonly free: number; readonly queued: number }>();

  constructor(
    siteId: string,
    sites: readonly { readonly id: string; readonly cpus: number }[],
    private readonly policy: PolicyChannel,
    /** `policy`: a copy's claim is the policy's to grant or deny (docs/external.md). */
    private readonly claims: 'origin' | 'policy' = 'origin',
  ) {
    super(siteId, { scheme: 'distributed', k: 1, sites });
    this.siteCpus = new Map(sites.map((s) => [s.id, s.cpus]));
    this.central = !this.siteCpus.has(siteId);
  }

  start(ctx: ActorContext<Message>): void {
    this.act(
      ctx,
      {
        v: PROTOCOL_VERSION,
        type: 'hello',
        time: ctx.now(),
        location: this.siteId,
        sites: this.options.sites.map((s) => ({ id: s.id, cpus: s.cpus })),
      },
      undefined,
    );
  }

  override receive(ctx: ActorContext<Message>, msg: Message, from: string): void {
    if (msg.type === 'external.offer') {
      const t = ctx.now();
      this.act(
        ctx,
        {
          v: PROTOCOL_VERSION,
          type: 'offer',
          time: t,
          location: this.siteId,
          job: policyJob(msg.job),
          from: msg.from,
          loads: this.heardLoads(ctx),
        },
        msg.job,
      );
      return;
    }
    if (msg.type === 'timer.external') {
      const name = msg.name;
      const t = ctx.now();
      this.act(
        ctx,
        { v: PROTOCOL_VERSION, type: 'timer', time: t, location: this.siteId, name, loads: this.heardLoads(ctx) },
        undefined,
      );
      return;
    }
    super.receive(ctx, msg, from);
  }

  protected override route(ctx: ActorContext<Message>, job: Job): void {
    const asked = policyJob(job);
    const t = ctx.now();
    this.act(
      ctx,
      { v: PROTOCOL_VERSION, type: 'submit', time: t, location: this.siteId, job: asked, loads: this.heardLoads(ctx) },
      job,
    );
  }

  /**
   * With `claims: policy`, the first claims of a job's copies are the policy's to answer. The
   * semaphore's guarantees stay gridemu's: a holder is re-granted and every other copy denied
   * without asking, a withdrawn copy is denied, and the last copy left may not be denied.
   */
  protected override claimVerdict(
    ctx: ActorContext<Message>,
    jobId: string,
    site: string,
    sem: JobSemaphore | undefined,
  ): ClaimVerdict {
    if (this.claims !== 'policy' || !sem || sem.heldBy !== undefined || !sem.copies.includes(site))
      return super.claimVerdict(ctx, jobId, site, sem);
    this.policyDecided = true;
    const t = ctx.now();
    const request: PolicyRequest = {
      v: PROTOCOL_VERSION,
      type: 'claim',
      time: t,
      location: this.siteId,
      job: jobId,
      site,
      copies: [...sem.copies],
    };
    const read = readAnswer(this.policy.ask(request), {
      sites: this.siteCpus,
      location: this.siteId,
      claim: { job: jobId, site },
    });
    if ('problem' in read)
      throw this.policy.error(
        `answered request ${this.policy.line} (a claim) with line ${this.policy.line} of its output: ${read.problem}`,
      );
    let verdict: ClaimVerdict = 'deny';
    for (const a of read.actions) {
      if (a.do === 'grant') verdict = sem.claim(site);
      else if (a.do === 'deny') {
        if (sem.copies.length === 1)
          throw this.actionError(`denies the last copy of job ${jobId} (at ${site}): the job would never run`);
        sem.withdraw(site);
      } else this.perform(ctx, a, undefined);
    }
    return verdict;
  }

  /** Tells the policy how a copy's claim was answered (its answer may only set timers). */
  protected override onClaimAnswered(
    ctx: ActorContext<Message>,
    jobId: string,
    site: string,
    verdict: ClaimVerdict,
  ): void {
    // A claim the policy answered itself is not told back to it.
    if (this.policyDecided) {
      this.policyDecided = false;
      return;
    }
    const t = ctx.now();
    this.act(
      ctx,
      { v: PROTOCOL_VERSION, type: 'claimed', time: t, location: this.siteId, job: jobId, site, verdict },
      undefined,
    );
  }

  protected override onLoadReport(report: LoadReport): void {
    if (report.free !== undefined && report.queued !== undefined)
      this.state.set(report.site, { free: report.free, queued: report.queued });
  }

  /** The loads this location has heard, in the grid's order, each with its age. */
  private heardLoads(ctx: ActorContext<Message>): HeardLoad[] {
    const out: HeardLoad[] = [];
    for (const { id } of this.options.sites) {
      const load = this.loads.get(id);
      if (load === undefined) continue;
      const s = this.state.get(id) ?? { free: 0, queued: 0 };
      out.push({ site: id, load, free: s.free, queued: s.queued, age_s: ctx.now() - this.measuredAt.get(id)! });
    }
    return out;
  }

  private act(ctx: ActorContext<Message>, request: PolicyRequest, job: Job | undefined): void {
    const answer = this.policy.ask(request);
    const c: AnswerContext = {
      sites: this.siteCpus,
      location: this.siteId,
      ...(this.central ? { central: true } : {}),
      ...(request.type === 'submit' || request.type === 'offer' ? { job: request.job } : {}),
      ...(request.type === 'offer' ? { offered: true } : {}),
    };
    const read = readAnswer(answer, c);
    if ('problem' in read)
      throw this.policy.error(
        `answered request ${this.policy.line} (a ${request.type}) with line ${this.policy.line} of its output: ${read.problem}`,
      );
    for (const a of read.actions) this.perform(ctx, a, job);
  }

  private perform(ctx: ActorContext<Message>, a: PolicyAction, job: Job | undefined): void {
    switch (a.do) {
      case 'timer':
        ctx.schedule(a.after_s, { type: 'timer.external', name: a.name });
        return;
      case 'reject':
        ctx.metrics.count('jobs.rejected_by_policy');
        ctx.log.info({ job: a.job, site: this.siteId, reason: a.reason }, 'the external policy rejected a job');
        ctx.send(DRIVER, { type: MessageType.JobRejected, jobId: a.job, site: this.siteId, reason: 'by_policy' });
        return;
      case 'send':
        if (a.to !== job!.origin) ctx.metrics.count('jobs.moved');
        ctx.send(siteAddress(a.to, 'scheduler'), {
          type: Paper001MessageType.JobCopy,
          job: job!,
          queue: 'local',
          claim: false,
          trail: FRESH_TRAIL,
        });
        return;
      case 'copies':
        this.sendCopies(ctx, job!, [...a.to], () => 'local');
        return;
      case 'cancel': {
        // Only copies this site sent, before one has won, and never the last one (the job would not run).
        const sem = this.semaphores.get(a.job);
        if (!sem) throw this.actionError(`cancels a copy of job ${a.job}, which this site did not send as copies`);
        if (sem.copies.length === 1 && sem.copies[0] === a.at && sem.heldBy === undefined)
          throw this.actionError(`cancels the last copy of job ${a.job} (at ${a.at}): the job would never run`);
        const done = sem.withdraw(a.at);
        if (done === 'unknown') throw this.actionError(`cancels a copy of job ${a.job} at ${a.at}, which has none`);
        if (done === 'held') {
          ctx.metrics.count('copies.cancel_too_late');
          return;
        }
        ctx.metrics.count('copies.cancelled_by_policy');
        ctx.send(siteAddress(a.at, 'scheduler'), {
          type: Paper001MessageType.CopyCancel,
          jobId: a.job,
          granted_s: ctx.now(),
        });
        return;
      }
      case 'offer':
        ctx.metrics.count('jobs.offered');
        ctx.send(siteAddress(a.to, 'meta'), { type: 'external.offer', job: job!, from: this.siteId });
        return;
    }
  }

  /** An action the answer may name but this site cannot do: bad input, naming the answer's line. */
  private actionError(what: string): Error {
    return this.policy.error(
      `answered request ${this.policy.line} with line ${this.policy.line} of its output, which ${what}`,
    );
  }
}

/** What a policy is told of a job: what a scheduler may know, not its true run time. */
function policyJob(job: Job): PolicyJob {
  return { id: job.id, procs: job.procs, requested_s: job.estimate_s, submit_s: job.submit_s };
}
