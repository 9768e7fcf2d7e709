import { describe, expect, it } from 'vitest';
import { metricsSomeRunLacks, variantMeans } from '../src/sweep/variant-means.js';

describe("a sweep's means over a variant's seeds", () => {
  // Three seeds of one variant; in the second no job completed, so its Time is undefined
  // (summary.json's null, which flattenSummary leaves out), and its local group had no job.
  const runs: Record<string, number>[] = [
    { comp_pct: 60, time_s: 24000, local_jobs: 5 },
    { comp_pct: 0 },
    { comp_pct: 30, time_s: 22000, local_jobs: 7 },
  ];
  const names = ['comp_pct', 'time_s', 'local_jobs', 'never'];

  it('leaves a run out of the mean of a metric it does not define, and says over how many runs', () => {
    const m = variantMeans(runs, names);
    // Read as 0, the run that completed nothing would make Time 15,333 s.
    expect(m.mean['time_s']).toBe(23000);
    expect(m.runs['time_s']).toBe(2);
    // Two runs: t(0.95, 1) = 6.314, sd 1414.2 over sqrt(2).
    expect(m.ci90['time_s']).toBeCloseTo(6313.75, 0);
    expect(m.mean['comp_pct']).toBe(30);
    expect(m.runs['comp_pct']).toBe(3);
  });

  it("counts a group's missing job count as no jobs, and gives no mean where no run defines one", () => {
    const m = variantMeans(runs, names);
    expect(m.mean['local_jobs']).toBe(4);
    expect(m.runs['local_jobs']).toBe(3);
    expect(m.mean['never']).toBeUndefined();
    expect(m.ci90['never']).toBeUndefined();
    expect(m.runs['never']).toBe(0);
  });

  it('names the metrics some run lacks, for the mean table to give their run counts', () => {
    expect([...metricsSomeRunLacks(runs, names)]).toEqual(['time_s', 'never']);
  });
});
