import { describe, expect, it } from 'vitest';
import type { Message } from '@gridemu/protocol';
import { MessageType } from '@gridemu/protocol';
import { encodeEnvelope } from '@gridemu/protocol/wire';
import { silentLogger, type Actor, type ActorContext, type Transport } from '../src/index.js';
import { LiveRuntime, MemoryJournal, wallNow_ms } from '../src/live.js';

class Heard implements Actor<Message> {
  readonly jobs: string[] = [];
  receive(_ctx: ActorContext<Message>, msg: Message): void {
    if (msg.type === MessageType.JobCompleted) this.jobs.push(msg.jobId);
  }
}

/** A bus in the test's hands, which the test can also cut this process off from and bring back. */
function handBus() {
  let onBytes: ((bytes: Uint8Array, subject: string, sender: string) => void) | undefined;
  const lost: (() => void)[] = [];
  const back: (() => void)[] = [];
  const transport: Transport = {
    publish: () => undefined,
    subscribe: (_target, f) => {
      onBytes = f;
      return { unsubscribe: () => undefined };
    },
    flush: () => Promise.resolve(),
    onDisconnect: (f) => listen(lost, f),
    onReconnect: (f) => listen(back, f),
  };
  return {
    transport,
    deliver: (bytes: Uint8Array) => onBytes!(bytes, 'x', 'q'),
    disconnect: () => [...lost].forEach((f) => f()),
    reconnect: () => [...back].forEach((f) => f()),
    listeners: () => lost.length + back.length,
  };
}

function listen(listeners: (() => void)[], f: () => void): () => void {
  listeners.push(f);
  return () => {
    const i = listeners.indexOf(f);
    if (i >= 0) listeners.splice(i, 1);
  };
}

/** A job's completion from q/src to p/sum, sent at `at_s`. */
const completion = (job: string, at_s: number) =>
  encodeEnvelope({
    run: 'cut',
    from: 'q/src',
    to: 'p/sum',
    at_s,
    msg: { type: MessageType.JobCompleted, jobId: job, site: 'q', time_s: at_s },
  });

/** A journaled process hosting one Heard at p/sum. */
function journaledProcess(transport: Transport, store: MemoryJournal, recovering: boolean) {
  const heard = new Heard();
  const rt = new LiveRuntime({ transport, run: 'cut', seed: 1, log: silentLogger, journal: { store, recovering } });
  rt.spawn({ address: 'p/sum', location: 'p', actor: heard });
  return { rt, heard };
}

async function settle(heard: Heard, n: number): Promise<void> {
  while (heard.jobs.length < n) await new Promise((r) => setTimeout(r, 2));
}

describe('LiveRuntime cut off from the bus', () => {
  it('stopped, hears nothing more of a connection it shared: its journal takes no batch of a later drop', async () => {
    // A warm-up's runtimes share the process's connection with the run's and stop before it. One
    // that went on listening journaled the run's server restart through its closed file journal,
    // into the run's journal file, which had taken the same descriptor (gridemu fuzz --live, seed 12).
    const bus = handBus();
    const store = new MemoryJournal();
    const { rt } = journaledProcess(bus.transport, store, false);
    rt.start(0, 1000, wallNow_ms());
    expect(bus.listeners()).toBeGreaterThan(0);
    await rt.stop();
    const stored = store.batches.length;
    expect(bus.listeners()).toBe(0);
    bus.disconnect();
    bus.reconnect();
    // A drop's edge is stored within 10 ms by an append of its own, if a runtime journals it.
    await new Promise((r) => setTimeout(r, 50));
    expect(store.batches.length).toBe(stored);
    expect(rt.outageSpans()).toEqual([]);
  });

  it("counts what was on its way while the process was cut off as held by the fault, not as its link's delay, and reports the span", async () => {
    const bus = handBus();
    const heard = new Heard();
    const rt = new LiveRuntime({ transport: bus.transport, run: 'cut', seed: 1, log: silentLogger });
    rt.spawn({ address: 'p/sum', location: 'p', actor: heard });
    // The run is 10,000 emulated s old at speed-up 1,000.
    rt.start(0, 1000, wallNow_ms() - 10_000);
    bus.deliver(completion('before', rt.now()));
    await settle(heard, 1);
    const sentBeforeTheCut_s = rt.now();
    bus.disconnect();
    const cut_s = rt.now();
    // Sent before the cut, handled after it (the server lost it, its sender sent it again).
    bus.deliver(completion('in flight', sentBeforeTheCut_s));
    await settle(heard, 2);
    bus.reconnect();
    const back_s = rt.now();
    bus.deliver(completion('after', rt.now()));
    await settle(heard, 3);
    await rt.stop();
    expect(heard.jobs).toEqual(['before', 'in flight', 'after']);
    expect(rt.counters.get('felt.held_by_fault')).toBe(1);
    expect(rt.felt.get('q->p')?.state().count).toBe(2);
    const [span, ...more] = rt.outageSpans();
    expect(more).toEqual([]);
    expect(span!.from_s).toBeGreaterThanOrEqual(sentBeforeTheCut_s);
    expect(span!.from_s).toBeLessThanOrEqual(cut_s);
    expect(span!.to_s).toBeLessThanOrEqual(back_s);
    expect(span!.to_s).toBeGreaterThanOrEqual(span!.from_s);
  });

  it("a restart reads its earlier life's outage back from the journal: what crossed it is the fault's again, and the span is the run's again", async () => {
    const journal = new MemoryJournal();
    const bus = handBus();
    const spawn = (recovering: boolean) => journaledProcess(bus.transport, journal, recovering);
    const first = spawn(false);
    first.rt.start(0, 1000, wallNow_ms() - 10_000);
    bus.deliver(completion('before', first.rt.now()));
    await settle(first.heard, 1);
    const sentBeforeTheCut_s = first.rt.now();
    bus.disconnect();
    bus.deliver(completion('in flight', sentBeforeTheCut_s));
    await settle(first.heard, 2);
    bus.reconnect();
    bus.deliver(completion('after', first.rt.now()));
    await settle(first.heard, 3);
    await first.rt.stop();
    expect(first.rt.counters.get('felt.held_by_fault')).toBe(1);
    // A later life reads the first from the journal: without the outage, the message that crossed it
    // was its link's delay, and a replay of the run drew it for ordinary messages.
    const second = spawn(true);
    await second.rt.replayJournal(1000);
    expect(second.heard.jobs).toEqual(['before', 'in flight', 'after']);
    expect(second.rt.counters.get('felt.held_by_fault')).toBe(1);
    expect(second.rt.felt.get('q->p')?.state()).toEqual(first.rt.felt.get('q->p')?.state());
    expect(second.rt.outageSpans()).toEqual(first.rt.outageSpans());
  });

  it('a process that died cut off from the bus was cut off until it died; its restart is not', async () => {
    const journal = new MemoryJournal();
    const bus = handBus();
    const wallEpoch_ms = wallNow_ms() - 10_000;
    const { rt: first } = journaledProcess(bus.transport, journal, false);
    first.start(0, 1000, wallEpoch_ms);
    bus.disconnect();
    const cut_s = first.now();
    await first.stop();
    // Died when it stopped: a time already past, whatever the machine's speed (a death put ahead of
    // the clock would hold the restart's first message, sent before it, by the fault).
    const stopped_s = first.now();
    const { rt: second, heard } = journaledProcess(bus.transport, journal, true);
    const { died_s } = await second.resume(0, 1000, wallEpoch_ms, stopped_s);
    bus.deliver(completion('after', second.now()));
    await settle(heard, 1);
    await second.stop();
    const [span, ...more] = second.outageSpans();
    expect(more).toEqual([]);
    expect(span!.from_s).toBeLessThanOrEqual(cut_s);
    expect(span!.to_s).toBe(died_s);
    expect(second.counters.get('felt.held_by_fault') ?? 0).toBe(0);
    expect(second.felt.get('q->p')?.state().count).toBe(1);
  });
});
