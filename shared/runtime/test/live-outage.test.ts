import { describe, expect, it } from 'vitest';
import type { Message } from '@gridemu/protocol';
import { MessageType } from '@gridemu/protocol';
import { encodeEnvelope } from '@gridemu/protocol/wire';
import { silentLogger, type Actor, type ActorContext, type Transport } from '../src/index.js';
import { LiveRuntime, wallNow_ms } from '../src/live.js';

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
    onDisconnect: (f) => lost.push(f),
    onReconnect: (f) => back.push(f),
  };
  return {
    transport,
    deliver: (bytes: Uint8Array) => onBytes!(bytes, 'x', 'q'),
    disconnect: () => lost.forEach((f) => f()),
    reconnect: () => back.forEach((f) => f()),
  };
}

async function settle(heard: Heard, n: number): Promise<void> {
  while (heard.jobs.length < n) await new Promise((r) => setTimeout(r, 2));
}

describe('LiveRuntime cut off from the bus', () => {
  it("counts what was on its way while the process was cut off as held by the fault, not as its link's delay, and reports the span", async () => {
    const bus = handBus();
    const heard = new Heard();
    const rt = new LiveRuntime({ transport: bus.transport, run: 'cut', seed: 1, log: silentLogger });
    rt.spawn({ address: 'p/sum', location: 'p', actor: heard });
    // The run is 10,000 emulated s old at speed-up 1,000.
    rt.start(0, 1000, wallNow_ms() - 10_000);
    const completion = (job: string, at_s: number) =>
      encodeEnvelope({
        run: 'cut',
        from: 'q/src',
        to: 'p/sum',
        at_s,
        msg: { type: MessageType.JobCompleted, jobId: job, site: 'q', time_s: at_s },
      });
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
});
