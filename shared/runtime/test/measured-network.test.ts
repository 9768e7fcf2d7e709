import { describe, expect, it } from 'vitest';
import {
  MEASURED_NETWORK_FORMAT,
  MIN_TYPE_SAMPLES,
  MeasuredNetwork,
  Rng,
  normalCdf,
  SimRuntime,
  type Actor,
  type ActorContext,
  type MeasuredNetworkFile,
} from '../src/index.js';
import { LatencyHistogram } from '../src/live.js';

type Msg = { type: 'ping'; n: number } | { type: 'tick' };

const histogram = (samples: readonly number[]) => {
  const h = new LatencyHistogram();
  for (const s of samples) h.record(s);
  return h.state();
};

/** A live run's network.json: link a->b at 2 to 6 ms, b->a at 40 ms, timers 1 ms late. */
function file(): MeasuredNetworkFile {
  const ab = Array.from({ length: 4000 }, (_, i) => 2 + (4 * i) / 3999);
  return {
    format: MEASURED_NETWORK_FORMAT,
    speedup: 1000,
    links: { 'a->b': histogram(ab), 'b->a': histogram([40, 40, 40]) },
    timer_lag: histogram([1, 1, 1, 1]),
  };
}

describe("a live run's measured network, replayed (simulate --network-from)", () => {
  it("draws each link's latency from its own histogram, in emulated seconds (wall ms × speed-up)", () => {
    const net = new MeasuredNetwork(file());
    const rng = new Rng(1);
    const ab = Array.from({ length: 20000 }, () => net.delay_s('a', 'b', rng));
    // Uniform on 2..6 wall ms at speed-up 1000: 2..6 emulated s, mean 4, quartiles 3 and 5 (buckets are ~4% wide).
    expect(Math.min(...ab)).toBeGreaterThanOrEqual(2);
    expect(Math.max(...ab)).toBeLessThanOrEqual(6);
    expect(ab.reduce((a, b) => a + b, 0) / ab.length).toBeCloseTo(4, 1);
    const sorted = [...ab].sort((x, y) => x - y);
    expect(sorted[5000]! / 3).toBeGreaterThan(0.96);
    expect(sorted[5000]! / 3).toBeLessThan(1.04);
    expect(sorted[15000]! / 5).toBeGreaterThan(0.96);
    expect(sorted[15000]! / 5).toBeLessThan(1.04);
    // One value measured: that value exactly (min and max bound the bucket).
    expect(net.delay_s('b', 'a', rng)).toBe(40);
    expect(net.timerLag_s(rng)).toBe(1);
    expect(net.describe()).toEqual({ speedup: 1000, links: { 'a->b': 4, 'b->a': 40 }, timer_lag_mean_s: 1 });
  });

  it("gives a link the live run never measured every link's latency together", () => {
    const net = new MeasuredNetwork(file());
    const rng = new Rng(2);
    const xs = Array.from({ length: 4003 }, () => net.delay_s('a', 'c', rng));
    // b->a's three 40 ms samples are the pool's top 3 of 4003: its last 0.075% of quantiles.
    const top = net.delayAt_s('a', 'c', 0.9999);
    expect(top).toBeGreaterThan(38);
    expect(top).toBeLessThanOrEqual(40);
    expect(net.delayAt_s('a', 'c', 0.5)).toBeLessThan(6);
    expect(xs.filter((x) => x < 7).length).toBeGreaterThan(3900);
  });

  it("delays messages in the simulator by what their link felt, in order between two actors; a late timer's handler reads its due time", () => {
    const net = new MeasuredNetwork({ ...file(), links: { ...file().links, 'b->b': histogram([3]) } });
    const rt = new SimRuntime<Msg>({ seed: 1, network: { latency_ms: 0, jitter_ms: 0 }, measured: net });
    const got: { t: number; msg: Msg }[] = [];
    const rec: Actor<Msg> = { receive: (ctx: ActorContext<Msg>, m: Msg) => void got.push({ t: ctx.now(), msg: m }) };
    rt.spawn({ address: 'b/rec', location: 'b', actor: rec });
    const send = (ctx: ActorContext<Msg>) => {
      for (let n = 0; n < 50; n++) ctx.send('b/rec', { type: 'ping', n });
    };
    rt.spawn({ address: 'a/send', location: 'a', actor: { start: send, receive: () => undefined } });
    rt.spawn({
      address: 'b/timer',
      location: 'b',
      actor: {
        start: (ctx: ActorContext<Msg>) => void ctx.schedule(10, { type: 'tick' }),
        receive: (ctx: ActorContext<Msg>) => void ctx.send('b/rec', { type: 'tick' }),
      },
    });
    rt.start();
    rt.run();
    const pings = got.filter((g) => g.msg.type === 'ping');
    // a->b felt 2..6 ms at speed-up 1000: 2..6 emulated s, in the order sent; sent at one instant,
    // they bunch as live (one draw for the burst).
    expect(pings.map((g) => (g.msg as { n: number }).n)).toEqual([...Array(50).keys()]);
    expect(new Set(pings.map((g) => g.t)).size).toBe(1);
    for (const g of pings) {
      expect(g.t).toBeGreaterThanOrEqual(2);
      expect(g.t).toBeLessThanOrEqual(6);
    }
    // The timer fires 1 s late (the run's timer lag) but is handled at its due time, 10, as live;
    // what it sends leaves then, and within b felt 3 ms: 3 s.
    expect(got.find((g) => g.msg.type === 'tick')!.t).toBe(13);
  });

  it("fires a replayed timer late by the run's timer lag: a message that lands meanwhile is handled first, and the timer then reads the later time (issue 15)", () => {
    // Timers 5 ms late at speed-up 1000: 5 emulated s. c->b felt 12 ms: 12 s.
    const net = new MeasuredNetwork({
      ...file(),
      links: { ...file().links, 'c->b': histogram([12]) },
      timer_lag: histogram([5]),
    });
    const rt = new SimRuntime<Msg>({ seed: 1, network: { latency_ms: 0, jitter_ms: 0 }, measured: net });
    const seen: string[] = [];
    rt.spawn({
      address: 'b/claims',
      location: 'b',
      actor: {
        // A claim's time-out, due at 10: live, it waits behind a busy loop until 15.
        start: (ctx: ActorContext<Msg>) => void ctx.schedule(10, { type: 'tick' }),
        receive: (ctx: ActorContext<Msg>, m: Msg) => void seen.push(`${m.type} ${ctx.now()}`),
      },
    });
    rt.spawn({
      address: 'c/meta',
      location: 'c',
      actor: {
        start: (ctx: ActorContext<Msg>) => ctx.send('b/claims', { type: 'ping', n: 1 }),
        receive: () => undefined,
      },
    });
    rt.start();
    rt.run();
    // The answer lands at 12 and is handled first; the time-out comes at 15 and reads 12, the
    // actor's clock never going back (on time it would have come first, at 10).
    expect(seen).toEqual(['ping 12', 'tick 12']);
    expect(rt.now()).toBe(15);
  });

  it('lets the messages within a process go before a late timer: a claim to its own site is answered before its time-out, as in one live turn (issue 15)', () => {
    // b->b felt 50 ms (50 s at 1000x): the claim and its grant each wait behind a long turn; the
    // claim's time-out is due at 5 s, and timers are never late here.
    const net = new MeasuredNetwork({ ...file(), links: { 'b->b': histogram([50]) }, timer_lag: histogram([0]) });
    const rt = new SimRuntime<Msg>({ seed: 1, network: { latency_ms: 0, jitter_ms: 0 }, measured: net });
    const seen: string[] = [];
    rt.spawn({
      address: 'b/scheduler',
      location: 'b',
      actor: {
        start: (ctx: ActorContext<Msg>) => {
          ctx.send('b/meta', { type: 'ping', n: 1 });
          ctx.schedule(5, { type: 'tick' });
        },
        receive: (ctx: ActorContext<Msg>, m: Msg) => void seen.push(`${m.type} ${ctx.now()}`),
      },
    });
    rt.spawn({
      address: 'b/meta',
      location: 'b',
      actor: { receive: (ctx: ActorContext<Msg>) => ctx.send('b/scheduler', { type: 'ping', n: 2 }) },
    });
    rt.start();
    rt.run();
    // The grant lands at 100; the time-out, due at 5, waited for the claim and then for the grant.
    expect(seen).toEqual(['ping 100', 'tick 100']);
  });

  it('draws the hops within one process together: a request and its reply are fast or slow alike, as one mailbox holds both (issue 15)', () => {
    // b->b felt 0.01 ms nine times in ten and 50 ms otherwise: 0.01 or 50 emulated s at 1000x.
    const local = histogram([...Array.from({ length: 900 }, () => 0.01), ...Array.from({ length: 100 }, () => 50)]);
    const rt = new SimRuntime<Msg>({
      seed: 5,
      network: { latency_ms: 0, jitter_ms: 0 },
      measured: new MeasuredNetwork({ ...file(), links: { 'b->b': local }, timer_lag: histogram([0]) }),
    });
    const trips: number[] = [];
    let sent = 0;
    // A round every 10,000 s (far apart: rounds are independent); y answers x at once.
    rt.spawn({
      address: 'b/x',
      location: 'b',
      actor: {
        start: (ctx: ActorContext<Msg>) => void ctx.schedule(0, { type: 'tick' }),
        receive: (ctx: ActorContext<Msg>, m: Msg) => {
          if (m.type === 'ping') trips.push(ctx.now() - sent);
          else if (trips.length < 2000) {
            sent = ctx.now();
            ctx.send('b/y', { type: 'ping', n: 0 });
            ctx.schedule(10_000, { type: 'tick' });
          }
        },
      },
    });
    rt.spawn({
      address: 'b/y',
      location: 'b',
      actor: { receive: (ctx: ActorContext<Msg>) => ctx.send('b/x', { type: 'ping', n: 1 }) },
    });
    rt.start();
    rt.run();
    // Drawn apart, one round trip in five would take 50 s or more (1 - 0.9²); drawn together, about one in ten.
    const slow = trips.filter((t) => t >= 40).length / trips.length;
    expect(trips.length).toBe(2000);
    expect(slow).toBeGreaterThan(0.07);
    expect(slow).toBeLessThan(0.14);
  });

  it("keeps each link's distribution when delays are correlated in time, and keeps order between two actors", () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-1)).toBeCloseTo(0.158655, 6);
    // One message a second on a->b, whose delays (2..6 s) outlast the gap: consecutive delays are
    // alike, yet over many the mean is the link's, 4 s, and no message overtakes another.
    const rt = new SimRuntime<Msg>({
      seed: 3,
      network: { latency_ms: 0, jitter_ms: 0 },
      measured: new MeasuredNetwork(file()),
    });
    const got: { t: number; n: number }[] = [];
    rt.spawn({
      address: 'b/rec',
      location: 'b',
      actor: {
        receive: (ctx: ActorContext<Msg>, m: Msg) => void got.push({ t: ctx.now(), n: (m as { n: number }).n }),
      },
    });
    let n = 0;
    const tick = (ctx: ActorContext<Msg>) => {
      ctx.send('b/rec', { type: 'ping', n: n++ });
      if (n < 4000) ctx.schedule(1, { type: 'tick' });
    };
    rt.spawn({ address: 'a/send', location: 'a', actor: { start: tick, receive: tick } });
    rt.start();
    rt.run();
    expect(got.map((g) => g.n)).toEqual([...Array(4000).keys()]);
    const delays = got.map((g) => g.t - g.n);
    expect(delays.reduce((a, b) => a + b, 0) / delays.length).toBeGreaterThan(3.7);
    expect(delays.reduce((a, b) => a + b, 0) / delays.length).toBeLessThan(4.5);
    const step = delays.slice(1).map((d, i) => Math.abs(d - delays[i]!));
    expect(step.reduce((a, b) => a + b, 0) / step.length).toBeLessThan(0.8); // independent draws: 1.33 apart on average
  });

  it("draws a message from what its own type felt on its link, from its type on every link when its link had too few, else from the link's whole traffic", () => {
    // Live, a->b carried 'report' at 10 ms and 'copy' at 2 ms (both MIN_TYPE_SAMPLES or more);
    // a->c carried 'copy' at 3 ms only MIN_TYPE_SAMPLES - 1 times, and 'claim' only 5 times in all.
    const ab = [...Array<number>(MIN_TYPE_SAMPLES).fill(10), ...Array<number>(MIN_TYPE_SAMPLES).fill(2)];
    const ac = Array<number>(MIN_TYPE_SAMPLES - 1).fill(3);
    const net = new MeasuredNetwork({
      ...file(),
      links: { 'a->b': histogram(ab), 'a->c': histogram([...ac, 7, 7, 7, 7, 7]) },
      types: {
        report: { 'a->b': histogram(Array<number>(MIN_TYPE_SAMPLES).fill(10)) },
        copy: { 'a->b': histogram(Array<number>(MIN_TYPE_SAMPLES).fill(2)), 'a->c': histogram(ac) },
        claim: { 'a->c': histogram([7, 7, 7, 7, 7]) },
      },
    });
    const rng = new Rng(4);
    expect(net.delay_s('a', 'b', rng, 'report')).toBe(10);
    expect(net.delay_s('a', 'b', rng, 'copy')).toBe(2);
    expect(net.meanDelay_s('a', 'b', 'copy')).toBe(2);
    // a->c's copies are too few alone: every link's copies together, 2 or 3 ms.
    const copies = Array.from({ length: 400 }, () => net.delay_s('a', 'c', rng, 'copy'));
    expect(copies.every((x) => x >= 2 && x <= 3)).toBe(true);
    expect(copies.some((x) => x > 2.5)).toBe(true);
    // Too few claims anywhere, and a type never seen: the link's whole traffic, as without types.
    expect(net.delayAt_s('a', 'c', 0.99, 'claim')).toBe(net.delayAt_s('a', 'c', 0.99));
    expect(net.delayAt_s('a', 'b', 0.1, 'grant')).toBe(net.delayAt_s('a', 'b', 0.1));
    expect(net.delayAt_s('a', 'b', 0.1)).toBeLessThan(2.1); // the link's lower half: its 2 ms bucket
    // summary.json's network_from: each type where it is drawn apart (claims never are).
    expect(net.describe().types).toEqual({
      copy: { links: { 'a->b': 2 }, between_locations_s: 2.487 },
      report: { links: { 'a->b': 10 }, between_locations_s: 10 },
    });
  });

  it('rejects a malformed network.json, naming the file and the field', () => {
    const text = (f: unknown) => JSON.stringify(f);
    expect(() => MeasuredNetwork.parse('{', 'n.json')).toThrow(/n\.json: not JSON/);
    expect(() => MeasuredNetwork.parse(text({ ...file(), format: 'x' }), 'n.json')).toThrow(
      /n\.json: format must be "gridemu-network\/1"/,
    );
    expect(() => MeasuredNetwork.parse(text({ ...file(), speedup: 0 }), 'n.json')).toThrow(
      /n\.json: speedup must be a positive number/,
    );
    expect(() => MeasuredNetwork.parse(text({ ...file(), links: { ab: histogram([1]) } }), 'n.json')).toThrow(
      /links\["ab"\] must be named from->to/,
    );
    expect(() =>
      MeasuredNetwork.parse(text({ ...file(), links: { 'a->b': { ...histogram([1]), buckets: { x: 1 } } } }), 'n.json'),
    ).toThrow(/links\["a->b"\] \.buckets\["x"\]/);
    expect(() => MeasuredNetwork.parse(text({ ...file(), timer_lag: { count: -1 } }), 'n.json')).toThrow(
      /timer_lag \.count must be a non-negative number/,
    );
    expect(() => MeasuredNetwork.parse(text({ ...file(), report_interval_ms: -1 }), 'n.json')).toThrow(
      /n\.json: report_interval_ms must be a number of wall ms/,
    );
    expect(() => MeasuredNetwork.parse(text({ ...file(), types: [] }), 'n.json')).toThrow(
      /n\.json: types must be an object of message type/,
    );
    expect(() =>
      MeasuredNetwork.parse(text({ ...file(), types: { copy: { 'a->b': { count: 1 } } } }), 'n.json'),
    ).toThrow(/n\.json: types\["copy"\]\["a->b"\] \.sum_ms must be a non-negative number/);
    expect(() =>
      MeasuredNetwork.parse(text({ ...file(), crashes: [{ process: 's2', from_s: 10, to_s: 5 }] }), 'n.json'),
    ).toThrow(/n\.json: crashes\[0\] must be \{ process, from_s, to_s \}/);
    expect(MeasuredNetwork.parse(text(file()), 'n.json').speedup).toBe(1000);
    // When the run heard a restart comes no earlier than the restart.
    expect(() =>
      MeasuredNetwork.parse(
        text({ ...file(), crashes: [{ process: 's2', from_s: 10, to_s: 50, resent_s: 20 }] }),
        'n.json',
      ),
    ).toThrow(/n\.json: crashes\[0\]\.resent_s must be emulated seconds no earlier than to_s/);
    expect(MeasuredNetwork.parse(text(file()), 'n.json').crashes).toEqual([]);
    const crashes = [{ process: 's2', from_s: 100, to_s: 2600 }];
    expect(MeasuredNetwork.parse(text({ ...file(), crashes }), 'n.json').crashes).toEqual(crashes);
    expect(() => MeasuredNetwork.parse(text({ ...file(), outages: [{ from_s: 'x', to_s: 5 }] }), 'n.json')).toThrow(
      /n\.json: outages\[0\] must be \{ from_s, to_s \}/,
    );
    expect(() => MeasuredNetwork.parse(text({ ...file(), outages: {} }), 'n.json')).toThrow(
      /n\.json: outages must be a list/,
    );
    expect(MeasuredNetwork.parse(text(file()), 'n.json').outages).toEqual([]);
    const outages = [{ from_s: 660_000, to_s: 663_000 }];
    expect(MeasuredNetwork.parse(text({ ...file(), outages }), 'n.json').outages).toEqual(outages);
  });

  it("thins a latest-value topic as the live run's bus bound did, in emulated time; the sender's own location hears each", () => {
    // A 20 wall ms bound at speed-up 1000 is 20 emulated s; a report every 1 s for 100 s.
    // Timers on time here (the lag is the next test's): the bound's timer and the reports' interleave as described below.
    const net = new MeasuredNetwork({
      ...file(),
      links: { ...file().links, 'a->a': histogram([0.001]) },
      timer_lag: histogram([0]),
      report_interval_ms: 20,
    });
    expect(net.reportInterval_s).toBe(20);
    const rt = new SimRuntime<Msg>({
      seed: 1,
      network: { latency_ms: 0, jitter_ms: 0 },
      measured: net,
      latestValue: { topics: new Set(['load']), interval_s: net.reportInterval_s },
    });
    const heard: Record<string, number[]> = { a: [], b: [] };
    for (const at of ['a', 'b'] as const) {
      rt.spawn({
        address: `${at}/meta`,
        location: at,
        topics: ['load'],
        actor: { receive: (_ctx: ActorContext<Msg>, m: Msg) => void (m.type === 'ping' && heard[at]!.push(m.n)) },
      });
    }
    let n = 0;
    const tick = (ctx: ActorContext<Msg>) => {
      ctx.publish('load', { type: 'ping', n: n++ });
      if (n < 100) ctx.schedule(1, { type: 'tick' });
    };
    rt.spawn({ address: 'a/scheduler', location: 'a', actor: { start: tick, receive: tick } });
    rt.start();
    rt.run();
    expect(heard['a']).toEqual([...Array(100).keys()]);
    // Report 0 goes at once; then, every 20 s, the newest waiting: the bound's timer at 20 was set
    // at 1, before the report of 20 was (at 19), so it comes first and sends report 19; and so on,
    // to report 99, sent at 100.
    expect(heard['b']).toEqual([0, 19, 39, 59, 79, 99]);
    expect(rt.counters.get('messages.superseded')).toBe(100 - 6);
  });
});
