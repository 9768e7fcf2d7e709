import { describe, expect, it } from 'vitest';
import { rescheduleParentSet, type PlacedTask, type ResourceLoad } from '../src/dag/reschedule.js';

/**
 * Step 2 on paper: resources A 4000, B 2000, C 1000 and D 500 MIPS; parent set PS with t1 on D
 * (2000 MI left: 4 s) and t2 on C (1200 MI: 1.2 s); a migration costs 0.5 s.
 */
const resources = (): ResourceLoad[] => [
  { id: 'A', mips: 4000, running: 0 },
  { id: 'B', mips: 2000, running: 0 },
  { id: 'C', mips: 1000, running: 1 },
  { id: 'D', mips: 500, running: 1 },
];
const ps = (): PlacedTask[] => [
  { id: 't1', set: 'PS', resource: 'D', remaining_mi: 2000 },
  { id: 't2', set: 'PS', resource: 'C', remaining_mi: 1200 },
];

describe('paper 003, step 2: rescheduling a parent set', () => {
  it('moves the longest task to the fastest resource, then the new longest, until the set cannot finish sooner', () => {
    // t1 (4 s) goes to A: 0.5 + 2000/4000 = 1.0 s. Now t2 (1.2 s) is the longest. For it, A (shared
    // with t1: 2000 MIPS) and B (alone: 2000) tie; A comes first by name but would slow t1 to
    // 0.5 + 2000/2000 = 1.5 s, raising the set's end over 1.2 s, so it is refused. B gives t2
    // 0.5 + 1200/2000 = 1.1 s. t2 is still the longest: the limit. t1 has no slower resource that keeps
    // it under 1.1 s (C: 0.5 + 2000/1000 = 2.5 s), so it stays.
    expect(rescheduleParentSet('PS', ps(), resources(), { migration_s: 0.5, min_improvement: 0 })).toEqual([
      { task: 't1', from: 'D', to: 'A' },
      { task: 't2', from: 'C', to: 'B' },
    ]);
  });

  it('skips a move that shortens the task by less than MP', () => {
    // t2's move saves 1.2 → 1.1 s, 8.3%: under MP = 10% it is skipped; t1's (4 → 1 s) is not.
    expect(rescheduleParentSet('PS', ps(), resources(), { migration_s: 0.5, min_improvement: 0.1 })).toEqual([
      { task: 't1', from: 'D', to: 'A' },
    ]);
  });

  it('never delays another parent set', () => {
    // t3 of PS2 runs alone on B: 1500/2000 = 0.75 s. Sharing B would make it 1.5 s, so t2 cannot go
    // there; A (with t1) gives t2 0.5 + 1200/2000 = 1.1 s and t1 2000/2000 + 0.5 = 1.5 s: the set's
    // end rises to 1.5 s, over t2's 1.2 s, so that is refused too, and t2 stays on C.
    const tasks = [...ps(), { id: 't3', set: 'PS2', resource: 'B', remaining_mi: 1500 }];
    const rs = resources();
    rs[1]!.running = 1;
    expect(rescheduleParentSet('PS', tasks, rs, { migration_s: 0.5, min_improvement: 0 })).toEqual([
      { task: 't1', from: 'D', to: 'A' },
    ]);
  });

  it("sends the other tasks to the slowest resources that keep the set's end", () => {
    // t1 (8000 MI on B, shared with t4: 8 s) is the longest; A gives it 0.5 + 8000/4000 = 2.5 s and it
    // stays the longest: the limit. t2 (1000 MI on C: 1 s) could only go slower to D: 0.5 + 1000/500 =
    // 2.5 s, not under the limit, so it stays. t4 (500 MI, now alone on B: 0.25 s) could go to C
    // (shared: 500 MIPS) or D (500 MIPS): equal speeds, and the slower machine D comes first:
    // 0.5 + 500/500 = 1.5 s < 2.5 s. The fast B is free again.
    const rs: ResourceLoad[] = [
      { id: 'A', mips: 4000, running: 0 },
      { id: 'B', mips: 2000, running: 2 },
      { id: 'C', mips: 1000, running: 1 },
      { id: 'D', mips: 500, running: 0 },
    ];
    const tasks: PlacedTask[] = [
      { id: 't1', set: 'PS', resource: 'B', remaining_mi: 8000 },
      { id: 't2', set: 'PS', resource: 'C', remaining_mi: 1000 },
      { id: 't4', set: 'PS', resource: 'B', remaining_mi: 500 },
    ];
    expect(rescheduleParentSet('PS', tasks, rs, { migration_s: 0.5, min_improvement: 0 })).toEqual([
      { task: 't1', from: 'B', to: 'A' },
      { task: 't4', from: 'B', to: 'D' },
    ]);
  });
});
