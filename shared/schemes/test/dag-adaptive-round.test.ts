import { describe, expect, it } from 'vitest';
import { DagJob } from '../src/dag/dag-job.js';
import { predictedRemaining_mi, rescheduleRound, type RunningTaskReport } from '../src/dag/adaptive-round.js';
import type { ResourceLoad } from '../src/dag/reschedule.js';

/** A Tornado-like job whose initial task has finished and whose parallel tasks all run. */
function running(name: string, parallel: string[]): DagJob {
  const j = new DagJob(name, [
    { id: 'init', parents: [], work_mi: 10 },
    ...parallel.map((id) => ({ id, parents: ['init'], work_mi: 1000 })),
    { id: 'final', parents: parallel, work_mi: 10 },
  ]);
  j.start('init');
  j.finish('init');
  for (const p of parallel) j.start(p);
  return j;
}

describe('paper 003, steps 1 and 2 over the grid: one adaptive round', () => {
  it('predicts the remaining work from progress: E = T / P (§3), in work', () => {
    expect(predictedRemaining_mi(500, 0.25)).toBe(1500);
    expect(predictedRemaining_mi(500, 1)).toBe(0);
    expect(predictedRemaining_mi(0, 0)).toBeUndefined();
    expect(predictedRemaining_mi(100, 0)).toBeUndefined();
  });

  it('reschedules the set with fewer running tasks first, and the next set may not undo it (worked by hand)', () => {
    // A 4000 MIPS is free; B to F run one task each at 1000 MIPS. A migration costs 0.5 s.
    // J1 = {p0, p1} (2 running) goes before J2 = {q0, q1, q2} (3).
    // J1: p0 did 500 MI at P = 0.25, so 1500 MI remain (1.5 s); p1 did 500 at P = 0.5: 500 MI (0.5 s).
    //   p0 moves to A: 0.5 + 1500/4000 = 0.875 s. It stays the longest; p1 has no slower resource
    //   that keeps it under 0.875 s (D, E, F shared: 0.5 + 500/500 = 1.5 s), so it stays.
    // J2: q0 has 4000 MI left (4 s). A, shared with p0, would give it 2000 MIPS but slow p0 to
    //   0.5 + 1500/2000 = 1.25 s, delaying J1's set: refused. Nothing else is faster: no move.
    // In the other order q0 would have taken A (0.5 + 4000/4000 = 1.5 s).
    const resources: ResourceLoad[] = [
      { id: 'A', mips: 4000, running: 0 },
      ...['B', 'C', 'D', 'E', 'F'].map((id) => ({ id, mips: 1000, running: 1 })),
    ];
    const reports: RunningTaskReport[] = [
      { job: 'J1', task: 'p0', resource: 'B', done_mi: 500, progress: 0.25 },
      { job: 'J1', task: 'p1', resource: 'C', done_mi: 500, progress: 0.5 },
      { job: 'J2', task: 'q0', resource: 'D', done_mi: 1000, progress: 0.2 },
      { job: 'J2', task: 'q1', resource: 'E', done_mi: 1000, progress: 0.5 },
      { job: 'J2', task: 'q2', resource: 'F', done_mi: 1000, progress: 0.5 },
    ];
    const jobs = [running('J2', ['q0', 'q1', 'q2']), running('J1', ['p0', 'p1'])];
    expect(rescheduleRound(jobs, reports, resources, { migration_s: 0.5, min_improvement: 0 })).toEqual([
      { task: 'J1/p0', from: 'B', to: 'A' },
    ]);
    // Alone, J2's set takes A.
    expect(rescheduleRound([jobs[0]!], reports.slice(2), resources, { migration_s: 0.5, min_improvement: 0 })).toEqual([
      { task: 'J2/q0', from: 'D', to: 'A' },
    ]);
  });

  it('leaves a set with a task that has reported no progress, and a set that is not fully scheduled', () => {
    const resources: ResourceLoad[] = [
      { id: 'A', mips: 4000, running: 0 },
      { id: 'B', mips: 1000, running: 1 },
      { id: 'C', mips: 1000, running: 1 },
    ];
    const j = running('J', ['p0', 'p1']);
    const reports: RunningTaskReport[] = [
      { job: 'J', task: 'p0', resource: 'B', done_mi: 500, progress: 0.25 },
      { job: 'J', task: 'p1', resource: 'C', done_mi: 0, progress: 0 },
    ];
    expect(rescheduleRound([j], reports, resources, { migration_s: 0.5, min_improvement: 0 })).toEqual([]);
    j.requeue('p1'); // idle again: the set is no longer fully scheduled
    expect(rescheduleRound([j], reports.slice(0, 1), resources, { migration_s: 0.5, min_improvement: 0 })).toEqual([]);
  });

  it('optimizes a parent subset before the set that holds it (§2, §3: {1,2} inside {1,2,3}; worked by hand)', () => {
    // a, b and c run after init; d needs {a, b}, e needs {a, b, c}: {a, b} is a subset of {a, b, c}.
    const j = new DagJob('J', [
      { id: 'init', parents: [], work_mi: 10 },
      { id: 'a', parents: ['init'], work_mi: 1000 },
      { id: 'b', parents: ['init'], work_mi: 1000 },
      { id: 'c', parents: ['init'], work_mi: 1000 },
      { id: 'd', parents: ['a', 'b'], work_mi: 10 },
      { id: 'e', parents: ['a', 'b', 'c'], work_mi: 10 },
    ]);
    j.start('init');
    j.finish('init');
    for (const t of ['a', 'b', 'c']) j.start(t);
    // A 4000 MIPS is free; B, C, D run a, b, c at 1000 MIPS. A migration costs 0.5 s.
    // The subset {a, b} first: a has 1500 MI left (1.5 s), b 500 (0.5 s). a moves to A:
    //   0.5 + 1500/4000 = 0.875 s, still its set's longest, and b has no slower CR that keeps it under that.
    // Then {a, b, c}: c has 3000 MI left (3 s). A, shared with a, would give it 2000 MIPS and slow a to
    //   0.5 + 1500/2000 = 1.25 s, delaying the subset: refused. a and b, in the subset, are not moved
    //   to slower CRs for the larger set. So the one move is a's, where c would take A if the larger set went first.
    const resources: ResourceLoad[] = [
      { id: 'A', mips: 4000, running: 0 },
      ...['B', 'C', 'D'].map((id) => ({ id, mips: 1000, running: 1 })),
    ];
    const reports: RunningTaskReport[] = [
      { job: 'J', task: 'a', resource: 'B', done_mi: 500, progress: 0.25 },
      { job: 'J', task: 'b', resource: 'C', done_mi: 500, progress: 0.5 },
      { job: 'J', task: 'c', resource: 'D', done_mi: 1000, progress: 0.25 },
    ];
    expect(j.parentSets.map((s) => s.members)).toEqual([['init'], ['a', 'b'], ['a', 'b', 'c']]);
    expect(rescheduleRound([j], reports, resources, { migration_s: 0.5, min_improvement: 0 })).toEqual([
      { task: 'J/a', from: 'B', to: 'A' },
    ]);
  });
});
