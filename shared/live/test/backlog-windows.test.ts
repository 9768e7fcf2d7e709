import { describe, expect, it } from 'vitest';
import { judgeBacklog, timerWindowsOf, type TimerWindow } from '../src/backlog-windows.js';

// The chaos spec's shape at 20,000x: windows of 10,000 emulated s, the guard's shortest timescale
// a 600 s claim time-out, 5% of it 30 emulated s, so 1.5 wall ms.
const base = {
  speedup: 20000,
  bin_s: 10000,
  timescale: { name: 'claim_timeout_s', seconds: 600 },
  share: 0.05,
  run_mean_ms: 1.2,
};

describe("the fidelity guard's stretches behind the clock", () => {
  it('finds the windows whose timers fell behind, the worst of them, and the jobs submitted in them (worked by hand)', () => {
    const timers: TimerWindow[] = [
      // Window 60 (600,000-610,000 s): s2's timers a mean 20 ms late, 400 emulated s, 67% of 600 s.
      { location: 's1', window: 60, mean_ms: 1.2, count: 40 },
      { location: 's2', window: 60, mean_ms: 20, count: 40 },
      // Window 61: s1 at 2 ms, 40 s, just over the 30 s allowed.
      { location: 's1', window: 61, mean_ms: 2, count: 12 },
      // Window 62: one timer 50 ms late is too few to judge a window by.
      { location: 's3', window: 62, mean_ms: 50, count: 1 },
      { location: 's1', window: 62, mean_ms: 1, count: 30 },
      { location: 's1', window: 63, mean_ms: 0.5, count: 30 },
    ];
    // Jobs at 605,000 and 609,999 fall in window 60, 615,000 in 61; 625,000 and 635,000 after.
    const v = judgeBacklog({ ...base, timers, submits_s: [605000, 609999, 615000, 625000, 635000] });
    expect(v).toMatchObject({ judged_beyond_ms: 0, windows_behind: 2, windows: 4, jobs_submitted: 3, jobs_share: 0.6 });
    expect(v.worst).toEqual({ location: 's2', from_s: 600000, to_s: 610000, mean_ms: 20, mean_s: 400, share: 0.667 });
    expect(v.warnings).toEqual([
      'timers fell behind in 2 of 4 windows of 10000 emulated s (worst: s2 from 600000 to 610000 s, a mean 20.0 wall ms late ' +
        'against 1.2 over the run, ' +
        "400 emulated s, 67% of claim_timeout_s (600 s)): the 3 jobs submitted then (60% of the run) measured the processes' " +
        'backlog, not the scheme; a lower speed-up shrinks it',
    ]);
  });

  it('stays quiet when every window keeps within the share, and at a lower speed-up the same lag is within it', () => {
    const timers: TimerWindow[] = [
      { location: 's1', window: 60, mean_ms: 1.4, count: 40 },
      { location: 's2', window: 61, mean_ms: 1.5, count: 40 },
    ];
    const v = judgeBacklog({ ...base, timers, submits_s: [605000] });
    expect(v).toMatchObject({ windows_behind: 0, windows: 2, jobs_submitted: 0, warnings: [] });
    expect(v.worst?.location).toBe('s2');
    // 20 ms at 1,000x is 20 emulated s, 3.3% of 600 s.
    expect(
      judgeBacklog({
        ...base,
        speedup: 1000,
        timers: [{ location: 's2', window: 60, mean_ms: 20, count: 40 }],
        submits_s: [],
      }).warnings,
    ).toEqual([]);
  });

  it("judges a run whose timers were late beyond the share throughout by how far a window stands out from the run's mean", () => {
    // The run's mean, 1.6 ms, is over the 1.5 ms allowed already (the guard's mean warns of it):
    // a window is behind only past 1.6 + 1.5 = 3.1 ms.
    const timers: TimerWindow[] = [
      { location: 's1', window: 60, mean_ms: 1.6, count: 40 },
      // 3 ms: over 1.5 ms, not 1.5 ms over the run's mean.
      { location: 's2', window: 61, mean_ms: 3, count: 40 },
      // 3.5 ms: 1.9 ms over the run's mean, 70 emulated s, 12% of 600 s.
      { location: 's3', window: 62, mean_ms: 3.5, count: 40 },
    ];
    const v = judgeBacklog({ ...base, run_mean_ms: 1.6, timers, submits_s: [605000, 615000, 625000, 626000] });
    expect(v).toMatchObject({
      judged_beyond_ms: 1.6,
      windows_behind: 1,
      windows: 3,
      jobs_submitted: 2,
      jobs_share: 0.5,
    });
    expect(v.warnings).toEqual([
      'timers fell further behind than their mean over the run (1.6 wall ms, itself over 5.0% of claim_timeout_s: the ' +
        'warning above) by more than that share in 1 of 3 windows of 10000 emulated s (worst: s3 from 620000 to 630000 s, ' +
        'a mean 3.5 wall ms late against 1.6 over the run, 70 emulated s, 12% of claim_timeout_s (600 s)): the 2 jobs ' +
        "submitted then (50% of the run) measured the processes' backlog, not the scheme; a lower speed-up shrinks it",
    ]);
    // Without the 3.5-ms window it is quiet: the run's lag is the guard's mean's to name.
    expect(judgeBacklog({ ...base, run_mean_ms: 1.6, timers: timers.slice(0, 2), submits_s: [] }).warnings).toEqual([]);
  });

  it("reads network.json's timer timeline, each process's windows apart", () => {
    const state = (count: number, sum_ms: number) => ({ count, sum_ms, min_ms: 0, max_ms: sum_ms, buckets: {} });
    expect(
      timerWindowsOf({
        bin_s: 10000,
        locations: { s1: { '60': state(4, 10), '61': state(0, 0) }, driver: { '3': state(2, 1) } },
      }),
    ).toEqual([
      { location: 's1', window: 60, mean_ms: 2.5, count: 4 },
      { location: 'driver', window: 3, mean_ms: 0.5, count: 2 },
    ]);
  });
});
