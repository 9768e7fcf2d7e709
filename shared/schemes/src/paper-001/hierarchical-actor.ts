import { FRESH_TRAIL } from '@gridemu/model';
import { MessageType, siteAddress, type Message } from '@gridemu/protocol';
import type { Actor, ActorContext, TimerId } from '@gridemu/runtime';
import { StartQueryRound, type QueryDecision } from './start-query-round.js';
import { Paper001MessageType } from './messages.js';

const QUERY_TIMEOUT = Paper001MessageType.QueryTimeout;

/** Without `meta.query_timeout_s`: long against any link's round trip in simulation. */
export const DEFAULT_QUERY_TIMEOUT_S = 60;

/**
 * The hierarchical metascheduler (paper 001 §2.1.2): every job is submitted here; a query round
 * (shared/scheduling's StartQueryRound) asks each site wide enough when the job would start there,
 * and the job goes to the earliest answer, or to the best in hand when the round times out. The job
 * then stays there.
 */
export class HierarchicalActor implements Actor<Message> {
  private readonly round: StartQueryRound;
  private readonly timers = new Map<number, TimerId>();

  constructor(sites: readonly { readonly id: string; readonly cpus: number }[], timeout_s = DEFAULT_QUERY_TIMEOUT_S) {
    this.round = new StartQueryRound({ sites, timeout_s });
  }

  receive(ctx: ActorContext<Message>, msg: Message): void {
    switch (msg.type) {
      case MessageType.JobSubmit:
        return this.carryOut(ctx, this.round.submit(msg.job));
      case Paper001MessageType.StartEstimate:
        return this.carryOut(ctx, this.round.answer(msg.queryId, msg.site, msg.start_s));
      case QUERY_TIMEOUT:
        this.timers.delete(msg.queryId);
        return this.carryOut(ctx, this.round.timeout(msg.queryId));
      default:
        ctx.log.warn({ type: msg.type }, 'hierarchical metascheduler ignored an unexpected message');
        ctx.metrics.count('messages.unexpected');
    }
  }

  private carryOut(ctx: ActorContext<Message>, decisions: readonly QueryDecision[]): void {
    for (const d of decisions) {
      switch (d.kind) {
        case 'forward-to-origin':
          // Nowhere wide enough: the origin site rejects it, as it would any job too wide for it.
          ctx.send(siteAddress(d.job.origin, 'scheduler'), { type: MessageType.JobSubmit, job: d.job });
          break;
        case 'ask':
          ctx.send(siteAddress(d.site, 'scheduler'), {
            type: Paper001MessageType.StartQuery,
            queryId: d.queryId,
            jobId: d.job.id,
            procs: d.job.procs,
            estimate_s: d.job.estimate_s,
          });
          break;
        case 'wait':
          this.timers.set(d.queryId, ctx.schedule(d.timeout_s, { type: QUERY_TIMEOUT, queryId: d.queryId }));
          break;
        case 'place': {
          const timer = this.timers.get(d.queryId);
          if (d.cancelTimer && timer !== undefined) ctx.cancel(timer);
          this.timers.delete(d.queryId);
          if (d.site !== d.job.origin) ctx.metrics.count('jobs.moved');
          ctx.send(siteAddress(d.site, 'scheduler'), {
            type: Paper001MessageType.JobCopy,
            job: d.job,
            queue: 'local',
            claim: false,
            trail: FRESH_TRAIL,
          });
          break;
        }
        case 'count':
          ctx.metrics.count(d.name);
          break;
      }
    }
  }
}
