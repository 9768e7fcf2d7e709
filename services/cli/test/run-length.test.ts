import { describe, expect, it } from 'vitest';
import {
  describeRunLength,
  describeSweepLength,
  formatDuration,
  progressDetail,
  runLength,
} from '../src/live/run-length.js';

describe("a live run's length, known before it starts", () => {
  it('spans the first submission to the last, in whatever order the jobs come', () => {
    const jobs = [{ submit_s: 600_000 }, { submit_s: 4_886_000 }, { submit_s: 599_850 }];
    expect(runLength(jobs, 1000)).toEqual({ submissions_s: 4_286_150, speedup: 1000 });
    expect(runLength([], 1000).submissions_s).toBe(0);
  });

  it('says the least wall time the speed-up gives it: 49.6 emulated days at 1000x is 1.2 h', () => {
    expect(describeRunLength({ submissions_s: 4_286_150, speedup: 1000 })).toBe(
      'the submissions span 49.6 d emulated: at speed-up 1000 the run lasts at least 1.2 h of wall time, ' +
        'and until its last jobs end after that',
    );
  });

  it('counts down to the last submission, then says all are in', () => {
    const length = { submissions_s: 36_000, speedup: 100 };
    // 7,200 emulated s in: 28,800 to go, 288 wall s at 100x.
    expect(progressDetail(length, 7_200, 72)).toBe('emulated 2.0 h, wall 72 s, last submission in 4.8 min');
    expect(progressDetail(length, 36_000, 360)).toBe('emulated 10.0 h, wall 6.0 min, all submitted');
    // Within a wall second of it, counting down would say "0 s".
    expect(progressDetail(length, 35_950, 359.5)).toBe('emulated 10.0 h, wall 6.0 min, all submitted');
  });

  it("adds up a live sweep's runs, so many at a time", () => {
    const at = (submissions_s: number, speedup: number) => ({ submissions_s, speedup });
    // 435,000 s at 5000x is 87 s; four such runs one at a time 5.8 min, two at a time 2.9 min.
    const four = [1, 2, 3, 4].map(() => at(435_000, 5000));
    expect(describeSweepLength(four, 1)).toBe(
      "the 4 live runs' submissions last at least 5.8 min of wall time (87 s each)",
    );
    expect(describeSweepLength(four, 2)).toBe(
      "the 4 live runs' submissions last at least 2.9 min of wall time, 2 at a time (87 s each)",
    );
    // A speed-up varied: 87 s and 43.5 s; --parallel 4 runs the two side by side.
    expect(describeSweepLength([at(435_000, 5000), at(435_000, 10_000)], 4)).toBe(
      "the 2 live runs' submissions last at least 65 s of wall time, 2 at a time (44 s to 87 s each)",
    );
    expect(describeSweepLength([at(435_000, 5000)], 1)).toBe(
      "the 1 live run's submissions last at least 87 s of wall time (87 s each)",
    );
  });

  it('reads durations in the unit a person would', () => {
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(119)).toBe('119 s');
    expect(formatDuration(150)).toBe('2.5 min');
    expect(formatDuration(5_400)).toBe('1.5 h');
    expect(formatDuration(3 * 86_400)).toBe('3.0 d');
  });
});
