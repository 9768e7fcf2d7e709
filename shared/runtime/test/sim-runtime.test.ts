import { describe, expect, it } from 'vitest';
import { EventHeap, Rng, SimRuntime, SimulationError, type Actor, type ActorContext } from '../src/index.js';

type Msg = { type: 'ping'; n: number } | { type: 'tick'; label: string };

/** Records what it receives, with the time. */
class Recorder implements Actor<Msg> {
  readonly got: { t: number; msg: Msg }[] = [];
  receive(ctx: ActorContext<Msg>, msg: Msg): void {
    this.got.push({ t: ctx.now(), msg });
  }
}

class Pinger implements Actor<Msg> {
  constructor(
    private readonly to: string,
    private readonly n: number,
  ) {}
  start(ctx: ActorContext<Msg>): void {
    for (let i = 0; i < this.n; i++) ctx.send(this.to, { type: 'ping', n: i });
  }
  receive(): void {}
}

describe('EventHeap', () => {
  it('pops by time, then by sequence number', () => {
    const h = new EventHeap<{ time: number; seq: number }>();
    const items = [
      { time: 5, seq: 3 },
      { time: 1, seq: 4 },
      { time: 5, seq: 1 },
      { time: 0, seq: 9 },
      { time: 1, seq: 2 },
    ];
    items.forEach((i) => h.push(i));
    const out = [];
    while (h.size) out.push(h.pop());
    expect(out).toEqual([
      { time: 0, seq: 9 },
      { time: 1, seq: 2 },
      { time: 1, seq: 4 },
      { time: 5, seq: 1 },
      { time: 5, seq: 3 },
    ]);
  });
});

describe('Rng', () => {
  it('gives the same numbers for the same seed and label, other numbers for another label', () => {
    const a = new Rng(7).fork('x');
    const b = new Rng(7).fork('x');
    const c = new Rng(7).fork('y');
    const seqA = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(seqA);
  });
  it('draws gamma variates with the right mean', () => {
    const r = new Rng(3);
    let sum = 0;
    for (let i = 0; i < 20000; i++) sum += r.gamma(0.6, 2);
    expect(sum / 20000).toBeCloseTo(1.2, 1);
    let sum2 = 0;
    for (let i = 0; i < 20000; i++) sum2 += r.gamma(6.5, 0.8);
    expect(sum2 / 20000).toBeCloseTo(5.2, 1);
  });
});

describe('SimRuntime', () => {
  it('fires timers due at the same time in the order they were set, and skips cancelled ones', () => {
    const rt = new SimRuntime<Msg>({ seed: 1, network: { latency_ms: 0, jitter_ms: 0 } });
    const rec = new Recorder();
    rt.spawn({ address: 'r', location: undefined, actor: rec });
    rt.spawn({
      address: 't',
      location: undefined,
      actor: {
        start(ctx) {
          ctx.schedule(10, { type: 'tick', label: 'first' });
          const gone = ctx.schedule(10, { type: 'tick', label: 'cancelled' });
          ctx.schedule(10, { type: 'tick', label: 'second' });
          ctx.schedule(5, { type: 'tick', label: 'earlier' });
          ctx.cancel(gone);
        },
        receive(ctx, msg) {
          ctx.send('r', msg);
        },
      },
    });
    rt.start();
    rt.run();
    expect(rec.got.map((g) => [g.t, (g.msg as { label: string }).label])).toEqual([
      [5, 'earlier'],
      [10, 'first'],
      [10, 'second'],
    ]);
  });

  it('delays messages between sites by latency plus jitter, and not within a site', () => {
    const rt = new SimRuntime<Msg>({ seed: 1, network: { latency_ms: 20, jitter_ms: 5, matrix: { a: { c: 100 } } } });
    const atB = new Recorder();
    const atA = new Recorder();
    const atC = new Recorder();
    rt.spawn({ address: 'a/pinger', location: 'a', actor: new Pinger('b/rec', 50) });
    rt.spawn({ address: 'a/pinger2', location: 'a', actor: new Pinger('a/rec', 3) });
    rt.spawn({ address: 'a/pinger3', location: 'a', actor: new Pinger('c/rec', 1) });
    rt.spawn({ address: 'b/rec', location: 'b', actor: atB });
    rt.spawn({ address: 'a/rec', location: 'a', actor: atA });
    rt.spawn({ address: 'c/rec', location: 'c', actor: atC });
    rt.start();
    rt.run();
    expect(atB.got).toHaveLength(50);
    for (const g of atB.got) {
      expect(g.t).toBeGreaterThanOrEqual(0.015);
      expect(g.t).toBeLessThanOrEqual(0.025);
    }
    // Jitter reorders messages on a link: they need not arrive in the order sent.
    expect(atB.got.map((g) => (g.msg as { n: number }).n)).not.toEqual([...Array(50).keys()]);
    expect(atA.got.every((g) => g.t === 0)).toBe(true);
    // The matrix overrides the constant for a->c.
    expect(atC.got[0]!.t).toBeGreaterThanOrEqual(0.095);
    expect(rt.messages.crossSite.get('ping')).toBe(51);
    expect(rt.messages.all.get('ping')).toBe(54);
  });

  it('is deterministic: the same seed gives the same deliveries', () => {
    const run = () => {
      const rt = new SimRuntime<Msg>({ seed: 42, network: { latency_ms: 10, jitter_ms: 9 } });
      const rec = new Recorder();
      rt.spawn({ address: 'a/p', location: 'a', actor: new Pinger('b/r', 30) });
      rt.spawn({ address: 'b/r', location: 'b', actor: rec });
      rt.start();
      rt.run();
      return rec.got;
    };
    expect(run()).toEqual(run());
  });

  it('refuses a message to an actor that does not exist', () => {
    const rt = new SimRuntime<Msg>({ seed: 1, network: { latency_ms: 0, jitter_ms: 0 } });
    rt.spawn({ address: 'a', location: undefined, actor: new Pinger('nobody', 1) });
    expect(() => rt.start()).toThrow(/unknown actor nobody/);
  });
});

describe('SimRuntime failures', () => {
  it('names the seed, the time, the actor and the message when an actor throws, and keeps the cause', () => {
    const rt = new SimRuntime<Msg>({ seed: 77, network: { latency_ms: 0, jitter_ms: 0 } });
    rt.spawn({
      address: 'boom',
      location: 'a',
      actor: {
        start(ctx) {
          ctx.schedule(12.5, { type: 'tick', label: 'x' });
        },
        receive() {
          throw new Error('assertion: broken');
        },
      },
    });
    rt.start();
    let caught: unknown;
    try {
      rt.run();
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(SimulationError);
    const e = caught as SimulationError;
    expect(e.message).toBe(
      'boom failed at t=12.5 s (seed 77) handling {"type":"tick","label":"x"} from boom: assertion: broken',
    );
    expect(e.failure).toMatchObject({ seed: 77, time_s: 12.5, actor: 'boom', from: 'boom' });
    expect((e.cause as Error).message).toBe('assertion: broken');
  });
});
