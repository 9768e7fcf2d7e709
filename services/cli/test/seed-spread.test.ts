import { describe, expect, it } from 'vitest';
import type { Job } from '@gridemu/model';
import { identicalRuns, sameJobs, seedSpreadNote } from '../src/seed-spread.js';

const job = (id: string, submit_s: number): Job => ({
  id,
  workload: 'w',
  origin: 's1',
  submit_s,
  run_s: 10,
  estimate_s: 20,
  procs: 1,
});

describe('what a set of seeds sampled', () => {
  it('compares two workloads job by job, field by field', () => {
    expect(sameJobs([job('w!1', 0), job('w!2', 5)], [job('w!1', 0), job('w!2', 5)])).toBe(true);
    expect(sameJobs([job('w!1', 0), job('w!2', 5)], [job('w!1', 0), job('w!2', 6)])).toBe(false);
    expect(sameJobs([job('w!1', 0)], [job('w!1', 0), job('w!2', 5)])).toBe(false);
  });

  it('takes runs for one run when only the seed and the wall times differ', () => {
    const a = { seed: 1, mean_wait_s: 4655.5, utilization: 0.165, wall_time_s: 0.9, live_run_wall_s: 12 };
    const b = { ...a, seed: 2, wall_time_s: 1.1, live_run_wall_s: 13 };
    expect(identicalRuns([a, b])).toBe(true);
    expect(identicalRuns([a, b, { ...b, seed: 3, mean_wait_s: 4655.6 }])).toBe(false);
    // A metric one run lacks is a difference too.
    const { utilization: _, ...without } = b;
    expect(identicalRuns([a, without])).toBe(false);
    // One seed is no set.
    expect(identicalRuns([a])).toBe(false);
  });

  it('says what the intervals are over, or that there are none', () => {
    expect(seedSpreadNote({ same_workload_every_seed: true, identical_runs: true }, 3)).toMatch(
      /^NOTE: the 3 seeds made the same run .* "± 0" is no confidence interval; .*workload\[i\]\.skip/,
    );
    expect(seedSpreadNote({ same_workload_every_seed: true, identical_runs: false }, 3)).toMatch(
      /^NOTE: every seed submitted the same jobs: the intervals are over what else the seed draws/,
    );
    expect(seedSpreadNote({ same_workload_every_seed: false, identical_runs: false }, 3)).toBeUndefined();
    // A replay's seeds are meant to vary its network draws alone; one run made N times is still said.
    expect(seedSpreadNote({ same_workload_every_seed: true, identical_runs: false }, 3, true)).toBeUndefined();
    expect(seedSpreadNote({ same_workload_every_seed: true, identical_runs: true }, 3, true)).toMatch(/^NOTE: the 3/);
  });
});
