import { describe, expect, it } from 'vitest';
import { scheduleReady } from '../src/dag/schedule-ready.js';
import type { ResourceLoad } from '../src/dag/reschedule.js';

const grid = (running: number): ResourceLoad[] => [
  { id: 'A', mips: 4000, running },
  { id: 'B', mips: 2000, running },
  { id: 'C', mips: 1000, running },
  { id: 'D', mips: 500, running },
];

describe('paper 003, step 3: scheduling ready tasks', () => {
  it('serves a partly processed set first, and places each set to end together on the slowest resources that allow it', () => {
    // G2 is partly processed, so it goes first although G1 waited longer: w takes A (0.25 s).
    // G1: x, the longest (8000 MI), takes the fastest free resource, B: 4 s, the set's limit.
    // y (2000 MI) could take C (2 s) or D (4 s): D, the slowest within 4 s. z (500 MI) takes C, the
    // only free one left (0.5 s).
    const out = scheduleReady(
      [
        {
          set: 'G1',
          partlyProcessed: false,
          readySince_s: 10,
          tasks: [
            { id: 'z', estimate_mi: 500 },
            { id: 'x', estimate_mi: 8000 },
            { id: 'y', estimate_mi: 2000 },
          ],
        },
        { set: 'G2', partlyProcessed: true, readySince_s: 20, tasks: [{ id: 'w', estimate_mi: 1000 }] },
      ],
      grid(0),
    );
    expect(out).toEqual([
      { task: 'w', resource: 'A' },
      { task: 'x', resource: 'B' },
      { task: 'y', resource: 'D' },
      { task: 'z', resource: 'C' },
    ]);
  });

  it('with no free resource, shares the one where the task runs fastest, and keeps the rest of its set within that time', () => {
    // Every resource runs one dependent task. t (1000 MI) joins A: 4000/2 = 2000 MIPS, 0.5 s.
    // u (100 MI): A would now give 4000/3 (0.075 s), B 1000 (0.1 s), C 500 (0.2 s), D 250 (0.4 s):
    // D is the slowest within 0.5 s.
    expect(
      scheduleReady(
        [
          {
            set: 'S',
            partlyProcessed: false,
            readySince_s: 0,
            tasks: [
              { id: 't', estimate_mi: 1000 },
              { id: 'u', estimate_mi: 100 },
            ],
          },
        ],
        grid(1),
      ),
    ).toEqual([
      { task: 't', resource: 'A' },
      { task: 'u', resource: 'D' },
    ]);
  });

  it('orders groups of equal standing by how long they waited, and a task no resource keeps within the limit takes the fastest', () => {
    // P waited longer than Q: its a takes A (1 s). Q's b takes B (2000 MI: 1 s); c (2000 MI too) fits
    // within 1 s nowhere free (C: 2 s, D: 4 s), so it takes the fastest free one, C.
    expect(
      scheduleReady(
        [
          {
            set: 'Q',
            partlyProcessed: false,
            readySince_s: 5,
            tasks: [
              { id: 'b', estimate_mi: 2000 },
              { id: 'c', estimate_mi: 2000 },
            ],
          },
          { set: 'P', partlyProcessed: false, readySince_s: 1, tasks: [{ id: 'a', estimate_mi: 4000 }] },
        ],
        grid(0),
      ),
    ).toEqual([
      { task: 'a', resource: 'A' },
      { task: 'b', resource: 'B' },
      { task: 'c', resource: 'C' },
    ]);
  });
});
