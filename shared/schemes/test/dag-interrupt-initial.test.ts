import { describe, expect, it } from 'vitest';
import { relocateInitialTasks } from '../src/dag/interrupt-initial.js';

describe('paper 003, step 1: initial tasks make room for dependent ones (§3)', () => {
  it('moves the initial tasks on a resource a dependent task uses to the slowest free resources, one each (worked by hand)', () => {
    // A (4000 MIPS) runs a dependent task and holds initial tasks i1 and i2; B (2000) holds i3 alone,
    // so i3 runs there and stays. Free: C (1000), D (500) and E (500). i1 takes the slowest, D (E ties
    // on speed and comes after it by name); i2 the next slowest, E. C stays free for dependent tasks.
    const moves = relocateInitialTasks(
      [
        { id: 'i1', resource: 'A' },
        { id: 'i3', resource: 'B' },
        { id: 'i2', resource: 'A' },
      ],
      [
        { id: 'A', mips: 4000, dependents: 1, initials: 2 },
        { id: 'B', mips: 2000, dependents: 0, initials: 1 },
        { id: 'C', mips: 1000, dependents: 0, initials: 0 },
        { id: 'E', mips: 500, dependents: 0, initials: 0 },
        { id: 'D', mips: 500, dependents: 0, initials: 0 },
      ],
    );
    expect(moves).toEqual([
      { task: 'i1', from: 'A', to: 'D' },
      { task: 'i2', from: 'A', to: 'E' },
    ]);
  });

  it('leaves an initial task where it is when no resource is free: it resumes when its own clears', () => {
    // B holds an initial task and C a dependent one: neither is free, so i1 waits on A.
    expect(
      relocateInitialTasks(
        [{ id: 'i1', resource: 'A' }],
        [
          { id: 'A', mips: 4000, dependents: 2, initials: 1 },
          { id: 'B', mips: 100, dependents: 0, initials: 1 },
          { id: 'C', mips: 100, dependents: 1, initials: 0 },
        ],
      ),
    ).toEqual([]);
  });

  it('refuses an initial task on a resource the grid does not have', () => {
    expect(() =>
      relocateInitialTasks([{ id: 'i', resource: 'Z' }], [{ id: 'A', mips: 1, dependents: 0, initials: 0 }]),
    ).toThrow(/initial task i is on resource Z/);
  });
});
