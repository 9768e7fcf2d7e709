import { describe, expect, it } from 'vitest';
import type { LatencyState } from '@gridemu/protocol';
import {
  MEASURED_NETWORK_FORMAT,
  MIN_TYPE_SAMPLES,
  MailboxModel,
  MeasuredNetwork,
  SimRuntime,
  inverseNormalCdf,
  normalCdf,
  type Actor,
  type ActorContext,
  type MeasuredNetworkFile,
} from '../src/index.js';
import { LatencyHistogram } from '../src/live.js';

type Msg = { type: 'ping' | 'pong'; jobId: string; n: number } | { type: 'tick' };

const histogram = (samples: readonly number[]) => {
  const h = new LatencyHistogram();
  for (const s of samples) h.record(s);
  return h.state();
};

const uniform = (from_ms: number, to_ms: number, n = 4000) =>
  histogram(Array.from({ length: n }, (_, i) => from_ms + ((to_ms - from_ms) * i) / (n - 1)));

/**
 * A live run's network.json at speed-up 1000 (1 wall ms = 1 emulated s) whose pings from c to b
 * reached b's mailbox `arrived` ms after they were sent and waited there `waited` ms, and whose
 * timers reached their mailbox `fireLag` ms late.
 */
function split(arrived: LatencyState, waited: LatencyState, fireLag = histogram([0.001])): MeasuredNetworkFile {
  const felt = histogram([arrived.max_ms + waited.max_ms]);
  return {
    format: MEASURED_NETWORK_FORMAT,
    speedup: 1000,
    links: { 'c->b': felt },
    types: { ping: { 'c->b': felt } },
    // What the replay raced timers against before the split: each message's whole felt delay.
    timer_lag: histogram([0.001]),
    mailbox: {
      arrived_by_type: { ping: { 'c->b': arrived } },
      waited_by_type: { ping: { 'c->b': waited } },
      timer_fire_lag: fireLag,
    },
  };
}

/** A simulation replaying `file` (no links of its own), network seed `seed`. */
function replayOver(file: MeasuredNetworkFile, seed: number): SimRuntime<Msg> {
  return new SimRuntime<Msg>({ seed, network: { latency_ms: 0, jitter_ms: 0 }, measured: new MeasuredNetwork(file) });
}

/** A ping's mean arrival from c to b, over standard normal scores, sent at `t_s`. */
function meanPing(model: MailboxModel, t_s: number): number {
  const n = 4000;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const z = inverseNormalCdf((i + 0.5) / n);
    sum += model.arrivalAt_s('c', 'b', model.arrivalQuantile('c', 'b', 'ping', t_s, z), 'ping');
  }
  return sum / n;
}

/**
 * The model of a run whose pings from c to b, one type only, reached the mailbox as `first` has it
 * when sent in the window 0..2000 s and as `second` has it in 2000..4000 s, with no wait there.
 */
function twoWindows(first: LatencyState, second: LatencyState): MailboxModel {
  const whole = new LatencyHistogram();
  whole.merge(first);
  whole.merge(second);
  const at = split(whole.state(), histogram([0.001]));
  const file: MeasuredNetworkFile = {
    ...at,
    mailbox: {
      ...at.mailbox!,
      arrived_timeline: {
        bin_s: 2000,
        links: { 'c->b': { '0': first, '1': second } },
        counts_by_type: { ping: { 'c->b': { '0': first.count, '1': second.count } } },
      },
    },
  };
  return MailboxModel.of(new MeasuredNetwork(file))!;
}

/** A link's part taking 8..10 s in the window 0..2000 s and 1..3 s in 2000..4000 s: the whole, and the timeline. */
function slowThenFast() {
  const slow = uniform(8, 10, 500);
  const fast = uniform(1, 3, 500);
  const whole = new LatencyHistogram();
  whole.merge(slow);
  whole.merge(fast);
  return { whole: whole.state(), timeline: { bin_s: 2000, links: { 'c->b': { '0': slow, '1': fast } } } };
}

/**
 * `from`/send (c/send by default; b/send is in b/rec's own process) pings b/rec once a second
 * for 4000 s, each ping of its own job, replayed over `file`: the mean delay of the pings sent in
 * the first 2000 s, and of those sent after.
 */
function replayedHalves(file: MeasuredNetworkFile, from = 'c'): [number, number] {
  const rt = replayOver(file, 2);
  const got: { t: number; n: number }[] = [];
  rt.spawn({
    address: 'b/rec',
    location: 'b',
    actor: {
      receive: (ctx: ActorContext<Msg>, m: Msg) => {
        if (m.type === 'ping') got.push({ t: ctx.now(), n: m.n });
      },
    },
  });
  // One ping a second for 4000 s, each of its own job (delays close in time are alike over about
  // 90 s here, CORRELATED_DELAYS mean delays: each window holds many such stretches).
  let n = 0;
  const tick = (ctx: ActorContext<Msg>) => {
    ctx.send('b/rec', { type: 'ping', jobId: `j${n}`, n });
    n++;
    if (n < 4000) ctx.schedule(1, { type: 'tick' });
  };
  rt.spawn({ address: `${from}/send`, location: from, actor: { start: tick, receive: tick } as Actor<Msg> });
  rt.start();
  rt.run();
  const delay = (g: { t: number; n: number }) => g.t - g.n;
  const meanOf = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return [meanOf(got.filter((g) => g.n < 2000).map(delay)), meanOf(got.filter((g) => g.n >= 2000).map(delay))];
}

/** b/claims sets a time-out due at 10 and records what it handles, and when; c/meta sends it an answer at 0. */
function race(file: MeasuredNetworkFile): string[] {
  const rt = replayOver(file, 1);
  const seen: string[] = [];
  rt.spawn({
    address: 'b/claims',
    location: 'b',
    actor: {
      start: (ctx: ActorContext<Msg>) => void ctx.schedule(10, { type: 'tick' }),
      receive: (ctx: ActorContext<Msg>, m: Msg) => void seen.push(`${m.type} ${Math.round(ctx.now() * 1000) / 1000}`),
    },
  });
  rt.spawn({
    address: 'c/meta',
    location: 'c',
    actor: {
      start: (ctx: ActorContext<Msg>) => ctx.send('b/claims', { type: 'ping', jobId: 'j', n: 1 }),
      receive: () => undefined,
    },
  });
  rt.start();
  rt.run();
  return seen;
}

/**
 * `from`/send sends b/rec, in one turn, job x's ping, job y's pong and job x's pong, replayed over
 * `file`: what b/rec handled, and when.
 */
function pingPongPing(file: MeasuredNetworkFile, from: string): string[] {
  const rt = replayOver(file, 4);
  const got: string[] = [];
  rt.spawn({
    address: 'b/rec',
    location: 'b',
    actor: {
      receive: (ctx: ActorContext<Msg>, m: Msg) => {
        if (m.type !== 'tick') got.push(`${m.type} ${m.jobId} ${Math.round(ctx.now())}`);
      },
    },
  });
  rt.spawn({
    address: `${from}/send`,
    location: from,
    actor: {
      start: (ctx: ActorContext<Msg>) => {
        ctx.send('b/rec', { type: 'ping', jobId: 'x', n: 1 });
        ctx.send('b/rec', { type: 'pong', jobId: 'y', n: 2 });
        ctx.send('b/rec', { type: 'pong', jobId: 'x', n: 3 });
      },
      receive: () => undefined,
    },
  });
  rt.start();
  rt.run();
  return got;
}

describe("a live run's mailboxes, replayed (simulate --network-from with network.json's mailbox)", () => {
  it('handles a time-out after an answer that reached the mailbox before the timer fired, however long the answer then waited there, as live', () => {
    // The answer reaches b at 8 and waits 5 there: handled at 13, after the time-out's due time (10).
    // Live, the timer fires at 10 into a mailbox that already holds the answer, so the answer goes first.
    expect(race(split(histogram([8]), histogram([5])))).toEqual(['ping 13', 'tick 13']);
    // Without the split the replay raced the timer against the whole 13: the time-out came first.
    const { mailbox: _mailbox, ...whole } = split(histogram([8]), histogram([5]));
    expect(race(whole)).toEqual(['tick 10', 'ping 13']);
    // An answer that reaches the mailbox after the timer fired comes after it.
    expect(race(split(histogram([12]), histogram([1])))).toEqual(['tick 10', 'ping 13']);
  });

  it("keeps one job's messages in order between two actors and lets another job's pass, as each type's measured delay already holds the wait behind the connection", () => {
    // Pings reached b in 8 s, pongs in 2 s (enough of each, MIN_TYPE_SAMPLES, to be drawn apart).
    // Sent together: job x's ping, then job y's pong, then job x's pong.
    const many = (ms: number) => histogram(Array.from({ length: MIN_TYPE_SAMPLES }, () => ms));
    const file = split(many(8), many(0.001));
    const two: MeasuredNetworkFile = {
      ...file,
      types: { ...file.types, pong: { 'c->b': many(2) } },
      mailbox: {
        ...file.mailbox!,
        arrived_by_type: { ...file.mailbox!.arrived_by_type, pong: { 'c->b': many(2) } },
        waited_by_type: { ...file.mailbox!.waited_by_type, pong: { 'c->b': many(0.001) } },
      },
    };
    // y's pong takes its own 2 s; x's pong stays behind x's ping (a job's end never overtakes its start).
    expect(pingPongPing(two, 'c')).toEqual(['pong y 2', 'ping x 8', 'pong x 8']);
  });

  it("follows the run's timeline: a link slow in one window of the run and fast in the next is replayed slow, then fast, and its whole distribution stays", () => {
    // Windows of 2000 s: in window 0 (sent at 0..2000 s) the link took 8..10 s, in window 1 (2000..4000 s) 1..3 s.
    const { whole, timeline } = slowThenFast();
    const file: MeasuredNetworkFile = {
      ...split(whole, histogram([0.001])),
      mailbox: {
        ...split(whole, histogram([0.001])).mailbox!,
        arrived_timeline: timeline,
      },
    };
    const model = MailboxModel.of(new MeasuredNetwork(file))!;
    // Half the link's messages were slow ones: a slow window's median is the upper half's, about
    // 0.75 of the way up the whole run.
    expect(model.rankAt('c', 'b', 500, 0.5)).toBeGreaterThan(0.7);
    expect(model.rankAt('c', 'b', 2500, 0.5)).toBeLessThan(0.3);
    // A window's ranks stay in its own half: its lowest and highest draws too.
    expect(model.rankAt('c', 'b', 500, 0.01)).toBeGreaterThan(0.45);
    expect(model.rankAt('c', 'b', 2500, 0.99)).toBeLessThan(0.55);
    // Outside the run's windows, or on a link without a timeline: the whole run's distribution.
    expect(model.rankAt('c', 'b', 4500, 0.3)).toBe(0.3);
    expect(model.rankAt('b', 'c', 500, 0.3)).toBe(0.3);

    const [first, second] = replayedHalves(file);
    // Without the timeline both halves would average the whole link's 5.5 s.
    expect(first).toBeGreaterThan(7.5);
    expect(second).toBeLessThan(3.5);
  });

  it("follows the waits' timeline too: a receiver behind in one window of the run and not in the next keeps its waits long, then short", () => {
    // Arrivals at once; waits of 8..10 s for what reached the mailbox in window 0, 1..3 s in window 1.
    const { whole, timeline } = slowThenFast();
    const at = split(histogram([0.001]), whole);
    const file: MeasuredNetworkFile = {
      ...at,
      mailbox: { ...at.mailbox!, waited_timeline: timeline },
    };
    const model = MailboxModel.of(new MeasuredNetwork(file))!;
    expect(model.waitRankAt('c', 'b', 500, 0.5)).toBeGreaterThan(0.7);
    expect(model.waitRankAt('c', 'b', 2500, 0.5)).toBeLessThan(0.3);
    // The arrivals have no timeline here: their draws stay the whole run's.
    expect(model.rankAt('c', 'b', 500, 0.3)).toBe(0.3);
    const [first, second] = replayedHalves(file);
    // Without the waits' timeline both halves would average the whole 5.5 s.
    expect(first).toBeGreaterThan(7.5);
    expect(second).toBeLessThan(3.5);
  });

  it("keeps each type's own delays: a type crowded into the run's slow window draws its slow tail there once, not again", () => {
    // The link c->b took 8..10 s in window 0 and 1..3 s in window 1, 500 messages each. Four in
    // five pings were sent in window 0 (so the pings' own delays are mostly slow), four in five
    // pongs in window 1.
    const slow = (n: number) => uniform(8, 10, n);
    const fast = (n: number) => uniform(1, 3, n);
    const merged = (...parts: LatencyState[]) => {
      const h = new LatencyHistogram();
      for (const p of parts) h.merge(p);
      return h.state();
    };
    const at = split(merged(slow(400), fast(100)), histogram([0.001]));
    const timeline = { bin_s: 2000, links: { 'c->b': { '0': slow(500), '1': fast(500) } } };
    const counts_by_type = { ping: { 'c->b': { '0': 400, '1': 100 } }, pong: { 'c->b': { '0': 100, '1': 400 } } };
    const file = (counted: boolean): MeasuredNetworkFile => ({
      ...at,
      mailbox: {
        ...at.mailbox!,
        arrived_by_type: {
          ping: { 'c->b': merged(slow(400), fast(100)) },
          pong: { 'c->b': merged(slow(100), fast(400)) },
        },
        arrived_timeline: counted ? { ...timeline, counts_by_type } : timeline,
      },
    });
    const counted = MailboxModel.of(new MeasuredNetwork(file(true)))!;
    // Live, a ping took 8..10 s in window 0 and 1..3 s in window 1: 7.6 s over its messages.
    expect(meanPing(counted, 500)).toBeGreaterThan(8.5);
    expect(meanPing(counted, 2500)).toBeLessThan(3.5);
    const overall = 0.8 * meanPing(counted, 500) + 0.2 * meanPing(counted, 2500);
    expect(Math.abs(overall - 7.6) / 7.6).toBeLessThan(0.05);
    // Scored against the link's windows alike (an older file), a ping sent in the fast window drew
    // from its own slow majority and the pings took longer than they had live.
    const alike = MailboxModel.of(new MeasuredNetwork(file(false)))!;
    expect(meanPing(alike, 2500)).toBeGreaterThan(5);
    expect(0.8 * meanPing(alike, 500) + 0.2 * meanPing(alike, 2500)).toBeGreaterThan(8.2);
  });

  it('replays a window with its own histogram: a window whose few slowest messages make its mean keeps that mean', () => {
    // Window 0 (sent at 0..2000 s): 450 messages of 1..3 ms and 50 held for a whole turn, 95..105 ms
    // (mean 11.8 ms); window 1: 500 of 1..3 ms. One type, so its own delays are the link's.
    const slowTail = (() => {
      const h = new LatencyHistogram();
      h.merge(uniform(1, 3, 450));
      h.merge(uniform(95, 105, 50));
      return h.state();
    })();
    const model = twoWindows(slowTail, uniform(1, 3, 500));
    const live = slowTail.sum_ms / slowTail.count;
    // A normal score's mean and spread for the window (what a replay drew before) put it a fifth short.
    expect(Math.abs(meanPing(model, 500) - live) / live).toBeLessThan(0.05);
    expect(meanPing(model, 2500)).toBeLessThan(3);
  });

  it("replays a thin window with its own messages alone: a quiet stretch after the start's burst does not draw the burst's tail", () => {
    // Window 0: the burst, 500 messages of 95..105 ms; window 1: a quiet stretch, 4 messages of 1..3 ms.
    const model = twoWindows(uniform(95, 105, 500), uniform(1, 3, 4));
    // Pulled towards the whole run as if it held 5 more messages (the replay before), the quiet
    // window drew a mean of 55 ms; live its 4 messages took 2.
    expect(meanPing(model, 2500)).toBeLessThan(3.5);
    expect(meanPing(model, 500)).toBeGreaterThan(94);
  });

  it('gives messages between actors that pace each other the delays their messages had live, not those of the fast stretches', () => {
    // Within b, half the messages live took 1 s and half 100 s (at 1000x), all in one window.
    const whole = histogram([...Array.from({ length: 500 }, () => 1), ...Array.from({ length: 500 }, () => 100)]);
    const at = split(histogram([0.001]), histogram([0.001]));
    const file: MeasuredNetworkFile = {
      ...at,
      links: { ...at.links, 'b->b': whole },
      types: { ping: { ...at.types!['ping'], 'b->b': whole } },
      mailbox: {
        ...at.mailbox!,
        local_timeline: {
          bin_s: 1e9,
          links: { 'b->b': { '0': whole } },
          counts_by_type: { ping: { 'b->b': { '0': 1000 } } },
        },
      },
    };
    // b/x and b/y answer each other at once, each message of its own job: the next leaves when the
    // last arrives, as a site's claim waits for its grant. A draw alike over stretches of time gave
    // them few of the slow stretches (a slow one holds one message where a fast one sends a hundred),
    // and the messages a mean of about 3 s where live they had 50.5 s.
    const rt = replayOver(file, 6);
    const delays: number[] = [];
    let sent = 0;
    const answer = (self: string, other: string) => ({
      start: (ctx: ActorContext<Msg>) => {
        if (self === 'b/x') ctx.send(other, { type: 'ping', jobId: 'j0', n: 0 });
      },
      receive: (ctx: ActorContext<Msg>, m: Msg) => {
        if (m.type !== 'ping') return;
        delays.push(ctx.now() - sent);
        sent = ctx.now();
        if (delays.length < 4000) ctx.send(other, { type: 'ping', jobId: `j${m.n + 1}`, n: m.n + 1 });
      },
    });
    rt.spawn({ address: 'b/x', location: 'b', actor: answer('b/x', 'b/y') });
    rt.spawn({ address: 'b/y', location: 'b', actor: answer('b/y', 'b/x') });
    rt.start();
    rt.run();
    const mean = delays.reduce((a, b) => a + b, 0) / delays.length;
    expect(delays.length).toBe(4000);
    expect(Math.abs(mean - 50.5) / 50.5).toBeLessThan(0.1);
  });

  it("follows a process's own timeline: its messages between its own actors slow in one window of the run and fast in the next", () => {
    // Within b, pings took 8..10 s when sent in window 0 and 1..3 s in window 1.
    const { whole, timeline } = slowThenFast();
    const at = split(histogram([0.001]), histogram([0.001]));
    const local = { bin_s: 2000, links: { 'b->b': timeline.links['c->b'] } };
    const file = (withTimeline: boolean): MeasuredNetworkFile => ({
      ...at,
      links: { ...at.links, 'b->b': whole },
      types: { ping: { ...at.types!['ping'], 'b->b': whole } },
      mailbox: {
        ...at.mailbox!,
        ...(withTimeline
          ? { local_timeline: { ...local, counts_by_type: { ping: { 'b->b': { '0': 500, '1': 500 } } } } }
          : {}),
      },
    });
    const [first, second] = replayedHalves(file(true), 'b');
    expect(first).toBeGreaterThan(7.5);
    expect(second).toBeLessThan(3.5);
    // Without it both halves draw from the whole run's 1..10 s.
    const [a, b] = replayedHalves(file(false), 'b');
    expect(Math.abs(a - b)).toBeLessThan(2);
  });

  it("keeps one job's messages in order within a process and lets another job's pass, as between processes; whole delays keep all in order", () => {
    // Within b, pings took 8 s and pongs 2 s. Sent together: job x's ping, job y's pong, job x's pong.
    const many = (ms: number) => histogram(Array.from({ length: MIN_TYPE_SAMPLES }, () => ms));
    const at = split(histogram([0.001]), histogram([0.001]));
    const file: MeasuredNetworkFile = {
      ...at,
      links: { ...at.links, 'b->b': many(5) },
      types: { ping: { ...at.types!['ping'], 'b->b': many(8) }, pong: { 'b->b': many(2) } },
    };
    const replay = (f: MeasuredNetworkFile) => pingPongPing(f, 'b');
    expect(replay(file)).toEqual(['pong y 2', 'ping x 8', 'pong x 8']);
    // The replay before the split (no mailbox in the file, or --whole-delays): every message of the process in order.
    const { mailbox: _mailbox, ...whole } = file;
    expect(replay(whole)).toEqual(['ping x 8', 'pong y 8', 'pong x 8']);
  });

  it("draws a timer's lateness from its own location's timeline: late in one window of the run and on time in the next", () => {
    const { timeline } = slowThenFast();
    const at = split(histogram([0.001]), histogram([0.001]), histogram([0.5]));
    const model = MailboxModel.of(
      new MeasuredNetwork({
        ...at,
        mailbox: { ...at.mailbox!, timer_fire_timeline: { bin_s: 2000, locations: { b: timeline.links['c->b'] } } },
      }),
    )!;
    const mean = (location: string, due_s: number) => {
      let sum = 0;
      for (let i = 0; i < 1000; i++) sum += model.timerFireLag_s(location, due_s, inverseNormalCdf((i + 0.5) / 1000));
      return sum / 1000;
    };
    // b's timers reached their mailbox 8..10 s late when due in window 0, 1..3 s in window 1.
    expect(mean('b', 500)).toBeGreaterThan(7.5);
    expect(mean('b', 2500)).toBeLessThan(3.5);
    expect(model.meanTimerFireLag_s('b')).toBeCloseTo(5.5, 0);
    // A location the timeline does not name: every timer's lateness (0.5 s here).
    expect(mean('c', 500)).toBeCloseTo(0.5, 1);
  });

  it('rejects a network.json whose mailbox split is malformed, naming the field; an older file without one replays as before', () => {
    const good = split(histogram([8]), histogram([5]));
    const parse = (f: unknown) => MeasuredNetwork.parse(JSON.stringify(f), 'n.json');
    expect(() => parse({ ...good, mailbox: [] })).toThrow(/n\.json: mailbox must be an object/);
    expect(() => parse({ ...good, mailbox: { ...good.mailbox, waited_by_type: undefined } })).toThrow(
      /n\.json: mailbox\.waited_by_type must be an object of message type/,
    );
    expect(() =>
      parse({ ...good, mailbox: { ...good.mailbox, arrived_by_type: { ping: { cb: histogram([1]) } } } }),
    ).toThrow(/mailbox\.arrived_by_type\["ping"\]\["cb"\] must be named from->to/);
    expect(() => parse({ ...good, mailbox: { ...good.mailbox, timer_fire_lag: { count: 1 } } })).toThrow(
      /n\.json: mailbox\.timer_fire_lag \.sum_ms must be a non-negative number/,
    );
    const timeline = (t: unknown) => parse({ ...good, mailbox: { ...good.mailbox, arrived_timeline: t } });
    expect(() => timeline({ bin_s: 0, links: {} })).toThrow(
      /mailbox\.arrived_timeline\.bin_s must be a positive number/,
    );
    expect(() => timeline({ bin_s: 10, links: { 'c->b': { w: histogram([1]) } } })).toThrow(
      /mailbox\.arrived_timeline\.links\["c->b"\]\["w"\] must be named by a whole window number/,
    );
    expect(MailboxModel.of(timeline({ bin_s: 10, links: { 'c->b': { '3': histogram([1]) } } }))).toBeDefined();
    expect(() => parse({ ...good, mailbox: { ...good.mailbox, waited_timeline: { bin_s: -1, links: {} } } })).toThrow(
      /mailbox\.waited_timeline\.bin_s must be a positive number/,
    );
    expect(() => parse({ ...good, mailbox: { ...good.mailbox, timer_fire_timeline: { bin_s: 0 } } })).toThrow(
      /mailbox\.timer_fire_timeline\.bin_s must be a positive number/,
    );
    expect(() =>
      parse({
        ...good,
        mailbox: { ...good.mailbox, timer_fire_timeline: { bin_s: 1, locations: { b: { x: histogram([1]) } } } },
      }),
    ).toThrow(/mailbox\.timer_fire_timeline\.locations\["b"\]\["x"\] must be named by a whole window number/);
    expect(() => parse({ ...good, mailbox: { ...good.mailbox, local_timeline: { bin_s: 0, links: {} } } })).toThrow(
      /mailbox\.local_timeline\.bin_s must be a positive number/,
    );
    const counts = (c: unknown) => timeline({ bin_s: 10, links: {}, counts_by_type: c });
    expect(() => counts([])).toThrow(/mailbox\.arrived_timeline\.counts_by_type must be an object of message type/);
    expect(() => counts({ ping: { cb: { '3': 1 } } })).toThrow(
      /mailbox\.arrived_timeline\.counts_by_type\["ping"\]\["cb"\] must be named from->to/,
    );
    expect(() => counts({ ping: { 'c->b': { x: 1 } } })).toThrow(/\["x"\] must be named by a whole window number/);
    expect(() => counts({ ping: { 'c->b': { '3': -1 } } })).toThrow(
      /counts_by_type\["ping"\]\["c->b"\]\["3"\] must be a count of messages, 0 or more/,
    );
    expect(MailboxModel.of(counts({ ping: { 'c->b': { '3': 2 } } }))).toBeDefined();
    const { mailbox: _mailbox, ...older } = good;
    expect(MailboxModel.of(parse(older))).toBeUndefined();
  });

  it('scores normal quantiles both ways', () => {
    for (const p of [1e-6, 0.01, 0.1, 0.5, 0.9, 0.975, 0.999999])
      expect(normalCdf(inverseNormalCdf(p))).toBeCloseTo(p, 6);
    expect(inverseNormalCdf(0.975)).toBeCloseTo(1.959964, 5);
    expect(inverseNormalCdf(0)).toBe(-8);
    expect(inverseNormalCdf(1)).toBe(8);
  });
});
