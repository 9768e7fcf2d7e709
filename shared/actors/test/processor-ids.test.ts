import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { intervalSet, ProcessorIds } from '../src/index.js';

describe('processor ids', () => {
  it('hands out the lowest free ids and merges what comes back', () => {
    const p = new ProcessorIds(10);
    const a = p.take(3);
    const b = p.take(4);
    expect([intervalSet(a), intervalSet(b)]).toEqual(['0-2', '3-6']);
    p.give(a);
    expect(intervalSet(p.take(5))).toBe('0-2 7-8');
    p.give(b);
    expect(intervalSet(p.take(4))).toBe('3-6');
    expect(() => p.give([[3, 3]])).not.toThrow();
    expect(() => p.give([[3, 3]])).toThrow(/processor 3 freed twice/);
  });

  it('agrees with a set of free ids over any sequence of takes and gives', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.array(fc.tuple(fc.boolean(), fc.nat()), { maxLength: 200 }),
        (total, ops) => {
          const p = new ProcessorIds(total);
          const free = new Set(Array.from({ length: total }, (_, i) => i));
          const held: [number, number][][] = [];
          for (const [take, n] of ops) {
            if (take && free.size > 0) {
              const want = 1 + (n % free.size);
              const got = p.take(want);
              const ids = got.flatMap(([x, y]) => Array.from({ length: y - x + 1 }, (_, i) => x + i));
              expect(ids).toEqual([...free].sort((x, y) => x - y).slice(0, want));
              for (const id of ids) free.delete(id);
              held.push(got);
            } else if (held.length > 0) {
              const back = held.splice(n % held.length, 1)[0]!;
              p.give(back);
              for (const [x, y] of back) for (let id = x; id <= y; id++) free.add(id);
            }
          }
          expect(intervalSet(p.take(free.size))).toBe(intervalSet(runs([...free].sort((x, y) => x - y))));
        },
      ),
      { numRuns: 300 },
    );
  });
});

function runs(ids: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const id of ids) {
    const last = out[out.length - 1];
    if (last && last[1] + 1 === id) last[1] = id;
    else out.push([id, id]);
  }
  return out;
}
