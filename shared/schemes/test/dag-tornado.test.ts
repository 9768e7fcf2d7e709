import { describe, expect, it } from 'vitest';
import { Rng } from '@gridemu/runtime';
import { generateTornado, TORNADO_DEFAULTS } from '../src/dag/index.js';

describe("paper 003's Tornado-like jobs", () => {
  it('are 3-level DAGs: one initial task, a parent set of the asked size, one final task fed by all of it', () => {
    for (const parallel of [2, 5, 10, 20]) {
      const jobs = generateTornado({ ...TORNADO_DEFAULTS, jobs: 30, parallel, variation: 'medium' }, new Rng(1));
      expect(jobs).toHaveLength(30);
      for (const j of jobs) {
        expect(j.tasks).toHaveLength(parallel + 2);
        expect(j.tasks[0]).toMatchObject({ id: 'init', parents: [] });
        expect(j.tasks.slice(1, -1).every((t) => t.parents.length === 1 && t.parents[0] === 'init')).toBe(true);
        expect(j.tasks.at(-1)!.parents).toEqual(j.tasks.slice(1, -1).map((t) => t.id));
      }
      expect(jobs.map((j) => j.submit_s)).toEqual([...jobs.map((j) => j.submit_s)].sort((a, b) => a - b));
    }
  });

  it('with a subset, add a task fed by the first k parallel tasks beside the final one; the rest is drawn the same', () => {
    const plain = generateTornado({ ...TORNADO_DEFAULTS, jobs: 10, parallel: 5, variation: 'high' }, new Rng(3));
    const nested = generateTornado(
      { ...TORNADO_DEFAULTS, jobs: 10, parallel: 5, variation: 'high', subset: 2 },
      new Rng(3),
    );
    for (const [i, j] of nested.entries()) {
      expect(j.tasks.slice(0, -1)).toEqual(plain[i]!.tasks);
      expect(j.tasks.at(-1)).toMatchObject({ id: 'sub', parents: ['p0', 'p1'] });
    }
  });

  it('arrive about 80% by day, and spread their task lengths as the variation model says', () => {
    const spread = (variation: 'high' | 'medium' | 'low') => {
      const jobs = generateTornado({ ...TORNADO_DEFAULTS, jobs: 3000, parallel: 10, variation }, new Rng(2));
      const day =
        jobs.filter((j) => {
          const h = (j.submit_s % 86_400) / 3600;
          return h >= 8 && h < 20;
        }).length / jobs.length;
      // Spread within a parent set: the mean of log(max / min) over jobs.
      const ratio =
        jobs.reduce((a, j) => {
          const ls = j.tasks.slice(1, -1).map((t) => t.length_s);
          return a + Math.log(Math.max(...ls) / Math.min(...ls));
        }, 0) / jobs.length;
      return { day, ratio };
    };
    const high = spread('high');
    const medium = spread('medium');
    const low = spread('low');
    expect(high.day).toBeGreaterThan(0.74);
    expect(high.day).toBeLessThan(0.86);
    expect(high.ratio).toBeGreaterThan(medium.ratio * 1.5);
    expect(medium.ratio).toBeGreaterThan(low.ratio * 2);
  });
});
