import { describe, expect, it } from 'vitest';
import {
  incompleteBeta,
  meanWithInterval,
  pairedTTest,
  studentTCdf,
  studentTQuantile,
  welchTTest,
} from '../src/index.js';

describe("Student's t, against printed tables", () => {
  it('quantiles: t(0.95, 9) = 1.8331, t(0.95, 1) = 6.3138, t(0.975, 30) = 2.0423', () => {
    expect(studentTQuantile(0.95, 9)).toBeCloseTo(1.833113, 5);
    expect(studentTQuantile(0.95, 1)).toBeCloseTo(6.313752, 5);
    expect(studentTQuantile(0.975, 30)).toBeCloseTo(2.042272, 5);
    expect(studentTCdf(0, 5)).toBeCloseTo(0.5, 12);
    expect(studentTCdf(-2.262157, 9)).toBeCloseTo(0.025, 6);
  });

  it('the incomplete beta function: I_0.5(a, a) = 1/2, I_x(1, 1) = x', () => {
    expect(incompleteBeta(0.5, 3.5, 3.5)).toBeCloseTo(0.5, 12);
    expect(incompleteBeta(0.3, 1, 1)).toBeCloseTo(0.3, 12);
  });
});

describe('paper 002 statistics', () => {
  it('a 90% interval: mean ± t(0.95, n-1) s / sqrt(n)', () => {
    // 1..10: mean 5.5, s = 3.02765, t(0.95, 9) = 1.83311 -> half-width 1.75510.
    const ci = meanWithInterval([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(ci.mean).toBe(5.5);
    expect(ci.half_width).toBeCloseTo(1.7551, 4);
    expect(meanWithInterval([4]).half_width).toBe(0);
  });

  it("Welch's t-test, two-sided", () => {
    // Worked by hand: means 2 and 5, variances 1 and 1, n = 3 each: t = -3/sqrt(2/3) = -3.6742, df = 4,
    // p = 2 P(T_4 > 3.6742) = 0.02131.
    const r = welchTTest([1, 2, 3], [4, 5, 6]);
    expect(r.t).toBeCloseTo(-3.674235, 5);
    expect(r.df).toBeCloseTo(4, 9);
    expect(r.p).toBeCloseTo(0.021312, 5);
    expect(welchTTest([1, 1], [1, 1]).p).toBe(1);
  });

  it('the paired t-test, two-sided', () => {
    // Worked by hand: differences 1, 0, 2, 1: mean 1, variance 2/3, n = 4: t = 1/sqrt(1/6) = 2.449490,
    // df = 3, p = 2 P(T_3 > t) = 1 - (2/pi)(atan(t/sqrt 3) + (t/sqrt 3)/(1 + t^2/3)) = 0.091721.
    const r = pairedTTest([1, 2, 3, 4], [0, 2, 1, 3]);
    expect(r.t).toBeCloseTo(2.44949, 5);
    expect(r.df).toBe(3);
    expect(r.p).toBeCloseTo(0.091721, 5);
    // What both sides share drops out: the same differences on very different levels give the same test.
    expect(pairedTTest([101, 2, 53, 1004], [100, 2, 51, 1003]).p).toBeCloseTo(r.p, 9);
    expect(pairedTTest([1, 2], [1, 2]).p).toBe(1);
    expect(pairedTTest([2, 3], [1, 2]).p).toBe(0);
    expect(() => pairedTTest([1, 2], [1])).toThrow(/pairs/);
  });
});
