import { FRESH_TRAIL, transferTime_s, type Job, type SchedulableJob } from '@gridemu/model';
import { DRIVER, MessageType, siteAddress, type Address, type Message } from '@gridemu/protocol';
import { siteOf, type Actor, type ActorContext } from '@gridemu/runtime';
import type { LocalPolicy } from '@gridemu/scheduling';
import { ClaimProtocol, type ClaimDecision, type ClaimEvent } from './claim-protocol.js';
import { traceClaimStep } from './claim-trace.js';
import { Paper001MessageType } from './messages.js';
import { LOAD_TOPIC } from './names.js';
import { reportSiteState } from '../site-metrics.js';

export interface LocalSchedulerOptions {
  /** Where job reports go (the driver). */
  readonly resultsTo?: Address;
  /** Publish this site's load on the `load` topic, every `loadPeriod_s` from the run's start (load gossip). */
  readonly gossip?: boolean;
  readonly loadPeriod_s?: number;
  /** How long to hold processors waiting for an answer to a claim. */
  readonly claimTimeout_s?: number;
  /** `hold` (default): claim first, then start. `optimistic`: start, then claim; a loser is killed. */
  readonly claimMode?: 'hold' | 'optimistic';
  /** With a transfer cost, a job from another site is planned to hold its processors for its transfer too. */
  readonly transferBandwidth_mbps?: number;
}

/**
 * A site's local scheduler. It composes three pieces: the site's local policy (FCFS, EASY, dual
 * queue), which picks what starts on every event; the site side of the claim protocol
 * (shared/scheduling's ClaimProtocol), which decides whether a started copy runs, claims first,
 * or goes; and load reporting on a period (load gossip). It turns messages into events for the
 * two step functions and their decisions into messages.
 */
export class LocalSchedulerActor implements Actor<Message> {
  private readonly claims: ClaimProtocol;
  private readonly executor: Address;
  private readonly resultsTo: Address;

  constructor(
    readonly siteId: string,
    private readonly policy: LocalPolicy,
    private readonly options: LocalSchedulerOptions = {},
  ) {
    this.executor = siteAddress(siteId, 'executor');
    this.resultsTo = options.resultsTo ?? DRIVER;
    this.claims = new ClaimProtocol({
      site: siteId,
      cpus: policy.cpus,
      claimTimeout_s: options.claimTimeout_s ?? 5,
      mode: options.claimMode ?? 'hold',
    });
  }

  start(ctx: ActorContext<Message>): void {
    if (this.options.gossip === true) {
      ctx.schedule(0, { type: Paper001MessageType.LoadTick });
    }
  }

  /** Copies still queued or claiming here (a test checks none outlives its job's start). */
  get copiesHeld(): number {
    return this.waitingCopies().length;
  }

  /** Ids of the jobs with a copy still queued or claiming here. */
  waitingCopies(): string[] {
    return this.claims.waitingCopies();
  }

  /** Expected seconds to drain this site's running and queued work, judged from requested times. */
  load(now: number): number {
    return this.policy.backlog_s(now) / this.policy.cpus;
  }

  receive(ctx: ActorContext<Message>, msg: Message, from: Address): void {
    this.handle(ctx, msg, from);
    reportSiteState(ctx, {
      queued: this.policy.queued,
      running: this.policy.running,
      busy: this.policy.cpus - this.policy.free,
      total: this.policy.cpus,
    });
  }

  private handle(ctx: ActorContext<Message>, msg: Message, from: Address): void {
    switch (msg.type) {
      case MessageType.JobSubmit:
        return this.step(ctx, {
          kind: 'arrived',
          job: msg.job,
          queue: 'local',
          claim: false,
          trail: FRESH_TRAIL,
          sent: false,
        });
      case Paper001MessageType.JobCopy:
        return this.step(ctx, {
          kind: 'arrived',
          job: msg.job,
          queue: msg.queue,
          claim: msg.claim,
          trail: msg.trail,
          sent: true,
        });
      case Paper001MessageType.JobFinished:
        return this.step(ctx, { kind: 'finished', jobId: msg.jobId });
      case MessageType.JobLost:
        return this.step(ctx, { kind: 'lost', jobId: msg.jobId });
      case Paper001MessageType.ClaimGrant:
        return this.step(ctx, { kind: 'grant', jobId: msg.jobId, claimId: msg.claimId, by: metaSite(from) });
      case Paper001MessageType.ClaimDeny:
        return this.step(ctx, { kind: 'deny', jobId: msg.jobId, claimId: msg.claimId, by: metaSite(from) });
      case Paper001MessageType.CopyCancel:
        return this.step(ctx, { kind: 'cancel', jobId: msg.jobId, by: metaSite(from), granted_s: msg.granted_s });
      case Paper001MessageType.ClaimTimeout:
        return this.step(ctx, { kind: 'timeout', jobId: msg.jobId, claimId: msg.claimId });
      case Paper001MessageType.LoadTick:
        this.gossip(ctx);
        return;
      case Paper001MessageType.StartQuery:
        ctx.send(from, {
          type: Paper001MessageType.StartEstimate,
          queryId: msg.queryId,
          site: this.siteId,
          start_s: this.policy.expectedStart(ctx.now(), {
            id: msg.jobId,
            procs: msg.procs,
            estimate_s: msg.estimate_s,
          }),
        });
        return;
      default:
        ctx.log.warn({ type: msg.type, site: this.siteId }, 'local scheduler ignored an unexpected message');
        ctx.metrics.count('messages.unexpected');
    }
  }

  /** One event through the claim protocol; its decisions carried out in order. */
  private step(ctx: ActorContext<Message>, event: ClaimEvent): void {
    const decisions = this.claims.handle(ctx.now(), event);
    if (ctx.trace) traceClaimStep(ctx.trace, event, decisions);
    for (const d of decisions) this.carryOut(ctx, d);
  }

  private carryOut(ctx: ActorContext<Message>, d: ClaimDecision): void {
    const now = ctx.now();
    switch (d.kind) {
      case 'enqueue':
        return this.started(ctx, this.policy.submit(now, this.planned(d.job), d.queue));
      case 'release':
        return this.started(ctx, this.policy.finish(now, d.jobId));
      case 'requeue':
        return this.started(ctx, this.policy.requeue(now, this.planned(d.job), d.queue, d.processorsHeld));
      case 'withdraw':
        return this.started(ctx, this.policy.withdraw(now, d.jobId).starts);
      case 'run':
        ctx.send(
          this.executor,
          d.provisional
            ? { type: Paper001MessageType.JobStart, job: d.job, trail: d.trail, provisional: true }
            : { type: Paper001MessageType.JobStart, job: d.job, trail: d.trail },
        );
        return;
      case 'claim':
        ctx.send(siteAddress(d.origin, 'meta'), {
          type: Paper001MessageType.ClaimRequest,
          jobId: d.jobId,
          site: this.siteId,
          claimId: d.claimId,
        });
        ctx.schedule(d.timeout_s, { type: Paper001MessageType.ClaimTimeout, jobId: d.jobId, claimId: d.claimId });
        return;
      case 'confirm':
        ctx.send(this.executor, { type: Paper001MessageType.JobConfirm, jobId: d.jobId });
        return;
      case 'kill':
        ctx.send(this.executor, { type: Paper001MessageType.JobKill, jobId: d.jobId });
        return;
      case 'reject':
        ctx.metrics.count('jobs.rejected');
        ctx.send(this.resultsTo, {
          type: MessageType.JobRejected,
          jobId: d.jobId,
          site: this.siteId,
          reason: d.reason,
        });
        return;
      case 'count':
        ctx.metrics.count(d.name, d.by);
        return;
      case 'observe':
        ctx.metrics.observe(d.name, d.value);
        return;
    }
  }

  /** The local policy started these: the claim protocol decides what each start means. */
  private started(ctx: ActorContext<Message>, starts: readonly SchedulableJob[]): void {
    for (const s of starts) this.step(ctx, { kind: 'policy-started', jobId: s.id });
  }

  /** The job as the policy plans it: its requested time, plus its transfer if it comes from elsewhere. */
  private planned(job: Job): SchedulableJob {
    const bandwidth = this.options.transferBandwidth_mbps;
    if (bandwidth === undefined || job.origin === this.siteId) return job;
    return { id: job.id, procs: job.procs, estimate_s: job.estimate_s + transferTime_s(job, bandwidth) };
  }

  private gossip(ctx: ActorContext<Message>): void {
    const report = {
      type: Paper001MessageType.LoadReport,
      site: this.siteId,
      load: this.load(ctx.now()),
      time_s: ctx.now(),
      free: this.policy.free,
      queued: this.policy.queued,
    } as const;
    ctx.publish(LOAD_TOPIC, report);
    ctx.schedule(this.options.loadPeriod_s ?? 60, { type: Paper001MessageType.LoadTick });
  }
}

/**
 * The site whose metascheduler `from` is, or `` for any other sender: the claim protocol acts on
 * a grant, denial or cancel only from the job's origin's metascheduler.
 */
function metaSite(from: Address): string {
  const site = siteOf(from);
  return site !== undefined && from === siteAddress(site, 'meta') ? site : '';
}
