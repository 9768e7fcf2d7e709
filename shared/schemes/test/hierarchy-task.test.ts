import { describe, expect, it } from 'vitest';
import { DivisibleTask } from '../src/hierarchy/divisible-task.js';

describe('a divisible task run master-worker (paper 000)', () => {
  it('a migrated task keeps its finished jobs; jobs running when it left run again', () => {
    const t = new DivisibleTask('t', 3000, 6);
    const started = [t.startJob()!, t.startJob()!, t.startJob()!, t.startJob()!];
    t.finishJob(started[0]!);
    t.finishJob(started[2]!);
    expect({ done: t.done, running: t.running, pending: t.pending, remaining: t.remainingWork_s }).toEqual({
      done: 2,
      running: 2,
      pending: 2,
      remaining: 2000,
    });
    expect(t.checkpointForMigration()).toBe(2);
    expect({ done: t.done, running: t.running, pending: t.pending, remaining: t.remainingWork_s }).toEqual({
      done: 2,
      running: 0,
      pending: 4,
      remaining: 2000,
    });
    // In the next queue only the four unfinished jobs run.
    const again: number[] = [];
    for (let i = t.startJob(); i !== undefined; i = t.startJob()) again.push(i);
    expect(again.sort()).toEqual([1, 3, 4, 5]);
    for (const i of again) t.finishJob(i);
    expect(t.finished).toBe(true);
  });

  it('an evicted job runs again; finishing a job twice is an error', () => {
    const t = new DivisibleTask('t', 100, 2);
    const a = t.startJob()!;
    t.evictJob(a);
    expect(t.pending).toBe(2);
    const b = t.startJob()!;
    t.finishJob(b);
    expect(() => t.finishJob(b)).toThrow(/not running/);
  });
});
