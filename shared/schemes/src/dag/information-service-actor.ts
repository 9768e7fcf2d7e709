import type { Address, Message } from '@gridemu/protocol';
import type { Actor, ActorContext } from '@gridemu/runtime';
import type { DagTaskProgress } from './messages.js';

/**
 * Paper 003's information service (IS, §4): keeps each site's last progress report and gives the
 * scheduler the whole picture when it asks (step 1 of §3). What it says is as old as the reports.
 */
export class InformationServiceActor implements Actor<Message> {
  private readonly bySite = new Map<string, readonly DagTaskProgress[]>();

  receive(ctx: ActorContext<Message>, msg: Message, from: Address): void {
    switch (msg.type) {
      case 'dag.progress':
        this.bySite.set(msg.site, msg.tasks);
        return;
      case 'dag.status-query':
        ctx.send(from, { type: 'dag.status', round: msg.round, tasks: [...this.bySite.values()].flat() });
        return;
      default:
        ctx.log.warn({ type: msg.type }, 'information service ignored an unexpected message');
        ctx.metrics.count('messages.unexpected');
    }
  }
}
