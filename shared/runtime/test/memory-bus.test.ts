import { describe, expect, it } from 'vitest';
import { MessageType, type Message } from '@gridemu/protocol';
import { encodeEnvelope } from '@gridemu/protocol/wire';
import { silentLogger, type Actor } from '../src/index.js';
import { LiveRuntime, MemoryBus, wallNow_ms, type LatencyHistogram, type WindowCountState } from '../src/live.js';

/** Collects the job ids of the completions it hears. */
function collector(into: string[]): Actor<Message> {
  return { receive: (_ctx, msg) => void (msg.type === MessageType.JobCompleted && into.push(msg.jobId)) };
}

/** Two live runtimes at locations `a` and `b` on one in-memory bus, job completions durable. */
function twoProcesses() {
  const bus = new MemoryBus();
  const heard: string[] = [];
  const reliable = { reliable: { types: new Set<string>([MessageType.JobCompleted]), resend_ms: 20 } };
  const a = new LiveRuntime({ transport: bus.transport(), run: 'mem', seed: 1, log: silentLogger, ...reliable });
  const b = new LiveRuntime({ transport: bus.transport(), run: 'mem', seed: 1, log: silentLogger, ...reliable });
  return { bus, heard, a, b };
}

/** `sender` at a/send, a collector of what it hears at b/sum, both clocks started. */
async function startBoth(a: LiveRuntime, b: LiveRuntime, sender: Actor<Message>, heard: string[]): Promise<void> {
  a.spawn({ address: 'a/send', location: 'a', actor: sender });
  b.spawn({ address: 'b/sum', location: 'b', actor: collector(heard) });
  await a.ready();
  await b.ready();
  const epoch_ms = wallNow_ms() + 20;
  a.start(0, 1000, epoch_ms);
  b.start(0, 1000, epoch_ms);
}

async function until(done: () => boolean, wall_ms = 30_000): Promise<void> {
  const deadline = Date.now() + wall_ms;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
}

/**
 * Two processes of a live run over the in-memory bus: what the runtime does with what crosses a
 * bus (acknowledgements and resends, forged and malformed messages), with no nats-server.
 */
describe('LiveRuntime over the in-memory bus', () => {
  it('delivers a durable message once though the bus lost its first sending, and drops forged and malformed ones', async () => {
    const { bus, heard, a, b } = twoProcesses();
    const sender: Actor<Message> = {
      start: (ctx) => {
        ctx.send('b/sum', { type: MessageType.JobCompleted, jobId: 'w!1', site: 'a', time_s: ctx.now() });
        // Lost with everything else in flight, as a server restart loses it: only the resend can bring it.
        bus.dropInFlight();
      },
      receive: () => undefined,
    };
    await startBoth(a, b, sender, heard);
    await until(() => heard.length > 0 && (a.counters.get('bus.resent') ?? 0) > 0);

    // A process at `c` publishes as itself, claiming to be `a`; then bytes that are no envelope.
    const forger = bus.transport();
    forger.publish(
      { actor: 'b/sum' },
      'c/x',
      encodeEnvelope({
        run: 'mem',
        from: 'a/send',
        to: 'b/sum',
        msg: { type: MessageType.JobCompleted, jobId: 'w!2', site: 'a', time_s: 0 },
      }),
    );
    forger.publish({ actor: 'b/sum' }, 'c/x', new Uint8Array([1, 2, 3]));
    await until(() => (b.counters.get('messages.malformed') ?? 0) > 0);
    // Let any late resend arrive before judging that it did no harm.
    await new Promise((r) => setTimeout(r, 60));
    await a.stop();
    await b.stop();

    expect(heard).toEqual(['w!1']);
    expect(a.counters.get('bus.resent')).toBeGreaterThanOrEqual(1);
    expect(b.counters.get('messages.forged_sender')).toBe(1);
    expect(b.counters.get('messages.malformed')).toBe(1);
    expect(b.latency.get('a->b')?.state().count).toBeGreaterThanOrEqual(1);
  });

  it("delivers a link's durable messages in the order they were sent, though a resend brought the first after the second", async () => {
    const { bus, heard, a, b } = twoProcesses();
    const sender: Actor<Message> = {
      start: (ctx) => {
        ctx.send('b/sum', { type: MessageType.JobCompleted, jobId: 'w!1', site: 'a', time_s: ctx.now() });
        // The first is lost in flight; the second gets through, and the first comes by its resend.
        bus.dropInFlight();
        ctx.send('b/sum', { type: MessageType.JobCompleted, jobId: 'w!2', site: 'a', time_s: ctx.now() });
      },
      receive: () => undefined,
    };
    await startBoth(a, b, sender, heard);
    await until(() => heard.length >= 2);
    await a.stop();
    await b.stop();

    expect(heard).toEqual(['w!1', 'w!2']);
    expect(b.counters.get('bus.held_for_order')).toBeGreaterThanOrEqual(1);
    expect(a.counters.get('bus.resent')).toBeGreaterThanOrEqual(1);
  });

  it("splits each felt delay from another process into its arrival at the mailbox and its wait there, and keeps the arrivals' timeline", async () => {
    const { heard, a, b } = twoProcesses();
    // Sent once the clock runs (a timer's handler), as every message of a run is.
    const sender: Actor<Message> = {
      start: (ctx) => void ctx.schedule(1, { type: MessageType.JobEnds, jobId: 'timer' }),
      receive: (ctx) => {
        for (let i = 0; i < 20; i++)
          ctx.send('b/sum', { type: MessageType.JobCompleted, jobId: `w!${i}`, site: 'a', time_s: ctx.now() });
      },
    };
    await startBoth(a, b, sender, heard);
    await until(() => heard.length === 20 && a.timerFireLag.state().count > 0);
    await a.stop();
    await b.stop();
    // Whatever the machine's load: every delivery is split once, and its two parts add up to what it felt.
    const felt = b.feltByType.get(MessageType.JobCompleted)!.get('a->b')!.state();
    const arrived = b.arrivedByType.get(MessageType.JobCompleted)!.get('a->b')!.state();
    const waited = b.waitedByType.get(MessageType.JobCompleted)!.get('a->b')!.state();
    expect(felt.count).toBe(20);
    expect(arrived.count).toBe(20);
    expect(waited.count).toBe(20);
    expect(arrived.sum_ms + waited.sum_ms).toBeCloseTo(felt.sum_ms, 6);
    // The timeline holds the same arrivals, by window of 500 wall ms (500 emulated s at 1000x).
    const timeline = b.mailboxTimelines()!;
    expect(timeline.bin_s).toBe(500);
    const windows = [...timeline.arrived.get('a->b')!.values()].map((h) => h.state());
    expect(windows.reduce((n, w) => n + w.count, 0)).toBe(20);
    expect(windows.reduce((t, w) => t + w.sum_ms, 0)).toBeCloseTo(arrived.sum_ms, 6);
    // ...and the waits' timeline the same waits, by window of when each reached the mailbox.
    const waits = [...timeline.waited.get('a->b')!.values()].map((h) => h.state());
    expect(waits.reduce((n, w) => n + w.count, 0)).toBe(20);
    expect(waits.reduce((t, w) => t + w.sum_ms, 0)).toBeCloseTo(waited.sum_ms, 6);
    // Each timeline counts every message of its type once, in the windows its histograms put it.
    const counted = (c: WindowCountState, byLink: ReadonlyMap<string, ReadonlyMap<string, LatencyHistogram>>) => {
      const windows = c[MessageType.JobCompleted]!['a->b']!;
      expect(Object.values(windows).reduce((n, k) => n + k, 0)).toBe(20);
      for (const [w, n] of Object.entries(windows)) expect(byLink.get('a->b')!.get(w)!.state().count).toBe(n);
    };
    counted(timeline.arrivedCounts.state(), timeline.arrived);
    counted(timeline.waitedCounts.state(), timeline.waited);
    // Within a process nothing is split; a timer's lateness before its mailbox is kept apart, and
    // again on its location's timeline, by when it was due.
    const own = a.mailboxTimelines()!;
    expect(own.arrived.size).toBe(0);
    expect(a.timerFireLag.state().count).toBe(1);
    expect([...own.timerFire.get('a')!.values()].reduce((n, h) => n + h.state().count, 0)).toBe(1);
    expect(b.mailboxTimelines()!.timerFire.size).toBe(0);
  });
});
