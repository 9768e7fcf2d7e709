import { describe, expect, it } from 'vitest';
import { samplingNotes, samplingRow, sweepSampling } from '../src/sweep/seeds-sampled.js';

// Wall times differ from run to run whatever was run: they never tell runs apart.
let wall = 0;
const run = (mean_wait_s: number) => ({ mean_wait_s, wall_time_s: ++wall });

describe("what a sweep's seeds sampled, variant by variant", () => {
  it('tells one run made twice from the same jobs drawn twice, and from jobs of their own', () => {
    const s = sweepSampling(
      [
        { name: 'k=1', metrics: [run(5), run(5)], jobs: ['a', 'a'] },
        { name: 'k=2', metrics: [run(5), run(7)], jobs: ['a', 'a'] },
        { name: 'k=3', metrics: [run(5), run(7)], jobs: ['a', 'b'] },
      ],
      false,
    );
    expect(s).toEqual({ variants: 3, oneRun: ['k=1'], sharedJobs: ['k=2'], ownJobs: false });
    expect(samplingNotes(s)).toEqual([
      expect.stringMatching(/^the seeds of k=1 made the same run \(every metric equal\)/),
      expect.stringMatching(/^the seeds of k=2 submitted the same jobs .* not over workloads;/),
    ]);
    expect(samplingRow(s)).toMatch(
      /^one run in each seed of k=1: no interval there; the same jobs in every seed of k=2:/,
    );
  });

  it('says "every variant", and nothing of runs that do not say or of one seed', () => {
    const shared = sweepSampling([{ name: 'k=1', metrics: [run(5), run(6)], jobs: ['a', 'a'] }], false);
    expect(samplingNotes(shared)[0]).toMatch(/^the seeds of every variant submitted the same jobs/);
    const own = sweepSampling([{ name: 'k=1', metrics: [run(5), run(6)], jobs: ['a', 'b'] }], false);
    expect([samplingNotes(own), samplingRow(own)]).toEqual([[], 'a workload of its own in each seed']);
    // Summaries from before jobs_sha256: nothing said of the jobs either way.
    const unknown = sweepSampling([{ name: 'k=1', metrics: [run(5), run(6)], jobs: [undefined, undefined] }], false);
    expect([samplingNotes(unknown), samplingRow(unknown)]).toEqual([[], undefined]);
    const single = sweepSampling([{ name: 'k=1', metrics: [run(5)], jobs: ['a'] }], false);
    expect([samplingNotes(single), samplingRow(single)]).toEqual([[], undefined]);
  });

  it('does not judge live runs one run, however alike', () => {
    const s = sweepSampling([{ name: 'k=1', metrics: [run(5), run(5)], jobs: ['a', 'a'] }], true);
    expect(s).toMatchObject({ oneRun: [], sharedJobs: ['k=1'] });
  });
});
