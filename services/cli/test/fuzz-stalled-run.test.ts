import { describe, expect, it } from 'vitest';
import type { Job } from '@gridemu/model';
import { parseExperiment, type GridPlan } from '@gridemu/schemes';
import { StalledRunWatch } from '../src/fuzz/stalled-run.js';

const spec = parseExperiment(
  `name: stall
seed: 1
sites: [{ id: s1, cpus: 4 }]
workload: [{ site: s1, synthetic: { jobs: 2 } }]
faults:
  crash: [{ process: s1, at_s: 5000, down_s: 1000 }]
`,
  'stall.yaml',
).spec;

const job = (id: string, submit_s: number, run_s: number): Job => ({
  id,
  workload: 'w',
  origin: 's1',
  submit_s,
  run_s,
  estimate_s: run_s,
  procs: 1,
});
const jobs = [job('a', 0, 100), job('b', 2000, 100)];
const DAYS_30 = 30 * 86_400;
/** A plan whose driver has `a` finished and `b` without an outcome. */
const plan = {
  driver: { records: [{ job: jobs[0], finish_s: 100 }, { job: jobs[1] }] },
} as unknown as GridPlan;

describe("the fuzz's watch for a run that never ends", () => {
  it('calls a run stuck once no job has reached its outcome for 30 days past its last submission and fault, naming the jobs left', () => {
    const watch = new StalledRunWatch(spec, jobs);
    watch.progress({ finished: 1, total: 2, now_s: 100 }, plan);
    // Quiet is counted from the crash's end at 6000 s, the last of the submissions and faults.
    expect(() => watch.progress({ finished: 1, total: 2, now_s: 6000 + DAYS_30 }, plan)).not.toThrow();
    expect(() => watch.progress({ finished: 1, total: 2, now_s: 6001 + DAYS_30 }, plan)).toThrow(
      /no job reached its outcome for 2592001 emulated s \(from 6000 s, .* to 2598001 s\); 1 of 2 jobs have none \(b\)/,
    );
  });

  it('starts counting again at every outcome, and allows ten times the longest job', () => {
    const long = [job('a', 0, 100), job('b', 0, 10 * 86_400)];
    const watch = new StalledRunWatch(spec, long);
    watch.progress({ finished: 0, total: 2, now_s: 50 }, plan);
    watch.progress({ finished: 1, total: 2, now_s: 7000 }, plan);
    // Ten times a 10-day job is 100 days, counted from the outcome at 7000 s (after the crash's end).
    expect(() => watch.progress({ finished: 1, total: 2, now_s: 7000 + 100 * 86_400 }, plan)).not.toThrow();
    expect(() => watch.progress({ finished: 1, total: 2, now_s: 7001 + 100 * 86_400 }, plan)).toThrow(/1 of 2 jobs/);
  });
});
