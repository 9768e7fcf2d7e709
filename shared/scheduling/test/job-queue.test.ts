import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JobQueue } from '../src/index.js';

const job = (id: string, procs: number, estimate_s = 10) => ({ id, procs, estimate_s });
const ids = (q: JobQueue) => [...q].map((j) => j.id);

describe('JobQueue', () => {
  it('keeps FIFO order through head, middle and withdrawal', () => {
    const q = new JobQueue();
    for (const [id, p] of [
      ['a', 4],
      ['b', 2],
      ['c', 8],
      ['d', 1],
    ] as const)
      q.push(job(id, p));
    q.unshift(job('z', 3));
    expect(ids(q)).toEqual(['z', 'a', 'b', 'c', 'd']);
    expect(q.remove('b')).toBe(1);
    expect(q.remove('b')).toBe(0);
    expect(q.shift()?.id).toBe('z');
    // From the second job on, take those under 5 processors while fewer than two are taken.
    let taken = 0;
    q.sweep(
      1,
      (j) => j.procs < 5 && ++taken > 0,
      () => taken < 2,
    );
    expect(ids(q)).toEqual(['a', 'c']);
    expect(q.size).toBe(2);
    expect(q.peek()?.id).toBe('a');
  });

  it("keeps its jobs' whole-number work as a total, exact whatever came and went, and adds it to `from` once", () => {
    const q = new JobQueue();
    for (let i = 0; i < 50; i++) q.push(job(`w${i}`, 1 + (i % 7), 100 + i * 37));
    q.unshift(job('h', 3, 9));
    q.remove('w7');
    q.shift();
    q.sweep(
      10,
      (j) => j.procs === 2,
      () => true,
    );
    const left = [...q];
    expect(left.length).toBeLessThan(50);
    const total = left.reduce((a, j) => a + j.procs * j.estimate_s, 0);
    expect(q.addWork(12.3)).toBe(12.3 + total);
    for (const j of left) q.remove(j.id);
    // Empty again: nothing left over from what came and went.
    expect(q.addWork(12.3)).toBe(12.3);
    expect(new JobQueue().addWork(5)).toBe(5);
  });

  it("adds each job's work in queue order, as a loop would to the last bit, while any job's work is not a whole number", () => {
    const q = new JobQueue();
    const jobs = [0.1, 1.7, 1e9 / 3, 2.2, 1 / 7].map((estimate_s, i) => ({ id: `w${i}`, procs: i + 1, estimate_s }));
    q.push(job('whole', 2, 10));
    for (const j of jobs) q.push(j);
    let loop = 12.3 + 2 * 10;
    for (const j of jobs) loop += j.procs * j.estimate_s;
    expect(q.addWork(12.3)).toBe(loop);
    // Once they are gone, the kept total again.
    for (const j of jobs) q.remove(j.id);
    expect(q.addWork(12.3)).toBe(12.3 + 20);
    // Work that would take the total past 2^53 is not kept in it (the loop again), so the total is
    // still exact once it is gone: kept, 20 + 2^53 - 1 would have rounded, and 21 been left.
    q.push(job('huge', 1, Number.MAX_SAFE_INTEGER));
    expect(q.addWork(0)).toBe(20 + Number.MAX_SAFE_INTEGER);
    q.remove('huge');
    expect(q.addWork(0)).toBe(20);
  });

  it('withdraws every copy of a job queued twice', () => {
    const q = new JobQueue();
    q.push(job('x', 1));
    q.push(job('y', 1));
    q.push(job('x', 2));
    expect(q.remove('x')).toBe(2);
    expect(ids(q)).toEqual(['y']);
  });

  const agreesWithAnArray = (maxLength: number, numRuns: number, ids: number) => {
    type Op =
      | { k: 'push'; id: number; procs: number; estimate_s: number }
      | { k: 'unshift'; id: number; procs: number; estimate_s: number }
      | { k: 'shift' }
      | { k: 'remove'; id: number }
      | {
          k: 'sweep';
          skip: number;
          below: number;
          spare: number | null;
          window_s: number;
          budget: number;
          indexed: boolean;
        };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({
        k: fc.constantFrom<'push' | 'unshift'>('push', 'unshift'),
        id: fc.nat(ids),
        procs: fc.integer({ min: 1, max: 16 }),
        estimate_s: fc.integer({ min: 1, max: 20 }),
      }),
      fc.constant({ k: 'shift' as const }),
      fc.record({ k: fc.constant('remove' as const), id: fc.nat(ids) }),
      fc.record({
        k: fc.constant('sweep' as const),
        skip: fc.nat(3),
        below: fc.integer({ min: 1, max: 17 }),
        spare: fc.option(fc.nat(16)),
        window_s: fc.nat(21),
        budget: fc.nat(4),
        indexed: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: maxLength / 2, maxLength }), (ops) => {
        const q = new JobQueue();
        let model: { id: string; procs: number; estimate_s: number }[] = [];
        for (const o of ops) {
          if (o.k === 'push' || o.k === 'unshift') {
            const j = job(`j${o.id}`, o.procs, o.estimate_s);
            if (o.k === 'push') {
              q.push(j);
              model.push(j);
            } else {
              q.unshift(j);
              model.unshift(j);
            }
          } else if (o.k === 'shift') expect(q.shift()).toBe(model.shift());
          else if (o.k === 'remove') {
            const before = model.length;
            model = model.filter((j) => j.id !== `j${o.id}`);
            expect(q.remove(`j${o.id}`)).toBe(before - model.length);
          } else {
            // Taken: under `below` processors, and within `spare` or ending by `window_s` (EASY's test).
            const fits = (j: { procs: number; estimate_s: number }) =>
              j.procs < o.below && (o.spare === null || j.procs <= o.spare || j.estimate_s <= o.window_s);
            let left = o.budget;
            const taken = new Set<object>();
            for (let i = o.skip; i < model.length && left > 0; i++) {
              if (!fits(model[i]!)) continue;
              taken.add(model[i]!);
              left--;
            }
            model = model.filter((j) => !taken.has(j));
            let budget = o.budget;
            const spare = o.spare;
            // Indexed, the jobs the limits rule out are passed over unseen: the same takes.
            q.sweep(
              o.skip,
              (j) => fits(j) && budget-- > 0,
              () => budget > 0,
              !o.indexed
                ? undefined
                : spare === null
                  ? { procs: () => o.below - 1 }
                  : { procs: () => o.below - 1, spare: () => spare, estimate_s: o.window_s },
            );
          }
          expect([...q]).toEqual(model);
          expect(q.size).toBe(model.length);
          expect(q.peek()).toBe(model[0]);
          // Whole-number work: the kept total is the model's sum, exactly.
          expect(q.addWork(0.5)).toBe(0.5 + model.reduce((a, j) => a + j.procs * j.estimate_s, 0));
          for (const j of model) expect(q.fewestProcsBound).toBeLessThanOrEqual(j.procs);
        }
      }),
      { numRuns },
    );
  };

  it('agrees with an array over any sequence of operations, and its processor bound holds', () =>
    agreesWithAnArray(60, 100, 12));

  it('keeps its order and its processor bound while its positions run out, at either end, many times', () => {
    const q = new JobQueue();
    const model: ReturnType<typeof job>[] = [];
    for (let i = 0; i < 5000; i++) {
      const j = job(`p${i}`, 1 + ((i * 7) % 13));
      if (i % 5 === 0) {
        q.unshift(j);
        model.unshift(j);
      } else {
        q.push(j);
        model.push(j);
      }
      // Keep about 300 queued: the oldest goes once there are more.
      if (model.length > 300) expect(q.shift()).toBe(model.shift());
    }
    expect([...q]).toEqual(model);
    expect(q.fewestProcsBound).toBe(Math.min(...model.map((j) => j.procs)));
    // An indexed sweep takes, in order, the first three of at most 2 processors.
    const taken: string[] = [];
    q.sweep(
      0,
      (j) => (j.procs <= 2 ? (taken.push(j.id), true) : false),
      () => taken.length < 3,
      { procs: () => 2 },
    );
    expect(taken).toEqual(
      model
        .filter((j) => j.procs <= 2)
        .slice(0, 3)
        .map((j) => j.id),
    );
  });
});
