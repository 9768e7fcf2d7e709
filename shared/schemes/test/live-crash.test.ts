import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRun, jobsCsvText } from '@gridemu/metrics';
import type { Job } from '@gridemu/model';
import { type Message } from '@gridemu/protocol';
import { silentLogger, type ActorPlacement, type BusTarget, type Journal, type Transport } from '@gridemu/runtime';
import { LiveRuntime, wallNow_ms, type LiveRuntimeOptions } from '@gridemu/runtime/live';
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

/**
 * The grid of these tests, running: a runtime per location over the real server, b's with
 * `bOptions` and its transport wrapped by `wrapB`; started once b runs at least two jobs.
 */
async function startGrid(
  run: string,
  bOptions: Partial<LiveRuntimeOptions>,
  wrapB: (inner: Transport) => Transport = (t) => t,
) {
  const jobs = workload();
  const spec = specOf({
    sites: SITES,
    meta: { scheme: 'k-distributed', k: 2, load_period_s: 20, claim_timeout_s: 5, claim: 'hold' },
  });
  const plan = planGrid(spec, jobs);
  const failures: Error[] = [];
  const runtimeFor = (transport: Transport, extra: Partial<LiveRuntimeOptions> = {}) =>
    new LiveRuntime({
      transport,
      run,
      seed: 1,
      log: silentLogger,
      check: MESSAGE_CHECK,
      onFatal: (e) => failures.push(e),
      reliable: { types: DURABLE_MESSAGES, resend_ms: 50 },
      ...extra,
    });
  const runtimes = new Map<string, LiveRuntime>();
  for (const p of plan.actors) {
    const where = p.location ?? 'driver';
    let rt = runtimes.get(where);
    if (!rt) {
      rt =
        where === 'b'
          ? runtimeFor(wrapB(new NatsTransport(nc, run)), bOptions)
          : runtimeFor(new NatsTransport(nc, run));
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
  const runningAtB = () =>
    plan.driver.records.filter((r) => r.execSite === 'b' && r.start_s !== undefined && r.finish_s === undefined).length;
  const deadline = Date.now() + 30_000;
  while (runningAtB() < 2 && failures.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
  expect(runningAtB(), 'b never ran two jobs at once').toBeGreaterThanOrEqual(2);
  /** A new process for b: fresh actors, resumed from `journal` as if it died at `crashed_s`. */
  const restartB = async (journal: Journal, crashed_s: number) => {
    const reborn = runtimeFor(new NatsTransport(nc, run), { journal: { store: journal, recovering: true } });
    for (const p of planGrid(spec, jobs).actors.filter((p): p is ActorPlacement<Message> => p.location === 'b'))
      reborn.spawn(p);
    await reborn.ready();
    const replay = await reborn.resume(0, speedup, epoch_ms, crashed_s);
    runtimes.set('b', reborn);
    return replay;
  };
  /** Waits for every job's outcome, stops every runtime, and checks each job ended once. */
  const finish = async () => {
    const until = Date.now() + 30_000;
    while (!plan.driver.done && failures.length === 0 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    for (const rt of runtimes.values()) await rt.stop();
    if (failures.length > 0) throw failures[0];
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
    // The origin's semaphores came back with it: one grant per job across the crash (b's count
    // includes what it replayed; an older b's grants after a fence were never stored nor sent).
    let grants = 0;
    for (const rt of runtimes.values()) grants += rt.counters.get('claims.granted') ?? 0;
    expect(grants).toBe(jobs.length);
    return lost;
  };
  return { b: runtimes.get('b')!, restartB, finish, speedup };
}

describe('a live process killed and restarted from its journal', () => {
  it('k-distributed: the killed site replays its journal, loses only its running jobs, and every job ends once', async () => {
    const run = 'live-crash';
    const b = new Severable();
    const store = await JetStreamJournal.open(nc, run, 'b', true);
    const grid = await startGrid(run, { journal: { store: b.journal(store), recovering: false } }, (t) =>
      b.transport(t),
    );
    b.dead = true;
    const crashed_s = grid.b.now();
    await grid.b.stop();
    // Down for 60 emulated seconds, then a new process: fresh actors for b, the same journal.
    await new Promise((r) => setTimeout(r, (60 / grid.speedup) * 1000));
    const replay = await grid.restartB(await JetStreamJournal.open(nc, run, 'b', false), crashed_s);
    const lost = await grid.finish();
    expect(replay.entries).toBeGreaterThan(0);
    expect(lost.length).toBeGreaterThanOrEqual(2);
    expect(lost.every((l) => l.site === 'b' && l.end_s === crashed_s)).toBe(true);
  });

  it('two incarnations of one site at once: the newer fences the journal, the older stops without failing the run, and every job ends once', async () => {
    const run = 'live-two-incarnations';
    let superseded: Error | undefined;
    const first = await JetStreamJournal.open(nc, run, 'b', true);
    expect(first.incarnation).toBe(1);
    const grid = await startGrid(run, {
      journal: { store: first, recovering: false },
      onSuperseded: (e: Error) => (superseded = e),
    });
    // A second b while the first still runs, as when a pod is replaced under a live one: nothing
    // stops the first; only the journal's fence can.
    const old = grid.b;
    const second = await JetStreamJournal.open(nc, run, 'b', false);
    expect(second.incarnation).toBe(2);
    await grid.restartB(second, old.now());
    // The older one finds out at its next append, and stops as a member process would.
    const deadline = Date.now() + 30_000;
    while (!superseded && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await old.stop();
    expect(superseded?.message).toMatch(/incarnation 1's journal append was refused/);
    expect(old.counters.get('journal.superseded')).toBe(1);
    await grid.finish();
  });
});
