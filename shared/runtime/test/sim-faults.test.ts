import { describe, expect, it } from 'vitest';
import { faultEvents, SimRuntime, type Actor, type ActorContext, type SimFaults } from '../src/index.js';

type Msg = { type: 'durable'; n: number } | { type: 'gossip'; n: number } | { type: 'timer.wake' };

/** Records what it receives and when, and when it recovered. */
class Recorder implements Actor<Msg> {
  readonly got: string[] = [];
  receive(ctx: ActorContext<Msg>, msg: Msg): void {
    this.got.push(`${ctx.now()} ${msg.type}${'n' in msg ? ` ${msg.n}` : ''}`);
  }
  recover(ctx: ActorContext<Msg>, crashed_s: number): void {
    this.got.push(`${ctx.now()} recovered (crashed at ${crashed_s})`);
  }
}

/** Sends one message of each kind at each listed time, and sets itself a timer. */
class Sender implements Actor<Msg> {
  constructor(private readonly at: number[]) {}
  start(ctx: ActorContext<Msg>): void {
    this.at.forEach((t, n) => ctx.schedule(t, { type: 'timer.wake' }) && n);
  }
  private n = 0;
  receive(ctx: ActorContext<Msg>): void {
    const n = this.n++;
    ctx.send('b/r', { type: 'durable', n });
    ctx.send('b/r', { type: 'gossip', n });
  }
}

function run(faults: SimFaults, sendAt: number[], bTimerAt?: number): Recorder {
  const r = new Recorder();
  const rt = new SimRuntime<Msg>({
    seed: 1,
    network: { latency_ms: 1000, jitter_ms: 0 },
    faults: { durable: (m) => m.type === 'durable', ...faults },
  });
  rt.spawn({ address: 'a/s', location: 'a', actor: new Sender(sendAt) });
  rt.spawn({ address: 'b/r', location: 'b', actor: r });
  if (bTimerAt !== undefined) {
    // A timer of b's own, due while b is down: it waits for the restart.
    rt.spawn({
      address: 'b/t',
      location: 'b',
      actor: {
        start: (ctx) => void ctx.schedule(bTimerAt, { type: 'timer.wake' }),
        receive: (ctx, m) => void r.got.push(`${ctx.now()} own ${m.type}`),
      },
    });
  }
  rt.start();
  rt.run();
  return r;
}

describe('SimRuntime faults (issue 11)', () => {
  it('orders fault events by time, a restart before a crash at the same time', () => {
    const events = faultEvents(
      [
        { location: 'x', at_s: 10, down_s: 5 },
        { location: 'y', at_s: 15, down_s: 1 },
      ],
      [{ locations: ['x'], from_s: 15, to_s: 20 }],
    );
    expect(events.map((e) => `${e.time_s} ${e.kind}`)).toEqual([
      '10 crash',
      '15 restart',
      '15 cut',
      '15 crash',
      '16 restart',
      '20 heal',
    ]);
  });

  it('a crashed receiver loses what may be lost, gets durable messages and its timers when it is back, after recovering', () => {
    // Sent at 5 and 20, each arriving 1 s later; b is down from 10 to 30.
    const r = run({ crashes: [{ location: 'b', at_s: 10, down_s: 20 }] }, [5, 20]);
    expect(r.got).toEqual(['6 durable 0', '6 gossip 0', '30 recovered (crashed at 10)', '30 durable 1']);
  });

  it("a durable message held for a restarted receiver waits on for its sender, if that is down then, as the sender's outbox holds it live", () => {
    // Sent at 20 while b is down (10 to 30); a, its sender, goes down at `at_s` for `down_s`.
    const withSenderDown = (at_s: number, down_s: number) =>
      run(
        {
          crashes: [
            { location: 'b', at_s: 10, down_s: 20 },
            { location: 'a', at_s, down_s },
          ],
        },
        [5, 20],
      ).got;
    // a is down at b's restart (25 to 60): the message waits for a.
    expect(withSenderDown(25, 35)).toEqual([
      '6 durable 0',
      '6 gossip 0',
      '30 recovered (crashed at 10)',
      '60 durable 1',
    ]);
    // a goes down only after b is back (35 to 60): delivered at b's restart, as before.
    expect(withSenderDown(35, 25)).toEqual([
      '6 durable 0',
      '6 gossip 0',
      '30 recovered (crashed at 10)',
      '30 durable 1',
    ]);
  });

  it('a timer due while its process is down fires when it is back', () => {
    const r = run({ crashes: [{ location: 'b', at_s: 10, down_s: 20 }] }, [], 15);
    expect(r.got).toEqual(['30 recovered (crashed at 10)', '30 own timer.wake']);
  });

  it('a partition holds traffic across the cut until it heals, durable or not', () => {
    const r = run({ partitions: [{ locations: ['b'], from_s: 10, to_s: 50 }] }, [5, 20]);
    expect(r.got).toEqual(['6 durable 0', '6 gossip 0', '50 durable 1', '50 gossip 1']);
  });

  it("a partition is decided as a message leaves, as the sender's delay proxy decides live: one on its way when the cut begins goes on", () => {
    // Sent at 9.5, arriving at 10.5, just after the cut began at 10; then at 20, inside it.
    const r = run({ partitions: [{ locations: ['b'], from_s: 10, to_s: 50 }] }, [9.5, 20]);
    expect(r.got).toEqual(['10.5 durable 0', '10.5 gossip 0', '50 durable 1', '50 gossip 1']);
    // Sent at 49.5, inside the cut, due at 50.5 after it healed: held to the heal, then on its way.
    const late = run({ partitions: [{ locations: ['b'], from_s: 10, to_s: 50 }] }, [49.5]);
    expect(late.got).toEqual(['50.5 durable 0', '50.5 gossip 0']);
  });

  it("a topic message is held by the receiver's side of a cut as it arrives, and by the sender's as it leaves", () => {
    type Topic = { type: 'gossip'; n: number } | { type: 'timer.wake' };
    const heard = (partition: { locations: string[]; from_s: number; to_s: number }, sendAt: number) => {
      const got: string[] = [];
      const rt = new SimRuntime<Topic>({
        seed: 1,
        network: { latency_ms: 1000, jitter_ms: 0 },
        faults: { partitions: [partition] },
      });
      rt.spawn({
        address: 'a/s',
        location: 'a',
        actor: {
          start: (ctx) => void ctx.schedule(sendAt, { type: 'timer.wake' }),
          receive: (ctx) => ctx.publish('load', { type: 'gossip', n: 0 }),
        },
      });
      rt.spawn({
        address: 'b/r',
        location: 'b',
        topics: ['load'],
        actor: { receive: (ctx, m) => void got.push(`${ctx.now()} ${m.type}`) },
      });
      // The sender's own location hears it too, through no proxy: a cut never holds that copy.
      rt.spawn({
        address: 'a/r',
        location: 'a',
        topics: ['load'],
        actor: { receive: (ctx, m) => void got.push(`${ctx.now()} own ${m.type}`) },
      });
      rt.start();
      rt.run();
      return got.filter((g) => !g.includes(' own ')).concat(got.filter((g) => g.includes(' own ')));
    };
    // Sent before the cut, reaching b during it: b's proxy holds it on arrival, whichever side is cut off.
    expect(heard({ locations: ['b'], from_s: 10, to_s: 50 }, 9.5)).toEqual(['50 gossip', '9.5 own gossip']);
    expect(heard({ locations: ['a'], from_s: 10, to_s: 50 }, 9.5)).toEqual(['50 gossip', '9.5 own gossip']);
    // Sent by a cut-off sender: its proxy holds it until the heal; its own location hears it at once.
    expect(heard({ locations: ['a'], from_s: 10, to_s: 50 }, 20)).toEqual(['50 gossip', '20 own gossip']);
    // Sent before a cut that ends before it arrives: nothing holds it.
    expect(heard({ locations: ['a'], from_s: 10, to_s: 10.2 }, 9.5)).toEqual(['10.5 gossip', '9.5 own gossip']);
  });

  it('a bus outage holds what any two locations send each other, the driver included, and what is on its way, until it is back', () => {
    // Sent at 5, 9.5 (arriving at 10.5, in the outage) and 20; the bus is down from 10 to 50.
    const r = run({ outages: [{ from_s: 10, to_s: 50 }] }, [5, 9.5, 20]);
    expect(r.got).toEqual(['6 durable 0', '6 gossip 0', '50 durable 1', '50 gossip 1', '50 durable 2', '50 gossip 2']);

    const got: string[] = [];
    const rt = new SimRuntime<Msg>({
      seed: 1,
      network: { latency_ms: 1000, jitter_ms: 0 },
      faults: { outages: [{ from_s: 10, to_s: 50 }] },
    });
    const fire = (to: string) => ({
      start: (ctx: ActorContext<Msg>) => void ctx.schedule(20, { type: 'timer.wake' }),
      receive: (ctx: ActorContext<Msg>, m: Msg) =>
        void (m.type === 'timer.wake' && ctx.send(to, { type: 'gossip', n: 0 })),
    });
    const hear = (name: string) => ({
      receive: (ctx: ActorContext<Msg>, m: Msg) => void got.push(`${ctx.now()} ${name} ${m.type}`),
    });
    // The driver has no location; b/t and b/r share one.
    rt.spawn({ address: 'driver/d', location: undefined, actor: fire('a/r') });
    rt.spawn({ address: 'a/r', location: 'a', actor: hear('a') });
    rt.spawn({ address: 'b/t', location: 'b', actor: fire('b/r') });
    rt.spawn({ address: 'b/r', location: 'b', actor: hear('b') });
    rt.start();
    rt.run();
    expect(got).toEqual(['20 b gossip', '50 a gossip']);
    expect(rt.counters.get('messages.held_by_outage')).toBe(1);
    expect(rt.counters.get('faults.bus_outages')).toBe(1);
  });

  it('drops only messages that may be lost, the same ones for the same seed', () => {
    const times = Array.from({ length: 200 }, (_, i) => i + 1);
    const a = run({ dropRate: 0.5 }, times);
    const b = run({ dropRate: 0.5 }, times);
    expect(a.got).toEqual(b.got);
    expect(a.got.filter((x) => x.includes('durable'))).toHaveLength(200);
    const gossip = a.got.filter((x) => x.includes('gossip')).length;
    expect(gossip).toBeGreaterThan(60);
    expect(gossip).toBeLessThan(140);
  });
});
