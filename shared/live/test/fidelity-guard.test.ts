import { describe, expect, it } from 'vitest';
import { judgeFidelity } from '../src/fidelity-guard.js';

describe('the fidelity guard (issue 15)', () => {
  it('warns when one hop is more than 5% of a timescale, and names the speed-up that keeps it under (worked by hand)', () => {
    // Issue 15's run: 20,000x, a hop of 26 wall ms (20 ms of link and 6 of bus and queues) is 520
    // emulated s, 10,400% of the 5 s claim timeout and 867% of the 60 s load period. The lag, 1.6 ms,
    // is 32 s. Under 5% of 5 s means a hop of at most 0.25 s: 0.25 / 0.026 s = 9.6x, rounded down
    // to 5.
    const v = judgeFidelity({ speedup: 20000, hop_ms: 26, timer_lag_ms: 1.6, timescales: { claim_timeout_s: 5, load_period_s: 60, median_run_s: 1200 } });
    expect(v.hop_s).toBe(520);
    expect(v.timer_lag_s).toBe(32);
    expect(v.exceeded.map((t) => [t.name, t.hop_share])).toEqual([
      ['claim_timeout_s', 104],
      ['load_period_s', 8.667],
      ['median_run_s', 0.433],
    ]);
    expect(v.recommended_speedup).toBe(5);
    expect(v.warnings[0]).toBe('at speed-up 20000 one hop is 520 emulated s and a timer\'s lag 32.0 s: 10400% of claim_timeout_s (5.00 s), over the 5.0% this run can absorb');
    expect(v.warnings.at(-1)).toBe('speed-up 5 or lower keeps them under 5.0% of 5.00 s (or lengthen the timeouts and periods)');
  });

  it('stays quiet when every hop and lag is a small share, and judges the lag as well as the hop', () => {
    // 1,000x: a 2 ms hop is 2 s, 1.7% of a 120 s timeout; a 0.5 ms lag 0.5 s.
    expect(judgeFidelity({ speedup: 1000, hop_ms: 2, timer_lag_ms: 0.5, timescales: { claim_timeout_s: 120, load_period_s: 300 } }).warnings).toEqual([]);
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
});
