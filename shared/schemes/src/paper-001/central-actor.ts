import type { Job } from '@gridemu/model';
import { DRIVER, FRESH_TRAIL, MessageType, siteAddress, type Message } from '@gridemu/protocol';
import type { Actor, ActorContext } from '@gridemu/runtime';
import { CentralEasy } from './central-easy.js';
import { Paper001MessageType } from './messages.js';

/**
 * The centralized metascheduler (paper 001 §2.1.1): every job is submitted here and waits here;
 * a site gets a job only when it can start it now, and runs it at once. Its picture of each site
 * is exact but late: processors are taken when it dispatches and given back when the site's
 * report of the job's end arrives.
 */
export class CentralActor implements Actor<Message> {
  private readonly policy: CentralEasy;
  private readonly waiting = new Map<string, Job>();
  /** Jobs sent to a site to run, until their end is reported (a lost run is queued again). */
  private readonly placed = new Map<string, Job>();

  constructor(sites: readonly { readonly id: string; readonly cpus: number }[]) {
    this.policy = new CentralEasy(sites);
  }

  receive(ctx: ActorContext<Message>, msg: Message): void {
    switch (msg.type) {
      case MessageType.JobSubmit: {
        const { job } = msg;
        if (!this.policy.fits(job)) {
          ctx.metrics.count('jobs.rejected.wider_than_site');
          ctx.send(DRIVER, {
            type: MessageType.JobRejected,
            jobId: job.id,
            site: job.origin,
            reason: 'wider_than_site',
          });
          return;
        }
        this.waiting.set(job.id, job);
        this.dispatch(ctx, this.policy.submit(ctx.now(), job));
        return;
      }
      case Paper001MessageType.JobFinished:
        this.placed.delete(msg.jobId);
        this.dispatch(ctx, this.policy.finish(ctx.now(), msg.jobId));
        return;
      case MessageType.JobLost: {
        // The site's process died with the job on it: it runs again, first in the queue.
        const job = this.placed.get(msg.jobId);
        if (!job) throw new Error(`assertion: ${msg.jobId} lost at ${msg.site}, but it was not placed there`);
        this.placed.delete(msg.jobId);
        this.waiting.set(job.id, job);
        ctx.metrics.count('jobs.restarted');
        this.dispatch(ctx, this.policy.requeue(ctx.now(), job));
        return;
      }
      default:
        ctx.log.warn({ type: msg.type }, 'central metascheduler ignored an unexpected message');
        ctx.metrics.count('messages.unexpected');
    }
  }

  private dispatch(ctx: ActorContext<Message>, placements: readonly { jobId: string; site: string }[]): void {
    for (const p of placements) {
      const job = this.waiting.get(p.jobId)!;
      this.waiting.delete(p.jobId);
      this.placed.set(p.jobId, job);
      // Sending a job to run at a site other than its origin is this actor's move.
      ctx.send(siteAddress(p.site, 'executor'), {
        type: Paper001MessageType.JobStart,
        job,
        trail: { ...FRESH_TRAIL, migrations: p.site === job.origin ? 0 : 1 },
      });
    }
  }
}
