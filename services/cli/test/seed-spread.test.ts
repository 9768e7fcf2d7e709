import { describe, expect, it } from 'vitest';
import type { Job } from '@gridemu/model';
import { jobsSha256 } from '@gridemu/workload';
import { identicalRuns, sameJobsEveryRun, seedSpreadNote } from '../src/seed-spread.js';

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
  it("takes runs for one workload when every summary's jobs_sha256 is the same", () => {
    expect(sameJobsEveryRun(['a1', 'a1', 'a1'])).toBe(true);
    // The third seed drew other jobs: not judged on the first two alone.
    expect(sameJobsEveryRun(['a1', 'a1', 'b2'])).toBe(false);
    // A summary from before the digest was recorded cannot say; one run is no set.
    expect(sameJobsEveryRun(['a1', undefined])).toBe(false);
    expect(sameJobsEveryRun([undefined, undefined])).toBe(false);
    expect(sameJobsEveryRun(['a1'])).toBe(false);
  });

  it('digests a workload by every field of every job, in order', () => {
    const w = [job('w!1', 0), job('w!2', 5)];
    expect(jobsSha256(w)).toBe(jobsSha256([job('w!1', 0), job('w!2', 5)]));
    expect(jobsSha256(w)).toMatch(/^[0-9a-f]{64}$/);
    expect(jobsSha256(w)).not.toBe(jobsSha256([job('w!1', 0), job('w!2', 6)]));
    expect(jobsSha256(w)).not.toBe(jobsSha256([job('w!2', 5), job('w!1', 0)]));
    expect(jobsSha256(w)).not.toBe(jobsSha256([job('w!1', 0)]));
    expect(jobsSha256(w)).not.toBe(jobsSha256([job('w!1', 0), { ...job('w!2', 5), vo: 'ivdgl' }]));
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
