import { describe, expect, it } from 'vitest';
import type { Job } from '@gridemu/model';
import type { JobRecord } from '@gridemu/metrics';
import { loadExperimentWorkload, parseExperiment, simulate } from '../src/index.js';
import { StalledRunError, StalledRunWatch } from '../src/stalled-run.js';
import { oneGridLines } from './helpers.js';

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
/** `a` finished and `b` without an outcome. */
const records = [{ job: jobs[0], finish_s: 100 }, { job: jobs[1] }] as unknown as JobRecord[];

describe("the simulator's watch for a run that never ends", () => {
  it('calls a run stuck once no job has reached its outcome for 30 days past its last submission and fault, naming the jobs left', () => {
    const watch = new StalledRunWatch(spec, jobs);
    watch.check(1, 100, records);
    // Quiet is counted from the crash's end at 6000 s, the last of the submissions and faults.
    expect(() => watch.check(1, 6000 + DAYS_30, records)).not.toThrow();
    expect(() => watch.check(1, 6001 + DAYS_30, records)).toThrow(
      /no job reached its outcome for 2592001 emulated s \(from 6000 s, .* to 2598001 s\); 1 of 2 jobs have none \(b\)/,
    );
  });

  it('starts counting again at every outcome, and allows ten times the longest job', () => {
    const long = [job('a', 0, 100), job('b', 0, 10 * 86_400)];
    const watch = new StalledRunWatch(spec, long);
    watch.check(0, 50, records);
    watch.check(1, 7000, records);
    // Ten times a 10-day job is 100 days, counted from the outcome at 7000 s (after the crash's end).
    expect(() => watch.check(1, 7000 + 100 * 86_400, records)).not.toThrow();
    expect(() => watch.check(1, 7001 + 100 * 86_400, records)).toThrow(/1 of 2 jobs/);
  });
});

describe('a run the watch must let end', () => {
  it('watches a run of a million jobs (the example gruber-grid3.yaml has more than 130,000)', () => {
    // Spread into Math.max's arguments, 130,000 overflowed the CLI's call stack before the run began
    // (a million overflows any stack of 8 MB or less).
    const many = Array.from({ length: 1_000_000 }, (_, i) => job(`j${i}`, i, i === 7 ? 40 * 86_400 : 100));
    const watch = new StalledRunWatch(spec, many);
    expect(watch.limit_s).toBe(400 * 86_400);
    expect(() => watch.check(0, 999_999 + watch.limit_s, [])).not.toThrow();
    expect(() => watch.check(0, 1_000_000 + watch.limit_s, [])).toThrow(StalledRunError);
  });

  it("allows fifty of the scheme's mean outages, and names every job left in the error", () => {
    const watch = new StalledRunWatch(spec, jobs, 100 * 86_400);
    expect(watch.limit_s).toBe(50 * 100 * 86_400);
    // A live run's silence allowance on its clock, when that is longer: 10 s at 10^6x.
    expect(new StalledRunWatch(spec, jobs, 0, 10 * 1e6).limit_s).toBe(1e7);
    watch.check(1, 100, records);
    let thrown: unknown;
    try {
      watch.check(1, 6001 + watch.limit_s, records);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(StalledRunError);
    expect((thrown as StalledRunError).left).toEqual(['b']);
  });

  it("a paper 000 pool's outage of months holds its jobs, and the run still ends once it is over", async () => {
    // One pool of one CPU whose outages last 100 days on average, 2000 s apart. With seed 2 the
    // first comes while t1 runs, evicts it, and lasts 140 days, in which no task ends: more than
    // the 30 days the watch allows a run with no outages of its own.
    const text = oneGridLines({ seed: 2, grid: 'outages: { mean_s: 8640000, mean_between_s: 2000 }' }).join('\n');
    const file = '/tmp/long-outage.yaml';
    const long = parseExperiment(text, file).spec;
    const { jobs: tasks } = await loadExperimentWorkload(long, { specFile: file });
    const r = simulate(long, tasks);
    const [t1, t2] = r.records;
    expect(t1!.finish_s! - 10).toBeGreaterThan(DAYS_30);
    expect(t2!.finish_s).toBeCloseTo(t1!.finish_s! + 100, 6);
  });
});
