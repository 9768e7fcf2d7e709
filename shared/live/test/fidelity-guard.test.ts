import { describe, expect, it } from 'vitest';
import { judgeFidelity } from '../src/fidelity-guard.js';

describe('the fidelity guard (issue 15)', () => {
  it('warns when one hop is more than 5% of a timescale, and names the speed-up that keeps it under (worked by hand)', () => {
    // Issue 15's run: 20,000x, a hop of 26 wall ms (20 ms of link and 6 of bus and queues) is 520
    // emulated s, 10,400% of the 5 s claim timeout and 867% of the 60 s load period. The lag, 1.6 ms,
    // is 32 s. Under 5% of 5 s means a hop of at most 0.25 s: 0.25 / 0.026 s = 9.6x, rounded down
    // to 5.
    const v = judgeFidelity({
      speedup: 20000,
      hop_ms: 26,
      timer_lag_ms: 1.6,
      timescales: { claim_timeout_s: 5, load_period_s: 60, median_run_s: 1200 },
    });
    expect(v.hop_s).toBe(520);
    expect(v.timer_lag_s).toBe(32);
    expect(v.exceeded.map((t) => [t.name, t.hop_share])).toEqual([
      ['claim_timeout_s', 104],
      ['load_period_s', 8.667],
      ['median_run_s', 0.433],
    ]);
    expect(v.recommended_speedup).toBe(5);
    expect(v.warnings[0]).toBe(
      "at speed-up 20000 one hop is 520 emulated s and a timer's lag 32.0 s: 10400% of claim_timeout_s (5.00 s), over the 5.0% this run can absorb",
    );
    expect(v.warnings.at(-1)).toBe(
      'speed-up 5 or lower keeps them under 5.0% of 5.00 s (or lengthen the timeouts and periods)',
    );
  });

  it("does not offer to lengthen a timeout when the shortest timescale is the jobs' median run", () => {
    // 2,000x: a 13 ms hop is 26 s, 34% of a 77 s median run; 5% of it is 3.85 s, 1.9 wall ms: 200x.
    const v = judgeFidelity({
      speedup: 2000,
      hop_ms: 13,
      timer_lag_ms: 0.95,
      timescales: { claim_timeout_s: 3600, load_period_s: 600, median_run_s: 77 },
    });
    expect(v.recommended_speedup).toBe(200);
    expect(v.warnings.at(-1)).toBe(
      "speed-up 200 or lower keeps them under 5.0% of 77.0 s (median_run_s, the jobs' median run, is the workload's own)",
    );
    // No speed-up helps a hop of 5 s against a 60 s median run: latency is what to shorten.
    const none = judgeFidelity({ speedup: 10, hop_ms: 5000, timer_lag_ms: 1, timescales: { median_run_s: 60 } });
    expect(none.warnings.at(-1)).toBe(
      "no speed-up of 1 or more keeps them under 5.0% of 60.0 s: shorten network.latency_ms (median_run_s, the jobs' median run, is the workload's own)",
    );
  });

  it('stays quiet when every hop and lag is a small share, and judges the lag as well as the hop', () => {
    // 1,000x: a 2 ms hop is 2 s, 1.7% of a 120 s timeout; a 0.5 ms lag 0.5 s.
    expect(
      judgeFidelity({
        speedup: 1000,
        hop_ms: 2,
        timer_lag_ms: 0.5,
        timescales: { claim_timeout_s: 120, load_period_s: 300 },
      }).warnings,
    ).toEqual([]);
    // A 10 ms lag (a loaded event loop) is 10 s, 8% of 120 s, though the hop is fine.
    const v = judgeFidelity({ speedup: 1000, hop_ms: 2, timer_lag_ms: 10, timescales: { claim_timeout_s: 120 } });
    expect(v.exceeded.map((t) => [t.name, t.lag_share])).toEqual([['claim_timeout_s', 0.083]]);
    expect(v.recommended_speedup).toBe(500); // 0.05 × 120 s / 10 ms = 600, rounded down
  });

  it('says when no speed-up helps, and ignores timescales that are not positive', () => {
    const v = judgeFidelity({ speedup: 10, hop_ms: 500, timer_lag_ms: 0, timescales: { claim_timeout_s: 1, off: 0 } });
    expect(v.recommended_speedup).toBe(0.1);
    expect(v.warnings.at(-1)).toMatch(/no speed-up of 1 or more keeps them under 5\.0% of 1\.00 s/);
  });

  it('warns when the bus bound thins a report period, and folds it into the recommendation (worked by hand)', () => {
    // A 20 ms bound at 20,000x is 400 emulated s between two reports that go: a 60 s load period is
    // thinned to about one report in 6.7. 60 s / 20 ms = 3,000x, rounded down to 2,000. The hop
    // (1 ms, 20 s, 1.7% of the 1,200 s median run) is fine.
    const v = judgeFidelity({
      speedup: 20000,
      hop_ms: 1,
      timer_lag_ms: 0,
      timescales: { median_run_s: 1200 },
      reports: { interval_ms: 20, periods: { 'meta.load_period_s': 60 } },
    });
    expect(v.exceeded).toEqual([]);
    expect(v.thinned).toEqual([{ name: 'meta.load_period_s', seconds: 60, sent_every_s: 400 }]);
    expect(v.recommended_speedup).toBe(2000);
    expect(v.warnings).toEqual([
      'at speed-up 20000 the bus carries a report at most every 20.0 wall ms (live.report_interval_ms), 400 emulated s: longer than meta.load_period_s (60.0 s), so about one report in 6.67 reaches other processes',
      'speed-up 2000 or lower lets every report through (or lengthen the period, or lower live.report_interval_ms)',
    ]);
    // With the hop over its share as well, the lower of the two speed-ups stands.
    const both = judgeFidelity({
      speedup: 20000,
      hop_ms: 26,
      timer_lag_ms: 0,
      timescales: { claim_timeout_s: 5 },
      reports: { interval_ms: 20, periods: { 'meta.load_period_s': 60 } },
    });
    expect(both.recommended_speedup).toBe(5);
    // Under the bound (60 s at 2,000x is 30 wall ms), or with the bound off, nothing is thinned.
    expect(
      judgeFidelity({
        speedup: 2000,
        hop_ms: 0.1,
        timer_lag_ms: 0,
        timescales: {},
        reports: { interval_ms: 20, periods: { 'meta.load_period_s': 60 } },
      }).warnings,
    ).toEqual([]);
    expect(
      judgeFidelity({
        speedup: 20000,
        hop_ms: 0.1,
        timer_lag_ms: 0,
        timescales: {},
        reports: { interval_ms: 0, periods: { 'meta.load_period_s': 60 } },
      }).thinned,
    ).toEqual([]);
  });
});
