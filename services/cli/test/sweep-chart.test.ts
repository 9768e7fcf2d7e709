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

  it("draws a mean's interval as a whisker and writes it as ± half-width; none where there is none", () => {
    const html = barChartsHtml(
      't',
      ['a', 'b'],
      [{ name: 'wait_s', values: [100, 50], halfWidths: [20, 0] }],
      'Each bar is a mean over 3 seeds',
    );
    expect(html).toContain('<p>Each bar is a mean over 3 seeds</p>');
    expect(html).toContain('>100 ± 20</text>');
    expect(html).toContain('>50</text>');
    // One whisker, a's, from 80 to 120 on a scale whose largest value is 120 (the whisker's end).
    const whiskers = [...html.matchAll(/<path d="M([\d.]+) [\d.]+H([\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(whiskers).toHaveLength(1);
    const widths = [...html.matchAll(/<rect x="([\d.]+)" [^>]*width="([\d.]+)"/g)].map((m) => [
      Number(m[1]),
      Number(m[2]),
    ]);
    const [left, barA] = widths[0]!;
    const [from, to] = whiskers[0]!;
    expect(to! - left!).toBeCloseTo((barA! * 120) / 100, 0);
    expect(from! - left!).toBeCloseTo((barA! * 80) / 100, 0);
  });
});
