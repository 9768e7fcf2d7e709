import { describe, expect, it } from 'vitest';
import { Rng } from '@gridemu/runtime';
import { runJob } from '../src/hierarchy/grid-pool.js';

describe("paper 000's grids: overhead and volatility", () => {
  const grid = { cpus: 500, N: 200, P: 2, overhead_s: 120, evictions_per_hour: 0.5 };

  it('a job runs its work over P · β, after the overhead, unless evicted first', () => {
    const calm = { ...grid, overhead_s: 0, evictions_per_hour: 0 };
    expect(runJob(calm, 600, 0.5, new Rng(1))).toEqual({ overhead_s: 0, run_s: 600, evicted: false });
  });

  it('evicts at the configured rate: about 1 − e^(−rate · run) of the jobs', () => {
    const rng = new Rng(3);
    // 15-minute jobs (Table 3's job durations) at 0.5 evictions per hour: 1 − e^(−0.125) = 11.75% evicted.
    const runs = Array.from({ length: 20_000 }, () => runJob(grid, 900, 0.5, rng)); // 900 s of work at P · β = 1: 15 minutes
    const evicted = runs.filter((r) => r.evicted).length / runs.length;
    expect(evicted).toBeCloseTo(1 - Math.exp(-0.125), 2);
    expect(runs.every((r) => r.run_s <= 900)).toBe(true);
    const meanOverhead = runs.reduce((a, r) => a + r.overhead_s, 0) / runs.length;
    expect(meanOverhead).toBeGreaterThan(115);
    expect(meanOverhead).toBeLessThan(125);
  });
});
