import type { Address, Message } from '@gridemu/protocol';
import type { ActorContext } from '@gridemu/runtime';

/**
 * The sending end of a link, as GridSim's output port (paper 004 §4: 10 Mbps links): one message
 * at a time at the link's rate, so a message leaves when those queued before it have. A message of
 * no size on an idle port leaves at once.
 */
export class OutPort {
  private free_s = 0;
  private slots = 0;
  private readonly pending = new Map<number, { readonly to: Address; readonly msg: Message }>();

  constructor(private readonly mbps: number) {}

  /** Seconds `bytes` take on the link. */
  transmit_s(bytes: number): number {
    return (bytes * 8) / (this.mbps * 1e6);
  }

  send(ctx: ActorContext<Message>, to: Address, msg: Message, bytes: number): void {
    const tx = this.transmit_s(bytes);
    if (tx === 0 && this.free_s <= ctx.now()) {
      ctx.send(to, msg);
      return;
    }
    this.free_s = Math.max(ctx.now(), this.free_s) + tx;
    const slot = ++this.slots;
    this.pending.set(slot, { to, msg });
    ctx.schedule(this.free_s - ctx.now(), { type: 'timer.sr-send', slot });
  }

  /** The port's `timer.sr-send`: the message in `slot` is through and goes on its way. */
  sent(ctx: ActorContext<Message>, slot: number): void {
    const p = this.pending.get(slot);
    if (!p) throw new Error(`assertion: no message in the port's slot ${slot}`);
    this.pending.delete(slot);
    ctx.send(p.to, p.msg);
  }
}

/**
 * The receiving end of a link: messages come in one after another at the link's rate. Returns when
 * one of `bytes` that arrives now is all in.
 */
export class InPort {
  private free_s = 0;

  constructor(private readonly mbps: number) {}

  receive(now: number, bytes: number): number {
    this.free_s = Math.max(now, this.free_s) + (bytes * 8) / (this.mbps * 1e6);
    return this.free_s;
  }
}
