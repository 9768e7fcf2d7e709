import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SiteQueue, type QueuedJob } from '../src/gruber/site-queue.js';

/**
 * The queue's rule as plainly as it can be written: one list in arrival order, walked from the
 * head on every pass, a job starting when the site has its CPUs free and its VO stays within its
 * cap, unless it is holdable and the manager holds. The SiteQueue keeps lanes per VO and must
 * start exactly the same jobs.
 */
class PlainQueue {
  readonly waiting: QueuedJob[] = [];
  readonly running = new Map<string, QueuedJob>();
  free: number;
  constructor(
    cpus: number,
    private readonly caps: ReadonlyMap<string, number>,
  ) {
    this.free = cpus;
  }
  private runningCpus(vo: string): number {
    let n = 0;
    for (const j of this.running.values()) if (j.vo === vo) n += j.procs;
    return n;
  }
  startable(holding: boolean): QueuedJob[] {
    const starts: QueuedJob[] = [];
    for (let i = 0; i < this.waiting.length && this.free > 0;) {
      const j = this.waiting[i]!;
      const fits = j.procs <= this.free && this.runningCpus(j.vo) + j.procs <= (this.caps.get(j.vo) ?? 0);
      if (fits && !(holding && j.holdable === true)) {
        this.waiting.splice(i, 1);
        this.running.set(j.id, j);
        this.free -= j.procs;
        starts.push(j);
      } else i++;
    }
    return starts;
  }
}

type Op =
  | { kind: 'add'; vo: number; procs: number; holdable: boolean }
  | { kind: 'addFirst'; vos: number[]; holdable: boolean }
  | { kind: 'withdraw'; pick: number }
  | { kind: 'finish'; pick: number }
  | { kind: 'pass'; holding: boolean };

const VOS = ['ivdgl', 'atlas', 'cms', 'nocap'];
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      vo: fc.nat(3),
      procs: fc.integer({ min: 1, max: 4 }),
      holdable: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('addFirst' as const),
      vos: fc.array(fc.nat(3), { maxLength: 3 }),
      holdable: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('withdraw' as const), pick: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('finish' as const), pick: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('pass' as const), holding: fc.boolean() }) },
);

describe('SiteQueue', () => {
  it('starts what a plain arrival-order walk starts, whatever is added, put back, withdrawn, held and finished (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.array(op, { maxLength: 120 }), (cpus, ops) => {
        const caps = new Map([
          ['ivdgl', Math.max(1, cpus >> 1)],
          ['atlas', cpus],
          ['cms', 2],
        ]);
        const queue = new SiteQueue(cpus, caps);
        const plain = new PlainQueue(cpus, caps);
        let n = 0;
        const job = (vo: number, procs: number, holdable: boolean): QueuedJob => ({
          id: `j${n++}`,
          vo: VOS[vo]!,
          procs,
          holdable,
        });
        for (const o of ops) {
          if (o.kind === 'add') {
            const j = job(o.vo, o.procs, o.holdable);
            queue.add(j);
            plain.waiting.push(j);
          } else if (o.kind === 'addFirst') {
            const js = o.vos.map((vo) => job(vo, 1, o.holdable));
            queue.addFirst(js);
            plain.waiting.unshift(...js);
          } else if (o.kind === 'withdraw') {
            const id = plain.waiting.length > 0 ? plain.waiting[o.pick % plain.waiting.length]!.id : 'none';
            const i = plain.waiting.findIndex((j) => j.id === id);
            if (i >= 0) plain.waiting.splice(i, 1);
            expect(queue.withdraw(id)).toBe(i >= 0);
            expect(queue.withdraw(id)).toBe(false);
          } else if (o.kind === 'finish') {
            const ids = [...plain.running.keys()];
            if (ids.length === 0) continue;
            const id = ids[o.pick % ids.length]!;
            plain.free += plain.running.get(id)!.procs;
            plain.running.delete(id);
            queue.finish(id);
          } else {
            expect(queue.startable(o.holding).map((j) => j.id)).toEqual(plain.startable(o.holding).map((j) => j.id));
          }
          expect(queue.freeCpus).toBe(plain.free);
          const byVo = new Map<string, { vo: string; cpus: number; jobs: number }>();
          for (const j of plain.waiting) {
            const q = byVo.get(j.vo) ?? { vo: j.vo, cpus: 0, jobs: 0 };
            byVo.set(j.vo, { vo: j.vo, cpus: q.cpus + j.procs, jobs: q.jobs + 1 });
          }
          expect(queue.queued()).toEqual([...byVo.values()]);
          expect(queue.holdsSome).toBe(plain.waiting.some((j) => j.holdable));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never starts a job of a VO with no cap; a VO at its cap, or a held grid job, does not hold up the jobs behind it', () => {
    const queue = new SiteQueue(
      4,
      new Map([
        ['a', 1],
        ['b', 4],
      ]),
    );
    queue.add({ id: 'x', vo: 'nocap', procs: 1 });
    queue.add({ id: 'g', vo: 'b', procs: 1, holdable: true });
    queue.add({ id: 'a1', vo: 'a', procs: 1 });
    queue.add({ id: 'a2', vo: 'a', procs: 1 });
    queue.add({ id: 'b1', vo: 'b', procs: 2 });
    expect(queue.startable(true).map((j) => j.id)).toEqual(['a1', 'b1']);
    expect(queue.freeCpus).toBe(1);
    expect(queue.queued()).toEqual([
      { vo: 'nocap', cpus: 1, jobs: 1 },
      { vo: 'b', cpus: 1, jobs: 1 },
      { vo: 'a', cpus: 1, jobs: 1 },
    ]);
    expect(queue.holdsSome).toBe(true);
    expect(queue.startable(false).map((j) => j.id)).toEqual(['g']);
    expect(queue.holdsSome).toBe(false);
    queue.finish('a1');
    expect(queue.startable(false).map((j) => j.id)).toEqual(['a2']);
  });
});
