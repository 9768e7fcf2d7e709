import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRun, jobsCsvText } from '@gridemu/metrics';
import type { Job } from '@gridemu/model';
import { type Message } from '@gridemu/protocol';
import { silentLogger, type ActorPlacement, type BusTarget, type Journal, type Transport } from '@gridemu/runtime';
import { LiveRuntime, wallNow_ms } from '@gridemu/runtime/live';
import { JetStreamJournal, NatsTransport } from '@gridemu/transport-nats';
import { startNatsServer, type NatsServerHandle } from '@gridemu/testkit';
import { MESSAGE_CHECK, planGrid, DURABLE_MESSAGES } from '../src/index.js';
import { specOf } from './helpers.js';

/**
 * A live process killed mid-run and restarted from its journal: the same actors over a
 * real nats-server, with site b's deliveries journaled in JetStream. "Killing" b here cuts it off
 * from the bus and from its journal at once, as SIGKILL does; a fresh runtime with fresh actors
 * then replays the journal and recovers. services/cli's run-live test kills real processes.
 */
let nats: NatsServerHandle;
let nc: NatsConnection;
beforeAll(async () => {
  nats = await startNatsServer();
  nc = await connect({ servers: nats.url, name: 'gridemu-live-crash-test' });
});
afterAll(async () => {
  await nc?.drain();
  await nats?.stop();
});

/** A transport, and a journal, that go dead at once when the process they belong to is "killed". */
class Severable {
  dead = false;
  transport(inner: Transport): Transport {
    return {
      publish: (target: BusTarget, from, bytes) => {
        if (!this.dead) inner.publish(target, from, bytes);
      },
      subscribe: (target, onBytes) => inner.subscribe(target, (...args) => !this.dead && onBytes(...args)),
      flush: () => inner.flush(),
    };
  }
  journal(inner: Journal): Journal {
    return {
      append: (batch, seq) => (this.dead ? Promise.reject(new Error('the process is dead')) : inner.append(batch, seq)),
      readAll: () => inner.readAll(),
    };
  }
}

const SITES = [
  { id: 'a', cpus: 8 },
  { id: 'b', cpus: 8 },
  { id: 'c', cpus: 8 },
];

/** 60 jobs over 600 emulated seconds, every third one from b, long enough that b is busy when it dies. */
function workload(): Job[] {
  return Array.from({ length: 60 }, (_, i) => {
    const run = 40 + ((i * 37) % 80);
    return {
      id: `w!${i}`,
      workload: 'w',
      origin: SITES[i % 3]!.id,
      submit_s: 10 * i,
      run_s: run,
      estimate_s: run + 30,
      procs: 1 + ((i * 5) % 6),
    };
  });
}

describe('a live process killed and restarted from its journal', () => {
  it('k-distributed: the killed site replays its journal, loses only its running jobs, and every job ends once', async () => {
    const run = 'live-crash';
    const jobs = workload();
    const spec = specOf({
      sites: SITES,
      meta: { scheme: 'k-distributed', k: 2, load_period_s: 20, claim_timeout_s: 5, claim: 'hold' },
    });
    const reliable = { reliable: { types: DURABLE_MESSAGES, resend_ms: 50 } };
    const plan = planGrid(spec, jobs);
    let fatal: Error | undefined;
    const onFatal = (e: Error) => (fatal = e);
    const b = new Severable();
    const store = await JetStreamJournal.open(nc, run, 'b', true);
    const runtimes = new Map<string, LiveRuntime>();
    for (const p of plan.actors) {
      const where = p.location ?? 'driver';
      let rt = runtimes.get(where);
      if (!rt) {
        const transport = new NatsTransport(nc, run);
        rt =
          where === 'b'
            ? new LiveRuntime({
                transport: b.transport(transport),
                run,
                seed: 1,
                log: silentLogger,
                check: MESSAGE_CHECK,
                onFatal,
                ...reliable,
                journal: { store: b.journal(store), recovering: false },
              })
            : new LiveRuntime({
                transport,
                run,
                seed: 1,
                log: silentLogger,
                check: MESSAGE_CHECK,
                onFatal,
                ...reliable,
              });
        runtimes.set(where, rt);
      }
      rt.spawn(p);
    }
    for (const rt of runtimes.values()) await rt.ready();
    const epoch_ms = wallNow_ms() + 50;
    // Slow enough that a job runs for a tenth of a wall second or more: under a loaded CI machine
    // at 1000x, b's jobs started and ended between two looks of the wait below.
    const speedup = 250;
    for (const rt of runtimes.values()) rt.start(0, speedup, epoch_ms);

    // Kill b once it runs at least two jobs.
    const runningAtB = () =>
      plan.driver.records.filter((r) => r.execSite === 'b' && r.start_s !== undefined && r.finish_s === undefined)
        .length;
    let deadline = Date.now() + 10_000;
    while (runningAtB() < 2 && !fatal && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
    expect(runningAtB(), 'b never ran two jobs at once').toBeGreaterThanOrEqual(2);
    const old = runtimes.get('b')!;
    b.dead = true;
    const crashed_s = old.now();
    await old.stop();

    // Down for 60 emulated seconds, then a new process: fresh actors for b, the same journal.
    await new Promise((r) => setTimeout(r, (60 / speedup) * 1000));
    const fresh = planGrid(spec, jobs).actors.filter((p): p is ActorPlacement<Message> => p.location === 'b');
    const reborn = new LiveRuntime({
      transport: new NatsTransport(nc, run),
      run,
      seed: 1,
      log: silentLogger,
      check: MESSAGE_CHECK,
      onFatal,
      ...reliable,
      journal: { store: await JetStreamJournal.open(nc, run, 'b', false), recovering: true },
    });
    for (const p of fresh) reborn.spawn(p);
    await reborn.ready();
    const replay = await reborn.resume(0, speedup, epoch_ms, crashed_s);
    runtimes.set('b', reborn);

    deadline = Date.now() + 30_000;
    while (!plan.driver.done && !fatal && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    for (const rt of runtimes.values()) await rt.stop();
    if (fatal) throw fatal;
    expect(plan.driver.done, 'not every job finished within 30 s').toBe(true);
    expect(replay.entries).toBeGreaterThan(0);

    const records = plan.driver.records;
    const lost = records.flatMap((r) => r.lostRuns.map((l) => ({ jobId: r.job.id, ...l })));
    expect(lost.length).toBeGreaterThanOrEqual(2);
    expect(lost.every((l) => l.site === 'b' && l.end_s === crashed_s)).toBe(true);
    const runs = [
      ...lost,
      ...records.map((r) => ({ jobId: r.job.id, site: r.execSite!, start_s: r.start_s!, end_s: r.finish_s! })),
    ];
    const csv = jobsCsvText(records);
    const verdicts = checkRun({
      jobsCsv: csv,
      submitted: jobs.length,
      cpus: new Map(SITES.map((s) => [s.id, s.cpus])),
      runs,
    });
    expect(verdicts.filter((v) => !v.ok)).toEqual([]);
    // The origin's semaphores came back with it: one grant per job across the crash.
    let grants = 0;
    for (const rt of runtimes.values()) grants += rt.counters.get('claims.granted') ?? 0;
    expect(grants).toBe(jobs.length);
  });

  it('two incarnations of one site at once: the newer fences the journal, the older stops without failing the run, and every job ends once', async () => {
    const run = 'live-two-incarnations';
    const jobs = workload();
    const spec = specOf({
      sites: SITES,
      meta: { scheme: 'k-distributed', k: 2, load_period_s: 20, claim_timeout_s: 5, claim: 'hold' },
    });
    const reliable = { reliable: { types: DURABLE_MESSAGES, resend_ms: 50 } };
    const plan = planGrid(spec, jobs);
    let fatal: Error | undefined;
    const onFatal = (e: Error) => (fatal = e);
    let superseded: Error | undefined;
    const first = await JetStreamJournal.open(nc, run, 'b', true);
    expect(first.incarnation).toBe(1);
    const runtimes = new Map<string, LiveRuntime>();
    for (const p of plan.actors) {
      const where = p.location ?? 'driver';
      let rt = runtimes.get(where);
      if (!rt) {
        rt = new LiveRuntime({
          transport: new NatsTransport(nc, run),
          run,
          seed: 1,
          log: silentLogger,
          check: MESSAGE_CHECK,
          onFatal,
          ...reliable,
          ...(where === 'b'
            ? { journal: { store: first, recovering: false }, onSuperseded: (e: Error) => (superseded = e) }
            : {}),
        });
        runtimes.set(where, rt);
      }
      rt.spawn(p);
    }
    for (const rt of runtimes.values()) await rt.ready();
    const epoch_ms = wallNow_ms() + 50;
    const speedup = 250;
    for (const rt of runtimes.values()) rt.start(0, speedup, epoch_ms);
    const runningAtB = () =>
      plan.driver.records.filter((r) => r.execSite === 'b' && r.start_s !== undefined && r.finish_s === undefined)
        .length;
    let deadline = Date.now() + 10_000;
    while (runningAtB() < 2 && !fatal && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
    expect(runningAtB(), 'b never ran two jobs at once').toBeGreaterThanOrEqual(2);

    // A second b while the first still runs, as when a pod is replaced under a live one: nothing
    // stops the first; only the journal's fence can.
    const old = runtimes.get('b')!;
    const takenOver_s = old.now();
    const second = await JetStreamJournal.open(nc, run, 'b', false);
    expect(second.incarnation).toBe(2);
    const reborn = new LiveRuntime({
      transport: new NatsTransport(nc, run),
      run,
      seed: 1,
      log: silentLogger,
      check: MESSAGE_CHECK,
      onFatal,
      ...reliable,
      journal: { store: second, recovering: true },
    });
    for (const p of planGrid(spec, jobs).actors.filter((p): p is ActorPlacement<Message> => p.location === 'b'))
      reborn.spawn(p);
    await reborn.ready();
    await reborn.resume(0, speedup, epoch_ms, takenOver_s);
    runtimes.set('b', reborn);
    // The older one finds out at its next append, and stops as a member process would.
    deadline = Date.now() + 10_000;
    while (!superseded && !fatal && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await old.stop();
    expect(superseded?.message).toMatch(/incarnation 1's journal append was refused/);
    expect(old.counters.get('journal.superseded')).toBe(1);

    deadline = Date.now() + 30_000;
    while (!plan.driver.done && !fatal && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    for (const rt of runtimes.values()) await rt.stop();
    if (fatal) throw fatal;
    expect(plan.driver.done, 'not every job finished within 30 s').toBe(true);
    const records = plan.driver.records;
    const lost = records.flatMap((r) => r.lostRuns.map((l) => ({ jobId: r.job.id, ...l })));
    const runs = [
      ...lost,
      ...records.map((r) => ({ jobId: r.job.id, site: r.execSite!, start_s: r.start_s!, end_s: r.finish_s! })),
    ];
    const verdicts = checkRun({
      jobsCsv: jobsCsvText(records),
      submitted: jobs.length,
      cpus: new Map(SITES.map((s) => [s.id, s.cpus])),
      runs,
    });
    expect(verdicts.filter((v) => !v.ok)).toEqual([]);
    // The newer b's count includes the older one's grants it replayed; what the older one granted
    // after the fence was never stored, so never sent, and does not count.
    let grants = 0;
    for (const rt of runtimes.values()) grants += rt.counters.get('claims.granted') ?? 0;
    expect(grants).toBe(jobs.length);
  });
});
