import type { Address, Message } from '@gridemu/protocol';
import type { Actor, ActorContext } from '@gridemu/runtime';
import { USAGE_TOPIC } from './names.js';

/**
 * GRUBER's site monitor (§2.2, Figure 1): every period it asks its site's resource manager for
 * the per-VO usage and publishes the answer on the usage topic, which every decision point hears.
 */
export class MonitorActor implements Actor<Message> {
  constructor(
    private readonly lrm: Address,
    private readonly period_s: number,
  ) {}

  /** The first report goes out as the run starts (its first submission, in both runtimes). */
  start(ctx: ActorContext<Message>): void {
    ctx.schedule(0, { type: 'timer.gruber-monitor' });
  }

  receive(ctx: ActorContext<Message>, msg: Message): void {
    switch (msg.type) {
      case 'timer.gruber-monitor':
        ctx.send(this.lrm, { type: 'gruber.usage-query' });
        ctx.schedule(this.period_s, { type: 'timer.gruber-monitor' });
        return;
      case 'gruber.usage':
        ctx.publish(USAGE_TOPIC, msg);
        return;
      default:
        ctx.log.warn({ type: msg.type }, 'site monitor ignored an unexpected message');
        ctx.metrics.count('messages.unexpected');
    }
  }
}
