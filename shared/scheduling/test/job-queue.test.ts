import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JobQueue } from '../src/index.js';

const job = (id: string, procs: number) => ({ id, procs, estimate_s: 10 });
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

  it('withdraws every copy of a job queued twice', () => {
    const q = new JobQueue();
    q.push(job('x', 1));
    q.push(job('y', 1));
    q.push(job('x', 2));
    expect(q.remove('x')).toBe(2);
    expect(ids(q)).toEqual(['y']);
  });

  it('agrees with an array over any sequence of operations, and its processor bound holds', () => {
    type Op =
      | { k: 'push'; id: number; procs: number }
      | { k: 'unshift'; id: number; procs: number }
      | { k: 'shift' }
      | { k: 'remove'; id: number }
      | { k: 'sweep'; skip: number; below: number; budget: number };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({
        k: fc.constantFrom<'push' | 'unshift'>('push', 'unshift'),
        id: fc.nat(12),
        procs: fc.integer({ min: 1, max: 16 }),
      }),
      fc.constant({ k: 'shift' as const }),
      fc.record({ k: fc.constant('remove' as const), id: fc.nat(12) }),
      fc.record({
        k: fc.constant('sweep' as const),
        skip: fc.nat(3),
        below: fc.integer({ min: 1, max: 17 }),
        budget: fc.nat(4),
      }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const q = new JobQueue();
        let model: { id: string; procs: number; estimate_s: number }[] = [];
        for (const o of ops) {
          if (o.k === 'push' || o.k === 'unshift') {
            const j = job(`j${o.id}`, o.procs);
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
            let left = o.budget;
            const taken = new Set<object>();
            for (let i = o.skip; i < model.length && left > 0; i++) {
              if (model[i]!.procs >= o.below) continue;
              taken.add(model[i]!);
              left--;
            }
            model = model.filter((j) => !taken.has(j));
            let budget = o.budget;
            q.sweep(
              o.skip,
              (j) => j.procs < o.below && budget-- > 0,
              () => budget > 0,
            );
          }
          expect([...q]).toEqual(model);
          expect(q.size).toBe(model.length);
          expect(q.peek()).toBe(model[0]);
          for (const j of model) expect(q.fewestProcsBound).toBeLessThanOrEqual(j.procs);
        }
      }),
    );
  });
});
