import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ProcsIndex } from '../src/local/procs-index.js';

describe('ProcsIndex', () => {
  it('finds the first position at or after a start asking for at most a limit, as a scan would', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ pos: fc.nat(63), procs: fc.option(fc.integer({ min: 1, max: 16 })) }), { maxLength: 80 }),
        fc.nat(70),
        fc.integer({ min: 0, max: 17 }),
        (writes, from, limit) => {
          const index = new ProcsIndex(64);
          const plain: number[] = Array<number>(64).fill(Number.POSITIVE_INFINITY);
          for (const w of writes) {
            if (w.procs === null) index.clear(w.pos);
            else index.set(w.pos, w.procs, 1);
            plain[w.pos] = w.procs ?? Number.POSITIVE_INFINITY;
          }
          const scanned = plain.findIndex((p, i) => i >= from && p <= limit);
          // With no spare or estimate limit, only the processors count.
          expect(index.next(from, limit, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY)).toBe(scanned);
          expect(index.min).toBe(Math.min(...plain));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('finds the first position at or after a start whose job fits and is within spare or short enough, as a scan would', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            pos: fc.nat(63),
            job: fc.option(
              fc.record({ procs: fc.integer({ min: 1, max: 16 }), estimate_s: fc.integer({ min: 1, max: 30 }) }),
            ),
          }),
          { maxLength: 120 },
        ),
        fc.nat(70),
        fc.integer({ min: 0, max: 17 }),
        fc.integer({ min: 0, max: 17 }),
        fc.integer({ min: 0, max: 31 }),
        (writes, from, free, spare, estimate_s) => {
          const index = new ProcsIndex(64);
          const plain: ({ procs: number; estimate_s: number } | null)[] = Array(64).fill(null);
          for (const w of writes) {
            if (w.job === null) index.clear(w.pos);
            else index.set(w.pos, w.job.procs, w.job.estimate_s);
            plain[w.pos] = w.job;
          }
          const scanned = plain.findIndex(
            (j, i) => i >= from && j !== null && j.procs <= free && (j.procs <= spare || j.estimate_s <= estimate_s),
          );
          expect(index.next(from, free, spare, estimate_s)).toBe(scanned);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('refuses a capacity that is not a power of two', () => {
    expect(() => new ProcsIndex(48)).toThrow(/not a power of two/);
  });
});
