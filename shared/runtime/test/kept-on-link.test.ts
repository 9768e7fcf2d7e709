import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeptOnLink } from '../src/kept-on-link.js';

const numbers = (kept: KeptOnLink<{ n: number }>): number[] => {
  const out: number[] = [];
  kept.forEach((m) => out.push(m.n));
  return out;
};

describe('KeptOnLink', () => {
  it('takes out what an acknowledgement covers, oldest first, and finds the rest by number', () => {
    const kept = new KeptOnLink<{ n: number }>();
    for (let n = 1; n <= 5; n++) kept.add({ n });
    const taken: number[] = [];
    expect(kept.takeThrough(3, (m) => taken.push(m.n))).toBe(3);
    expect(taken).toEqual([1, 2, 3]);
    expect(kept.size).toBe(2);
    expect(kept.first?.n).toBe(4);
    expect(kept.get(3)).toBeUndefined();
    expect(kept.get(5)?.n).toBe(5);
    // An acknowledgement heard again, or one below what is kept, takes nothing.
    expect(kept.takeThrough(3, () => {})).toBe(0);
    expect(kept.takeThrough(9, () => {})).toBe(2);
    expect(kept.size).toBe(0);
    expect(kept.first).toBeUndefined();
    expect(kept.get(4)).toBeUndefined();
  });

  it('keeps a replay with gaps (messages acknowledged before they were kept) and one out of order in its place', () => {
    const kept = new KeptOnLink<{ n: number; copy?: number }>();
    for (const n of [2, 5, 6, 9]) kept.add({ n });
    expect(kept.get(5)?.n).toBe(5);
    expect(kept.get(7)).toBeUndefined();
    expect(kept.get(9)?.n).toBe(9);
    kept.add({ n: 4 });
    kept.add({ n: 6, copy: 2 });
    expect(numbers(kept)).toEqual([2, 4, 5, 6, 9]);
    expect(kept.get(6)?.copy).toBe(2);
    expect(kept.takeThrough(5, () => {})).toBe(3);
    expect(numbers(kept)).toEqual([6, 9]);
  });

  it('holds what a sorted list of the numbers kept and not taken holds, whatever the order of adds and acknowledgements', () => {
    const step = fc.oneof(
      fc.record({ add: fc.integer({ min: 1, max: 3000 }) }),
      fc.record({ upto: fc.integer({ min: 0, max: 3000 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 400 }), fc.integer({ min: 0, max: 2500 }), (steps, start) => {
        const kept = new KeptOnLink<{ n: number }>();
        const model = new Set<number>();
        // Most runs first keep a long unbroken stretch, so that the queue is compacted under way.
        for (let n = 1; n <= start; n++) {
          kept.add({ n });
          model.add(n);
        }
        for (const s of steps) {
          if ('add' in s) {
            kept.add({ n: s.add });
            model.add(s.add);
          } else {
            const expected = [...model].filter((n) => n <= s.upto).sort((a, b) => a - b);
            const taken: number[] = [];
            kept.takeThrough(s.upto, (m) => taken.push(m.n));
            expect(taken).toEqual(expected);
            for (const n of expected) model.delete(n);
          }
          expect(kept.size).toBe(model.size);
        }
        const sorted = [...model].sort((a, b) => a - b);
        expect(numbers(kept)).toEqual(sorted);
        for (const n of sorted) expect(kept.get(n)?.n).toBe(n);
        expect(kept.get(3001)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });
});
