import { describe, expect, it } from 'vitest';
import { barChartsHtml } from '../src/sweep/chart.js';

describe("a sweep's own bar charts (sweep.html)", () => {
  it('draws a bar per defined mean, scaled to the largest, and says where no run defines one', () => {
    const html = barChartsHtml('t', ['a', 'b', 'c'], [{ name: 'time_s', values: [100, undefined, 50] }]);
    const widths = [...html.matchAll(/<rect [^>]*width="([\d.]+)"/g)].map((m) => Number(m[1]));
    // Two bars, the second half the first; none for b.
    expect(widths).toHaveLength(2);
    expect(widths[1]! / widths[0]!).toBeCloseTo(0.5, 6);
    expect(html).toMatch(/>b<\/text><text [^>]*>no run defines it<\/text>/);
  });
});
