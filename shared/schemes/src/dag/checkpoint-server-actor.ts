import type { Address, Message } from '@gridemu/protocol';
import type { Actor, ActorContext } from '@gridemu/runtime';

/**
 * Paper 003's checkpoint server (CS, §4): where a stopped task's checkpoint is made persistent.
 * It stores the work each checkpoint holds and tells the scheduler, which may then start the task
 * on another resource from there.
 */
export class CheckpointServerActor implements Actor<Message> {
  /** The work kept for each task, MI. */
  readonly stored = new Map<string, number>();

  constructor(private readonly scheduler: Address) {}

  receive(ctx: ActorContext<Message>, msg: Message): void {
    if (msg.type !== 'dag.checkpoint') {
      ctx.log.warn({ type: msg.type }, 'checkpoint server ignored an unexpected message');
      ctx.metrics.count('messages.unexpected');
      return;
    }
    this.stored.set(msg.jobId, msg.done_mi);
    ctx.metrics.count('dag.checkpoints_stored');
    ctx.send(this.scheduler, {
      type: 'dag.stopped',
      jobId: msg.jobId,
      resource: msg.resource,
      done_mi: msg.done_mi,
      begun: msg.begun,
    });
  }
}
