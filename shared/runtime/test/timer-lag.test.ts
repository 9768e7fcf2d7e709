import { describe, expect, it } from 'vitest';
import { MessageType, type Message } from '@gridemu/protocol';
import { silentLogger, type Actor, type ActorContext } from '../src/index.js';
import { LiveRuntime, wallNow_ms } from '../src/live.js';
import { noBus } from './no-bus.js';

/** Sends itself a backlog of messages, each taking a little wall time, and sets a timer due meanwhile. */
class Backlogged implements Actor<Message> {
  timerHandledAt_ms: number | undefined;
  /** When the last message handled before the timer was done with. */
  doneBeforeTimer_ms: number | undefined;
  private lastDone_ms = Number.NEGATIVE_INFINITY;
  handled = 0;
  start(ctx: ActorContext<Message>): void {
    ctx.schedule(1, { type: MessageType.JobEnds, jobId: 'timer' });
    // Three turns' worth (1,024 deliveries a turn): the timer fires between two of them, behind the rest.
    for (let i = 0; i < 3000; i++) ctx.send(ctx.self, { type: MessageType.JobEnds, jobId: `m${i}` });
  }
  receive(_ctx: ActorContext<Message>, msg: Message): void {
    if (msg.type === MessageType.JobEnds && msg.jobId === 'timer') {
      this.timerHandledAt_ms = wallNow_ms();
      this.doneBeforeTimer_ms = this.lastDone_ms;
      return;
    }
    this.handled++;
    const until = wallNow_ms() + 0.05;
    while (wallNow_ms() < until) {
      // Busy, as a scheduling pass is.
    }
    this.lastDone_ms = wallNow_ms();
  }
}

describe('timer lag (what --network-from replays)', () => {
  it('runs from the due time to when the actor handles the timer, mailbox wait included, as a felt delay does', async () => {
    const actor = new Backlogged();
    const rt = new LiveRuntime({ transport: noBus, run: 'timer-lag', seed: 1, log: silentLogger });
    rt.spawn({ address: 'p/backlogged', location: 'p', actor });
    const speedup = 1000;
    const epoch_ms = wallNow_ms();
    rt.start(0, speedup, epoch_ms);
    const deadline = Date.now() + 60_000; // a bound for a broken run; a working one is done in well under a second
    while ((actor.timerHandledAt_ms === undefined || actor.handled < 3000) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    await rt.stop();
    expect(actor.timerHandledAt_ms).toBeDefined();
    // Due 1 emulated s after the epoch: 1 wall ms at 1000x.
    const due_ms = epoch_ms + 1000 / speedup;
    const lag = rt.timerLag.state();
    expect(lag.count).toBe(1);
    // No duration is assumed, only the order of three instants in one thread, which load cannot
    // change. The timer fired between two turns and waited behind the rest of the backlog: the
    // instant its lag was taken comes after the last of those deliveries (taken when it fired, it
    // came before them) and before its handler ran. 1e-6 ms is float rounding, not time.
    expect(actor.handled).toBe(3000);
    const takenAt_ms = due_ms + lag.max_ms;
    expect(takenAt_ms).toBeGreaterThanOrEqual(actor.doneBeforeTimer_ms! - 1e-6);
    expect(takenAt_ms).toBeLessThanOrEqual(actor.timerHandledAt_ms! + 1e-6);
  });
});
