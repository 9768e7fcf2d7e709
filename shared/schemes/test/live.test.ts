import { connect, type NatsConnection } from '@nats-io/transport-node';
import { encode } from '@msgpack/msgpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finalState } from '@gridemu/metrics';
import type { Job } from '@gridemu/model';
import { MessageType, siteAddress, type Message } from '@gridemu/protocol';
import { encodeEnvelope, PROTOCOL_VERSION } from '@gridemu/protocol/wire';
import { silentLogger, type Actor } from '@gridemu/runtime';
import { LiveRuntime, wallNow_ms } from '@gridemu/runtime/live';
import { actorSubject, NatsTransport } from '@gridemu/transport-nats';
import { startNatsServer, type NatsServerHandle } from '@gridemu/testkit';
import { MESSAGE_CHECK, planGrid, LATEST_VALUE_TOPICS, LOAD_TOPIC, Paper001MessageType } from '../src/index.js';
import type { Paper001Scheme } from '../src/paper-001/index.js';
import { specOf } from './helpers.js';

/** The same actors as in simulation, over a real nats-server. */
let nats: NatsServerHandle;
let nc: NatsConnection;
beforeAll(async () => {
  nats = await startNatsServer();
  nc = await connect({ servers: nats.url, name: 'gridemu-live-test' });
});
afterAll(async () => {
  await nc?.drain();
  await nats?.stop();
});

const SITES = [
  { id: 'a', cpus: 8 },
  { id: 'b', cpus: 6 },
  { id: 'c', cpus: 8 },
];

/** 40 jobs over 400 emulated seconds, a few too wide for site b. */
function workload(): Job[] {
  const jobs: Job[] = [];
  for (let i = 0; i < 40; i++) {
    const run = 5 + ((i * 37) % 60);
    jobs.push({
      id: `w!${i}`,
      workload: 'w',
      origin: SITES[i % 3]!.id,
      submit_s: 10 * i,
      run_s: run,
      estimate_s: run + ((i * 13) % 40),
      procs: 1 + ((i * 5) % 8),
    });
  }
  return jobs;
}

/** The counters of several runtimes added up. */
function totals(rts: readonly LiveRuntime[]) {
  const counters = new Map<string, number>();
  const messages = new Map<string, number>();
  for (const rt of rts) {
    for (const [k, v] of rt.counters) counters.set(k, (counters.get(k) ?? 0) + v);
    for (const [k, v] of rt.messages.all) messages.set(k, (messages.get(k) ?? 0) + v);
  }
  return { counters, messages };
}

/** One LiveRuntime per location, as the site processes of a live run have: what crosses locations crosses the server. */
async function runLive(scheme: Paper001Scheme, run: string, during?: () => void) {
  const jobs = workload();
  const spec = specOf({
    sites: SITES,
    local: { policy: scheme === 'k-dual' ? 'dual-easy' : 'easy' },
    meta: { scheme, k: 2, load_period_s: 20, claim_timeout_s: 5, claim: 'hold' },
  });
  const plan = planGrid(spec, jobs);
  let fatal: Error | undefined;
  const byLocation = new Map<string, LiveRuntime>();
  for (const p of plan.actors) {
    const where = p.location ?? 'driver';
    let rt = byLocation.get(where);
    if (!rt)
      byLocation.set(
        where,
        (rt = new LiveRuntime({
          transport: new NatsTransport(nc, run),
          run,
          seed: 1,
          log: silentLogger,
          check: MESSAGE_CHECK,
          onFatal: (e) => (fatal = e),
        })),
      );
    rt.spawn(p);
  }
  const rts = [...byLocation.values()];
  for (const rt of rts) await rt.ready();
  const epoch_ms = wallNow_ms() + 50;
  for (const rt of rts) rt.start(0, 2000, epoch_ms); // 400 emulated seconds of submissions in 0.2 s of wall time
  during?.();
  const deadline = Date.now() + 30_000;
  while (!plan.driver.done && !fatal && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  for (const rt of rts) await rt.stop();
  if (fatal) throw fatal;
  expect(plan.driver.done, `${scheme}: not every job finished within 30 s`).toBe(true);
  return { records: plan.driver.records, ...totals(rts), jobs };
}

describe('live runtime over a real nats-server', () => {
  for (const scheme of [
    'independent',
    'centralized',
    'hierarchical',
    'distributed',
    'k-distributed',
    'k-dual',
  ] as const) {
    it(`${scheme}: every job ends with one outcome; each ran at exactly one site, within capacity`, async () => {
      const { records, counters, messages, jobs } = await runLive(scheme, `live-${scheme}`);
      expect(records.map((r) => r.job.id)).toEqual(jobs.map((j) => j.id));
      for (const r of records) {
        expect(['COMPLETED_SUCCESSFULLY', 'REJECTED']).toContain(finalState(r));
        if (r.start_s !== undefined) expect(r.start_s).toBeGreaterThanOrEqual(r.job.submit_s - 1e-6);
      }
      expect(counters.get('messages.malformed') ?? 0).toBe(0);
      expect(counters.get('actor.errors') ?? 0).toBe(0);
      expect([...messages.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(jobs.length * 4);
      // Messages between actors of one location stay off the server; the rest cross it.
      expect(counters.get('bus.published') ?? 0).toBeGreaterThan(0);
      const all = [...messages.values()].reduce((a, b) => a + b, 0);
      // Centralized: every message is between the central scheduler, the executors and the driver.
      if (scheme === 'centralized') expect(counters.get('bus.published')).toBe(all);
      else expect(counters.get('bus.published') ?? 0).toBeLessThan(all);
    });
  }

  it("counts and drops malformed messages, and forged senders, on the run's subjects, and keeps running", async () => {
    const run = 'live-fuzz';
    const target = actorSubject(run, siteAddress('a', 'scheduler'), 'x');
    // Well formed, but claiming to come from b's metascheduler on a subject that names x.
    const forged = encode({
      v: PROTOCOL_VERSION,
      run,
      from: 'b/meta',
      to: 'a/scheduler',
      msg: { type: 'copy.cancel', jobId: 'w!1', granted_s: 0 },
    });
    const garbage: Uint8Array[] = [
      new Uint8Array([0xc1, 0xff, 0x00]), // not msgpack
      encode({ hello: 'world' }), // not an envelope
      encode({
        v: PROTOCOL_VERSION + 7,
        run,
        from: 'x',
        to: 'a/scheduler',
        msg: { type: 'job.finished', jobId: 'w!1' },
      }), // unknown version
      encode({ v: PROTOCOL_VERSION, run, from: 'x', to: 'a/scheduler', msg: { type: 'job.finished', jobId: 42 } }), // wrong type
      encode({ v: PROTOCOL_VERSION, run, from: 'x', to: 'a/scheduler', msg: { type: 'job.teleport' } }), // unknown message
      new Uint8Array(200 * 1024), // huge
    ];
    const { records, counters } = await runLive('k-distributed', run, () => {
      for (let i = 0; i < 5; i++) for (const g of [...garbage, forged]) nc.publish(target, g);
      for (let i = 0; i < 200; i++) nc.publish(target, crypto.getRandomValues(new Uint8Array(1 + (i % 64))));
    });
    expect(counters.get('messages.malformed')).toBe(5 * garbage.length + 200);
    expect(counters.get('messages.forged_sender')).toBe(5);
    expect(records.every((r) => finalState(r) !== 'COMPLETED_KILLED')).toBe(true);
  });

  it('resends a durable message until its receiver acknowledges it, and delivers it once (issue 11)', async () => {
    const run = 'live-reliable';
    const reliable = { reliable: { types: new Set<string>([MessageType.JobCompleted]), resend_ms: 50 } };
    const got: string[] = [];
    const recorder: Actor<Message> = {
      receive: (_ctx, msg) => void got.push(msg.type === MessageType.JobCompleted ? msg.jobId : msg.type),
    };
    const sender: Actor<Message> = {
      start: (ctx) => ctx.send('b/rec', { type: MessageType.JobCompleted, jobId: 'w!1', site: 'a', time_s: 0 }),
      receive: () => undefined,
    };
    const a = new LiveRuntime({
      transport: new NatsTransport(nc, run),
      run,
      seed: 1,
      log: silentLogger,
      check: MESSAGE_CHECK,
      ...reliable,
    });
    a.spawn({ address: 'a/send', location: 'a', actor: sender });
    await a.ready();
    a.start(0, 1000); // sends at once, to nobody: b is not listening yet
    await new Promise((r) => setTimeout(r, 120));
    const b = new LiveRuntime({
      transport: new NatsTransport(nc, run),
      run,
      seed: 1,
      log: silentLogger,
      check: MESSAGE_CHECK,
      ...reliable,
    });
    b.spawn({ address: 'b/rec', location: 'b', actor: recorder });
    await b.ready();
    b.start(0, 1000);
    // And a copy of a durable message b has already had: acknowledged again, not delivered.
    const dup = encodeEnvelope({
      run,
      from: 'x/send',
      to: 'b/rec',
      msg: { type: MessageType.JobCompleted, jobId: 'w!2', site: 'x', time_s: 0 },
      lseq: 1,
    });
    nc.publish(actorSubject(run, 'b/rec', 'x/send'), dup);
    nc.publish(actorSubject(run, 'b/rec', 'x/send'), dup);
    const deadline = Date.now() + 30_000; // a bound for a broken run; a working one is done in well under a second
    while ((got.length < 2 || !b.counters.get('bus.duplicates')) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    // Time for a second delivery of the duplicate, which must not come.
    await new Promise((r) => setTimeout(r, 200));
    await a.stop();
    await b.stop();
    expect(got.sort()).toEqual(['w!1', 'w!2']);
    expect(a.counters.get('bus.resent')).toBeGreaterThan(0);
    // At least the second copy of x's message; a resend of a's that crossed b's acknowledgement
    // (a machine slow enough to take 50 ms over it) is one more, dropped the same way.
    expect(b.counters.get('bus.duplicates')).toBeGreaterThanOrEqual(1);
  });

  it('puts at most one load report per sender on the bus every interval, the newest, while its own process hears each (issue 15)', async () => {
    const run = 'live-throttle';
    const REPORTS = 200;
    // One report per emulated second at speed-up 1,000: one per wall ms, against a 20 ms bound.
    let i = 0;
    const publisher: Actor<Message> = {
      start: (ctx) => void ctx.schedule(1, { type: Paper001MessageType.LoadTick }),
      receive(ctx, msg) {
        if (msg.type !== Paper001MessageType.LoadTick) return;
        i++;
        ctx.publish(LOAD_TOPIC, { type: Paper001MessageType.LoadReport, site: 'a', load: i, time_s: ctx.now() });
        if (i < REPORTS) ctx.schedule(1, { type: Paper001MessageType.LoadTick });
      },
    };
    const heard = { a: [] as number[], b: [] as number[] };
    const listener = (into: number[]): Actor<Message> => ({
      receive: (_ctx, msg) => void (msg.type === Paper001MessageType.LoadReport && into.push(msg.load)),
    });
    const throttle = { latestValue: { topics: LATEST_VALUE_TOPICS, interval_ms: 20 } };
    const a = new LiveRuntime({
      transport: new NatsTransport(nc, run),
      run,
      seed: 1,
      log: silentLogger,
      check: MESSAGE_CHECK,
      ...throttle,
    });
    const b = new LiveRuntime({
      transport: new NatsTransport(nc, run),
      run,
      seed: 1,
      log: silentLogger,
      check: MESSAGE_CHECK,
      ...throttle,
    });
    a.spawn({ address: 'a/scheduler', location: 'a', actor: publisher });
    a.spawn({ address: 'a/meta', location: 'a', topics: [LOAD_TOPIC], actor: listener(heard.a) });
    b.spawn({ address: 'b/meta', location: 'b', topics: [LOAD_TOPIC], actor: listener(heard.b) });
    await a.ready();
    await b.ready();
    const epoch_ms = wallNow_ms() + 50;
    a.start(0, 1000, epoch_ms);
    b.start(0, 1000, epoch_ms);
    const deadline = Date.now() + 30_000; // a bound for a broken run; a working one is done in well under a second
    while (heard.b.at(-1) !== REPORTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50));
    await a.stop();
    await b.stop();
    const superseded = a.counters.get('messages.superseded') ?? 0;
    expect(heard.a).toEqual(Array.from({ length: REPORTS }, (_, i) => i + 1));
    // About 200 wall ms of reports at one per 20 ms; a loaded machine only sends fewer.
    expect(heard.b.length).toBeLessThanOrEqual(REPORTS / 20 + 3);
    expect(heard.b.length).toBeGreaterThanOrEqual(2);
    expect(heard.b.at(-1)).toBe(REPORTS); // the newest always goes
    expect([...heard.b].sort((x, y) => x - y)).toEqual(heard.b); // in order
    expect(heard.b.length + superseded).toBe(REPORTS); // every report went or was replaced by a newer one
    expect(a.counters.get('bus.published')).toBe(heard.b.length);
  });

  it('keeps two runs on one server apart', async () => {
    const [x, y] = await Promise.all([runLive('distributed', 'live-apart-x'), runLive('distributed', 'live-apart-y')]);
    expect(x.counters.get('messages.malformed') ?? 0).toBe(0);
    expect(y.counters.get('messages.malformed') ?? 0).toBe(0);
    expect(x.records.filter((r) => r.finish_s !== undefined).length).toBe(
      y.records.filter((r) => r.finish_s !== undefined).length,
    );
  });

  it('gives every clock read inside one handler the same time, and handles a timer at the time it was due (issue 16)', async () => {
    // At speed-up 100,000 the 5 ms spent inside the handler are 500 emulated seconds.
    const seen: { kind: string; first: number; second: number }[] = [];
    const probe: Actor<Message> = {
      receive(ctx, msg) {
        const first = ctx.now();
        const until = performance.now() + 5;
        while (performance.now() < until) {
          // busy: the wall clock moves on, the handler's time must not
        }
        seen.push({ kind: msg.type, first, second: ctx.now() });
        if (msg.type === MessageType.SubmitDue) ctx.schedule(100, { type: Paper001MessageType.LoadTick });
      },
    };
    const rt = new LiveRuntime({
      transport: new NatsTransport(nc, 'live-clock'),
      run: 'live-clock',
      seed: 1,
      log: silentLogger,
    });
    rt.spawn({ address: 'probe', location: undefined, actor: probe });
    await rt.ready();
    rt.start(0, 100_000);
    nc.publish(
      actorSubject('live-clock', 'probe', 'test'),
      encode({
        v: PROTOCOL_VERSION,
        run: 'live-clock',
        from: 'test',
        to: 'probe',
        msg: { type: MessageType.SubmitDue },
      }),
    );
    const deadline = Date.now() + 30_000; // a bound for a broken run; a working one is done in well under a second
    while (seen.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await rt.stop();
    expect(seen.map((s) => s.kind)).toEqual([MessageType.SubmitDue, Paper001MessageType.LoadTick]);
    for (const s of seen) expect(s.second).toBe(s.first);
    // The timer fired well over 100 emulated seconds late in wall time (the handler alone took 500),
    // yet the actor handles it at its due time.
    expect(seen[1]!.first).toBe(seen[0]!.first + 100);
  });
});
