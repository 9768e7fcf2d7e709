import type { Job } from '@gridemu/model';
import { FRESH_TRAIL, MessageType, siteAddress, type Message } from '@gridemu/protocol';
import type { Actor, ActorContext } from '@gridemu/runtime';

interface Pending {
  readonly job: Job;
  readonly asked: number;
  readonly answers: { site: string; start_s: number }[];
}

/**
 * The hierarchical metascheduler (paper 001 §2.1.2): every job is submitted here; at submission
 * it asks each site wide enough for the job when it would start there, and sends the job to the
 * site that answers with the earliest start (ties: grid order). The job then stays there.
 */
export class HierarchicalActor implements Actor<Message> {
  private readonly pending = new Map<number, Pending>();
  private nextQuery = 1;

  constructor(private readonly sites: readonly { readonly id: string; readonly cpus: number }[]) {}

  receive(ctx: ActorContext<Message>, msg: Message): void {
    switch (msg.type) {
      case MessageType.JobSubmit: {
        const { job } = msg;
        const candidates = this.sites.filter((s) => s.cpus >= job.procs);
        if (candidates.length === 0) {
          // Nowhere wide enough: the origin site rejects it, as it would any job too wide for it.
          ctx.send(siteAddress(job.origin, 'scheduler'), { type: MessageType.JobSubmit, job });
          return;
        }
        const queryId = this.nextQuery++;
        this.pending.set(queryId, { job, asked: candidates.length, answers: [] });
        for (const s of candidates) {
          ctx.send(siteAddress(s.id, 'scheduler'), { type: MessageType.StartQuery, queryId, jobId: job.id, procs: job.procs, estimate_s: job.estimate_s });
        }
        return;
      }
      case MessageType.StartEstimate: {
        const p = this.pending.get(msg.queryId);
        if (!p) return;
        p.answers.push({ site: msg.site, start_s: msg.start_s });
        if (p.answers.length < p.asked) return;
        this.pending.delete(msg.queryId);
        const order = (site: string) => this.sites.findIndex((s) => s.id === site);
        const best = [...p.answers].sort((a, b) => a.start_s - b.start_s || order(a.site) - order(b.site))[0]!;
        if (best.site !== p.job.origin) ctx.metrics.count('jobs.moved');
        ctx.send(siteAddress(best.site, 'scheduler'), { type: MessageType.JobCopy, job: p.job, queue: 'local', claim: false, trail: FRESH_TRAIL });
        return;
      }
      default:
        ctx.log.warn({ type: msg.type }, 'hierarchical metascheduler ignored an unexpected message');
        ctx.metrics.count('messages.unexpected');
    }
  }
}
