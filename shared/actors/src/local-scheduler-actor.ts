import type { Job } from '@gridemu/model';
import { DRIVER, MessageType, siteAddress, type Address, type Message } from '@gridemu/protocol';
import type { Actor, ActorContext } from '@gridemu/runtime';
import type { LocalPolicy, QueueKind } from '@gridemu/scheduling';

/**
 * A site's local scheduler: keeps the jobs waiting here, runs the site's policy on every event,
 * and hands each job the policy starts to the site's executor. Jobs wider than the whole site
 * are rejected on arrival, with the reason counted.
 */
export class LocalSchedulerActor implements Actor<Message> {
  private readonly waiting = new Map<string, Job>();
  private readonly executor: Address;

  constructor(
    readonly siteId: string,
    private readonly policy: LocalPolicy,
    private readonly resultsTo: Address = DRIVER,
  ) {
    this.executor = siteAddress(siteId, 'executor');
  }

  receive(ctx: ActorContext<Message>, msg: Message): void {
    switch (msg.type) {
      case MessageType.JobSubmit:
        this.submit(ctx, msg.job, 'local');
        return;
      case MessageType.JobFinished:
        this.dispatch(ctx, this.policy.finish(ctx.now(), msg.jobId));
        return;
      default:
        ctx.log.warn({ type: msg.type, site: this.siteId }, 'local scheduler ignored an unexpected message');
        ctx.metrics.count('messages.unexpected');
    }
  }

  private submit(ctx: ActorContext<Message>, job: Job, queue: QueueKind): void {
    if (job.procs > this.policy.cpus) {
      ctx.metrics.count('jobs.rejected.wider_than_site');
      ctx.send(this.resultsTo, { type: MessageType.JobRejected, jobId: job.id, site: this.siteId, reason: 'wider_than_site' });
      return;
    }
    this.waiting.set(job.id, job);
    this.dispatch(ctx, this.policy.submit(ctx.now(), job, queue));
  }

  private dispatch(ctx: ActorContext<Message>, starts: readonly { id: string }[]): void {
    for (const s of starts) {
      const job = this.waiting.get(s.id);
      if (!job) throw new Error(`assertion: policy at ${this.siteId} started ${s.id}, which is not waiting here`);
      this.waiting.delete(s.id);
      ctx.send(this.executor, { type: MessageType.JobStart, job });
    }
  }
}
