import { describe, expect, it } from 'vitest';
import { MessageType, type Message } from '@gridemu/protocol';
import { silentLogger, SimRuntime, type Actor, type ActorContext } from '../src/index.js';
import { LiveRuntime, wallNow_ms } from '../src/live.js';
import { noBus } from './no-bus.js';

/** Starts a period in its start hook, as load gossip does, and notes when it started and ticked. */
class Periodic implements Actor<Message> {
  startedAt: number | undefined;
  readonly ticks: number[] = [];
  start(ctx: ActorContext<Message>): void {
    this.startedAt = ctx.now();
    ctx.schedule(20, { type: MessageType.JobEnds, jobId: 'tick' });
  }
  receive(ctx: ActorContext<Message>): void {
    this.ticks.push(ctx.now());
    if (this.ticks.length < 2) ctx.schedule(20, { type: MessageType.JobEnds, jobId: 'tick' });
  }
}

describe("actors start at the run's epoch in both runtimes (issue 15)", () => {
  it('a live process starts its actors at the epoch, not at the earlier instant the start message came', async () => {
    // The driver sets the epoch 300 wall ms ahead (its start margin): 300 emulated s at 1000x.
    const actor = new Periodic();
    const rt = new LiveRuntime({ transport: noBus, run: 'start-epoch', seed: 1, log: silentLogger });
    rt.spawn({ address: 'p/periodic', location: 'p', actor });
    rt.start(1000, 1000, wallNow_ms() + 300);
    expect(actor.startedAt).toBe(1000);
    const deadline = Date.now() + 30_000; // a bound for a broken run; a working one is done in well under a second
    while (actor.ticks.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await rt.stop();
    // A live timer's handler reads its due time: the period keeps the epoch's phase.
    expect(actor.ticks).toEqual([1020, 1040]);
  });

  it('the simulator starts them at the instant it is given, so a period has the same phase', () => {
    const actor = new Periodic();
    const rt = new SimRuntime<Message>({ seed: 1, network: { latency_ms: 0, jitter_ms: 0 } });
    rt.spawn({ address: 'p/periodic', location: 'p', actor });
    rt.start(1000);
    rt.run();
    expect(actor.startedAt).toBe(1000);
    expect(actor.ticks).toEqual([1020, 1040]);
  });
});
