import { describe, expect, it } from 'vitest';
import { binMiddle_h, messagesOverTime } from '../src/report/run-series.js';

describe("a run's series on the report's time axis (emulated hours since the first submission)", () => {
  it('draws a bin at the middle of its part from the first submission on, never before 0', () => {
    // KTH-SP2's first submission, 599,850 s, is in the run clock's hour 166 (597,600-601,200 s).
    const from_s = 599_850;
    const series = messagesOverTime({ '167': 1050, '166': 436 }, from_s);
    expect(series.points).toEqual([
      // Hour 166's part from 599,850 s to 601,200 s has its middle 675 s after the first submission.
      { x: 0.188, y: 436 },
      // Hour 167 is whole: its middle, 603,000 s, is 3,150 s after it.
      { x: 0.875, y: 1050 },
    ]);
    expect(binMiddle_h(1000, 2000, 1000)).toBe(500 / 3600);
    expect(binMiddle_h(0, 1000, 1000)).toBe(0);
  });
});
