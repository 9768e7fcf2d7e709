import type { Job } from '@gridemu/model';
import { FRESH_TRAIL, MessageType, siteAddress, type Address, type Message } from '@gridemu/protocol';
import type { Actor, ActorContext } from '@gridemu/runtime';
import { JobSemaphore, type ClaimVerdict } from './job-semaphore.js';
import { greedyTarget, leastLoadedSites } from './site-selection.js';
import { Paper001MessageType, type LoadReport } from './messages.js';

export type DistributedScheme = 'distributed' | 'k-distributed' | 'k-dual';

export interface MetaschedulerOptions {
  readonly scheme: DistributedScheme;
  readonly k: number;
  /** Every site of the grid and its processors (static configuration, not state). */
  readonly sites: readonly { readonly id: string; readonly cpus: number }[];
}

/**
 * A site's metascheduler (paper 001 §2.1.3, §4): jobs submitted at this site come here first.
 * It acts only on the loads it last heard by gossip, and keeps the semaphore of every job that
 * originated here and went out as several copies.
 */
export class MetaschedulerActor implements Actor<Message> {
  protected readonly loads = new Map<string, number>();
  /** When each site measured the load last heard from it (for the trace: what a choice was made on). */
  protected readonly measuredAt = new Map<string, number>();
  protected readonly semaphores = new Map<string, JobSemaphore>();

  constructor(
    readonly siteId: string,
    protected readonly options: MetaschedulerOptions,
  ) {}

  receive(ctx: ActorContext<Message>, msg: Message, from: Address): void {
    switch (msg.type) {
      case MessageType.JobSubmit:
        this.route(ctx, msg.job);
        return;
      case Paper001MessageType.LoadReport:
        this.loads.set(msg.site, msg.load);
        this.measuredAt.set(msg.site, msg.time_s);
        this.onLoadReport(msg);
        return;
      case Paper001MessageType.ClaimRequest:
        this.claim(ctx, msg.jobId, msg.site, msg.claimId, from);
        return;
      default:
        ctx.log.warn({ type: msg.type, site: this.siteId }, 'metascheduler ignored an unexpected message');
        ctx.metrics.count('messages.unexpected');
    }
  }

  /** Where a job submitted here goes: the scheme's choice (an external policy's, external/). */
  protected route(ctx: ActorContext<Message>, job: Job): void {
    // Only sites the job fits in are candidates; if none fits, the origin rejects it.
    const fits = this.options.sites.filter((s) => s.cpus >= job.procs).map((s) => s.id);
    if (fits.length === 0) {
      ctx.send(siteAddress(this.siteId, 'scheduler'), {
        type: Paper001MessageType.JobCopy,
        job,
        queue: 'local',
        claim: false,
        trail: FRESH_TRAIL,
      });
      return;
    }
    const origin = this.siteId;
    switch (this.options.scheme) {
      case 'distributed': {
        const target = fits.includes(origin)
          ? greedyTarget(fits, this.loads, origin)
          : leastLoadedSites(fits, this.loads, 1, origin)[0]!;
        if (target !== origin) ctx.metrics.count('jobs.moved');
        ctx.trace?.(job.id, 'job.routed', `to=${target} ${this.heard()}`);
        ctx.send(siteAddress(target, 'scheduler'), {
          type: Paper001MessageType.JobCopy,
          job,
          queue: 'local',
          claim: false,
          trail: FRESH_TRAIL,
        });
        return;
      }
      case 'k-distributed': {
        // §4.1: a copy to each of the K least-loaded sites; the first to start wins the semaphore.
        const targets = leastLoadedSites(fits, this.loads, Math.min(this.options.k, fits.length), origin);
        this.sendCopies(ctx, job, targets, () => 'local');
        return;
      }
      case 'k-dual': {
        // §4.2: the origin's local queue, plus the remote queues of the K-1 least-loaded other sites.
        const others = fits.filter((s) => s !== origin);
        const remote = leastLoadedSites(others, this.loads, Math.min(this.options.k - 1, others.length), origin);
        const targets = fits.includes(origin)
          ? [origin, ...remote]
          : leastLoadedSites(others, this.loads, Math.min(this.options.k, others.length), origin);
        this.sendCopies(ctx, job, targets, (site) => (site === origin ? 'local' : 'remote'));
        return;
      }
    }
  }

  protected sendCopies(
    ctx: ActorContext<Message>,
    job: Job,
    targets: string[],
    queueOf: (site: string) => 'local' | 'remote',
  ): void {
    this.semaphores.set(job.id, new JobSemaphore(targets));
    ctx.metrics.count('copies.sent', targets.length);
    ctx.trace?.(job.id, 'copies.sent', `to=${targets.join(' ')} ${this.heard()}`);
    const trail = { ...FRESH_TRAIL, copies: targets.length };
    for (const t of targets)
      ctx.send(siteAddress(t, 'scheduler'), {
        type: Paper001MessageType.JobCopy,
        job,
        queue: queueOf(t),
        claim: true,
        trail,
      });
  }

  /** A load report as it came: a subclass keeps what the built-in schemes do not use. */
  protected onLoadReport(_report: LoadReport): void {}

  /** §7's verdict on a copy's claim: the first claim wins (a subclass may ask its policy). */
  protected claimVerdict(
    _ctx: ActorContext<Message>,
    _jobId: string,
    site: string,
    sem: JobSemaphore | undefined,
  ): ClaimVerdict {
    return sem ? sem.claim(site) : 'deny';
  }

  /** A copy's claim has been answered (a subclass tells its policy). */
  protected onClaimAnswered(_ctx: ActorContext<Message>, _jobId: string, _site: string, _verdict: ClaimVerdict): void {}

  /** The loads the choice was made on, and when each was measured: `heard=s1:120@3600,s2:…` (0 if never heard). */
  private heard(): string {
    const round = (x: number) => Math.round(x * 10) / 10;
    return `heard=${this.options.sites.map(({ id }) => `${id}:${round(this.loads.get(id) ?? 0)}@${this.measuredAt.has(id) ? round(this.measuredAt.get(id)!) : '-'}`).join(',')}`;
  }

  /** §7: grant the first claim, deny the rest, and cancel the K-1 other copies. */
  private claim(ctx: ActorContext<Message>, jobId: string, site: string, claimId: number, to: Address): void {
    const sem = this.semaphores.get(jobId);
    const verdict = this.claimVerdict(ctx, jobId, site, sem);
    // §7 at the origin, in protocol-trace.csv: who asked, with which claim, and the verdict.
    ctx.trace?.(jobId, `origin.${verdict}`, `site=${site} claim=${claimId}`);
    if (verdict === 'deny') {
      ctx.metrics.count('claims.denied');
      ctx.send(to, { type: Paper001MessageType.ClaimDeny, jobId, claimId });
      this.onClaimAnswered(ctx, jobId, site, verdict);
      return;
    }
    ctx.metrics.count(verdict === 'grant' ? 'claims.granted' : 'claims.regranted');
    ctx.send(to, { type: Paper001MessageType.ClaimGrant, jobId, claimId });
    if (verdict === 'grant') {
      for (const loser of sem!.losers(site)) {
        ctx.metrics.count('copies.cancels_sent');
        ctx.trace?.(jobId, 'origin.cancel', `site=${loser}`);
        ctx.send(siteAddress(loser, 'scheduler'), {
          type: Paper001MessageType.CopyCancel,
          jobId,
          granted_s: ctx.now(),
        });
      }
    }
    this.onClaimAnswered(ctx, jobId, site, verdict);
  }
}
