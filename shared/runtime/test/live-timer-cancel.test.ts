import { describe, expect, it } from 'vitest';
import { MessageType, type Message } from '@gridemu/protocol';
import { silentLogger, type Actor, type ActorContext, type TimerId } from '../src/index.js';
import { LiveRuntime, wallNow_ms } from '../src/live.js';
import { noBus } from './no-bus.js';

/**
 * Two timers, the first of which cancels the second, as a grid's higher-priority job preempts a
 * running one and cancels its end (paper 000's grid; gridemu fuzz --live, seed 41), both due while
 * the actor works through a backlog.
 */
class Preempting implements Actor<Message> {
  readonly handled: string[] = [];
  backlog = 0;
  private end: TimerId | undefined;
  start(ctx: ActorContext<Message>): void {
    ctx.schedule(5, { type: MessageType.JobEnds, jobId: 'preempt' });
    this.end = ctx.schedule(6, { type: MessageType.JobEnds, jobId: 'end' });
    // Three turns' worth (1,024 deliveries a turn), each delivery busy 0.05 ms: the first timer
    // fires after this start and waits behind the backlog; the second, due 1 ms later, fires
    // before the backlog's second turn at the latest. Both wait in the mailbox together, however
    // fast or loaded the machine.
    for (let i = 0; i < 3000; i++) ctx.send(ctx.self, { type: MessageType.JobEnds, jobId: `m${i}` });
  }
  receive(ctx: ActorContext<Message>, msg: Message): void {
    if (msg.type !== MessageType.JobEnds) return;
    if (msg.jobId.startsWith('m')) {
      this.backlog++;
      const until = wallNow_ms() + 0.05;
      while (wallNow_ms() < until) {
        // Busy, as a scheduling pass is.
      }
      return;
    }
    this.handled.push(msg.jobId);
    if (msg.jobId === 'preempt') ctx.cancel(this.end!);
  }
}

describe('a live timer cancelled after it fired', () => {
  it('is never delivered, as in the simulator: it waited in the mailbox and is dropped there', async () => {
    const actor = new Preempting();
    const rt = new LiveRuntime({ transport: noBus, run: 'cancel', seed: 1, log: silentLogger });
    rt.spawn({ address: 'p/grid', location: 'p', actor });
    // Due 5 and 6 emulated s after the epoch: 5 and 6 wall ms at 1000x.
    rt.start(0, 1000, wallNow_ms());
    const deadline = Date.now() + 60_000; // a bound for a broken run; a working one is done at once
    while ((actor.handled.length === 0 || actor.backlog < 3000) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 5));
    // Time for the second timer's delivery, had it not been dropped.
    await new Promise((r) => setTimeout(r, 50));
    await rt.stop();
    expect(actor.handled).toEqual(['preempt']);
    expect(rt.counters.get('timers.cancelled_after_firing')).toBe(1);
  });
});
