import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { SchedulableJob } from '@gridemu/model';
import { backfillCost, DualEasyPolicy, EasyPolicy, headReservation, Processors, type QueueKind } from '../src/index.js';

/**
 * EASY (and dual-queue EASY) as the policies define it, with plain arrays and a sweep over the
 * whole queue on every pass: what the policies, with their linked queue and its processor bound,
 * must agree with.
 */
class WholeSweepEasy {
  private readonly cpus: Processors;
  private local: SchedulableJob[] = [];
  private remote: SchedulableJob[] = [];

  constructor(
    total: number,
    private readonly dual: boolean,
  ) {
    this.cpus = new Processors(total);
  }

  submit(now: number, job: SchedulableJob, kind: QueueKind): string[] {
    (kind === 'remote' && this.dual ? this.remote : this.local).push(job);
    return this.pass(now);
  }

  finish(now: number, id: string): string[] {
    this.cpus.release(id);
    return this.pass(now);
  }

  withdraw(now: number, id: string): string[] {
    const before = this.local.length + this.remote.length;
    this.local = this.local.filter((j) => j.id !== id);
    this.remote = this.remote.filter((j) => j.id !== id);
    return this.local.length + this.remote.length < before ? this.pass(now) : [];
  }

  requeue(now: number, job: SchedulableJob, kind: QueueKind, held: boolean): string[] {
    if (held) this.cpus.release(job.id);
    (kind === 'remote' && this.dual ? this.remote : this.local).unshift(job);
    return this.pass(now);
  }

  private pass(now: number): string[] {
    const started: string[] = [];
    const start = (j: SchedulableJob) => {
      this.cpus.allocate({ id: j.id, procs: j.procs, end_s: now + j.estimate_s });
      started.push(j.id);
    };
    while (this.local.length > 0 && this.local[0]!.procs <= this.cpus.free) start(this.local.shift()!);
    const head = this.local[0];
    const res = head && headReservation(this.cpus, head.id, head.procs, now);
    let spare = res?.spare ?? 0;
    const sweep = (queue: SchedulableJob[], from: number) =>
      queue.filter((j, i) => {
        if (i < from || this.cpus.free === 0) return true;
        const cost = backfillCost(res?.start_s, spare, this.cpus.free, j.procs, j.estimate_s, now);
        if (cost < 0) return true;
        spare -= cost;
        start(j);
        return false;
      });
    if (head && this.local.length > 1 && this.cpus.free > 0) this.local = sweep(this.local, 1);
    if (this.dual && this.remote.length > 0 && this.cpus.free > 0) this.remote = sweep(this.remote, 0);
    return started;
  }
}

type Op =
  | { k: 'submit'; dt: number; procs: number; est: number; remote: boolean }
  | { k: 'finish'; dt: number; pick: number }
  | { k: 'withdraw'; dt: number; pick: number }
  | { k: 'requeue'; dt: number; pick: number }
  | { k: 'lost'; dt: number; procs: number; est: number; remote: boolean };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      k: fc.constant('submit' as const),
      dt: fc.nat(20),
      procs: fc.integer({ min: 1, max: 16 }),
      est: fc.integer({ min: 1, max: 200 }),
      remote: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('finish' as const), dt: fc.nat(50), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('withdraw' as const), dt: fc.nat(5), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('requeue' as const), dt: fc.nat(5), pick: fc.nat() }) },
  // A run lost elsewhere put back at the head of its queue, holding no processors here.
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('lost' as const),
      dt: fc.nat(5),
      procs: fc.integer({ min: 1, max: 16 }),
      est: fc.integer({ min: 1, max: 200 }),
      remote: fc.boolean(),
    }),
  },
);

describe('EASY starts exactly what a plain sweep of the whole queue would', () => {
  // In tenths of a second too: a job ending at its head's reserved start up to rounding must be
  // judged the same by the indexed sweep, which passes over jobs by estimate.
  for (const [dual, unit, units] of [
    [false, 1, 'whole seconds'],
    [true, 1, 'whole seconds'],
    [false, 0.1, 'tenths of a second'],
    [true, 0.1, 'tenths of a second'],
  ] as const) {
    it(`${dual ? 'dual-queue EASY' : 'EASY'}: the same starts, in the same order, over any sequence of events in ${units}`, () => {
      fc.assert(
        fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
          const policy = dual ? new DualEasyPolicy(16) : new EasyPolicy(16);
          const whole = new WholeSweepEasy(16, dual);
          const running = new Map<string, { job: SchedulableJob; kind: QueueKind }>();
          const queued = new Map<string, { job: SchedulableJob; kind: QueueKind }>();
          let now = 0;
          let n = 0;
          const started = (ids: string[]) => {
            for (const id of ids) {
              running.set(id, queued.get(id)!);
              queued.delete(id);
            }
          };
          for (const o of ops) {
            now += o.dt * unit;
            if (o.k === 'submit' || o.k === 'lost') {
              const job: SchedulableJob = { id: `j${n++}`, procs: o.procs, estimate_s: o.est * unit };
              const kind: QueueKind = o.remote ? 'remote' : 'local';
              queued.set(job.id, { job, kind });
              const ids = (
                o.k === 'submit' ? policy.submit(now, job, kind) : policy.requeue(now, job, kind, false)
              ).map((j) => j.id);
              expect(ids).toEqual(
                o.k === 'submit' ? whole.submit(now, job, kind) : whole.requeue(now, job, kind, false),
              );
              started(ids);
              continue;
            }
            const from = o.k === 'withdraw' ? queued : running;
            if (from.size === 0) continue;
            const [id, entry] = [...from][o.pick % from.size]!;
            let ids: string[];
            if (o.k === 'finish') {
              running.delete(id);
              ids = policy.finish(now, id).map((j) => j.id);
              expect(ids).toEqual(whole.finish(now, id));
            } else if (o.k === 'withdraw') {
              queued.delete(id);
              ids = policy.withdraw(now, id).starts.map((j) => j.id);
              expect(ids).toEqual(whole.withdraw(now, id));
            } else {
              running.delete(id);
              queued.set(id, entry);
              ids = policy.requeue(now, entry.job, entry.kind).map((j) => j.id);
              expect(ids).toEqual(whole.requeue(now, entry.job, entry.kind, true));
            }
            started(ids);
          }
        }),
        { numRuns: 3000 },
      );
    });
  }

  it('backfills a job a withdrawn head held back, when the next head is reserved later', () => {
    // 10 CPUs. A (6, until 100) and B (2, until 300) run; 2 free. H1 (8) is reserved at 100 with
    // none spare; H2 (10) and X (2, 150 s) wait, X because it would end past 100.
    const p = new EasyPolicy(10);
    p.submit(0, { id: 'A', procs: 6, estimate_s: 100 });
    p.submit(0, { id: 'B', procs: 2, estimate_s: 300 });
    for (const [id, procs, estimate_s] of [
      ['H1', 8, 10],
      ['H2', 10, 10],
      ['X', 2, 150],
    ] as const)
      expect(p.submit(1, { id, procs, estimate_s })).toEqual([]);
    // H1 is withdrawn: H2's reservation is at 300, and X, ending at 152, now fits before it.
    expect(p.withdraw(2, 'H1').starts.map((j) => j.id)).toEqual(['X']);
  });

  it('backfills a job that did not fit, once processors come free before the reservation', () => {
    // 10 CPUs. A (4, until 100) and B (4, asked 50 s) run; 2 free. H (10) is reserved at 100;
    // X (4) does not fit the 2 free, Y (2, 500 s) would end past 100.
    const p = new EasyPolicy(10);
    p.submit(0, { id: 'A', procs: 4, estimate_s: 100 });
    p.submit(0, { id: 'B', procs: 4, estimate_s: 50 });
    for (const [id, procs, estimate_s] of [
      ['H', 10, 10],
      ['X', 4, 10],
      ['Y', 2, 500],
    ] as const)
      expect(p.submit(1, { id, procs, estimate_s })).toEqual([]);
    // B ends early, at 20: H is still reserved at 100, and X, ending at 30, fits the 6 free.
    expect(p.finish(20, 'B').map((j) => j.id)).toEqual(['X']);
  });

  it('backfills onto the spare processors a narrower next head leaves', () => {
    // 10 CPUs. A (6, until 100) and B (2, until 300) run; 2 free. H1 (8) is reserved at 100 with
    // none spare; H2 (6) and X (2, 150 s) wait.
    const p = new EasyPolicy(10);
    p.submit(0, { id: 'A', procs: 6, estimate_s: 100 });
    p.submit(0, { id: 'B', procs: 2, estimate_s: 300 });
    for (const [id, procs, estimate_s] of [
      ['H1', 8, 10],
      ['H2', 6, 10],
      ['X', 2, 150],
    ] as const)
      expect(p.submit(1, { id, procs, estimate_s })).toEqual([]);
    // H1 is withdrawn: H2 is reserved at 100 too, with 2 spare, and X may run on those.
    expect(p.withdraw(2, 'H1').starts.map((j) => j.id)).toEqual(['X']);
  });

  it('starts a run put back at the head of the remote queue when it fits before the local reservation', () => {
    // 10 CPUs, dual-queue. A (8, until 100) runs; local H (10) is reserved at 100 with none spare.
    // Remote W (2, 500 s) waits: it would end past 100.
    const p = new DualEasyPolicy(10);
    p.submit(0, { id: 'A', procs: 8, estimate_s: 100 }, 'local');
    expect(p.submit(1, { id: 'H', procs: 10, estimate_s: 10 }, 'local')).toEqual([]);
    expect(p.submit(1, { id: 'W', procs: 2, estimate_s: 500 }, 'remote')).toEqual([]);
    // A lost run R (2, 10 s), holding nothing here, goes back to the remote queue's head: it ends
    // before 100, so it starts.
    expect(p.requeue(2, { id: 'R', procs: 2, estimate_s: 10 }, 'remote', false).map((j) => j.id)).toEqual(['R']);
  });
});
