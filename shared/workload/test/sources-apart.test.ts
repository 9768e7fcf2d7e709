import { describe, expect, it } from 'vitest';
import { sourcesApartInTime } from '../src/index.js';

const w = (name: string, first_submit_s: number, last_submit_s: number) => ({ name, first_submit_s, last_submit_s });

describe('sources apart in time', () => {
  it('names the pause, and the sources on either side, when one group ends long before the next begins', () => {
    // LANL-CM5's first 600 jobs, then SDSC-BLUE's after skip: 1000 and KTH-SP2's (its cleaned log starts at 599,850 s).
    const warning = sourcesApartInTime([w('blue', 745709, 849391), w('cm5', 0, 160587), w('kth', 617850, 960927)]);
    expect(warning).toContain('no job is submitted from 160587 s to 617850 s (5.3 days)');
    expect(warning).toContain('longer than the submissions before it took (44.6 h)');
    expect(warning).toContain('so kth, blue submit only once cm5 has stopped');
    expect(warning).toContain('adding 171.6 to shift_h on cm5 starts it with kth');
  });

  it('says nothing of sources that overlap, of one trace cut into consecutive slices, or of a short pause', () => {
    // Paper 001: one trace, time-zone shifts of 0 to 3 h.
    expect(sourcesApartInTime([w('s1', 0, 900000), w('s2', 3600, 903600), w('s3', 7200, 907200)])).toBeUndefined();
    // Consecutive slices: the pause between them is one inter-arrival, far shorter than the first slice.
    expect(sourcesApartInTime([w('a', 0, 500000), w('b', 500300, 990000)])).toBeUndefined();
    // Two bursts, each all at once, half an hour apart.
    expect(sourcesApartInTime([w('a', 0, 0), w('b', 1800, 1800)])).toBeUndefined();
    expect(sourcesApartInTime([w('only', 100, 200)])).toBeUndefined();
    expect(sourcesApartInTime([])).toBeUndefined();
  });

  it('finds the pause after overlapping sources, and counts the longest-running of them as the end', () => {
    // a and b overlap; b runs to 10,000 s; c begins at 30,000 s: 20,000 s of nothing after 10,000 s of submissions.
    const warning = sourcesApartInTime([w('a', 0, 2000), w('b', 1000, 10000), w('c', 30000, 31000)]);
    expect(warning).toContain('no job is submitted from 10000 s to 30000 s (5.6 h)');
    expect(warning).toContain('so c submits only once a, b have stopped');
    expect(warning).toContain('adding 8.3 to shift_h on a, b starts them with c');
    // c begins within the 10,000 s the others took: taken as meant.
    expect(sourcesApartInTime([w('a', 0, 2000), w('b', 1000, 10000), w('c', 19000, 31000)])).toBeUndefined();
  });
});
