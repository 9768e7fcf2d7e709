import { studentTCdf, studentTQuantile } from './student-t.js';

export interface MeanWithInterval {
  readonly n: number;
  readonly mean: number;
  /** Half the width of the confidence interval: the paper's "± x". */
  readonly half_width: number;
  readonly confidence: number;
}

export function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** Sample variance (n - 1 in the denominator). */
export function variance(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1);
}

/**
 * The mean and its two-sided confidence interval from Student's t (paper 002 reports 90%):
 * mean ± t_{(1+c)/2, n-1} · s / √n. One sample has no interval (half-width 0).
 */
export function meanWithInterval(xs: readonly number[], confidence = 0.9): MeanWithInterval {
  if (xs.length === 0) throw new Error('assertion: no samples');
  const n = xs.length;
  const half = n < 2 ? 0 : studentTQuantile((1 + confidence) / 2, n - 1) * Math.sqrt(variance(xs) / n);
  return { n, mean: mean(xs), half_width: half, confidence };
}

/**
 * Welch's two-sample t-test, two-sided (paper 002 §4.3, Table XIII: H0, the two have the same
 * mean): the p-value. Samples with no spread at all give 1 when their means agree, else 0.
 */
export function welchTTest(a: readonly number[], b: readonly number[]): { t: number; df: number; p: number } {
  if (a.length < 2 || b.length < 2) throw new Error('assertion: a t-test needs at least two samples on each side');
  const va = variance(a) / a.length;
  const vb = variance(b) / b.length;
  const diff = mean(a) - mean(b);
  if (va + vb === 0) return { t: diff === 0 ? 0 : Infinity, df: a.length + b.length - 2, p: diff === 0 ? 1 : 0 };
  const t = diff / Math.sqrt(va + vb);
  const df = (va + vb) ** 2 / (va ** 2 / (a.length - 1) + vb ** 2 / (b.length - 1));
  return { t, df, p: 2 * (1 - studentTCdf(Math.abs(t), df)) };
}

/**
 * The paired t-test, two-sided: `a[i]` and `b[i]` measured under the same conditions (in a sweep,
 * the same seed: the same local load, failures and misbehaving sites for every selector), so the
 * test is on the differences, and what the conditions do to both sides drops out. Differences with
 * no spread give 1 when they are all 0, else 0.
 */
export function pairedTTest(a: readonly number[], b: readonly number[]): { t: number; df: number; p: number } {
  if (a.length !== b.length)
    throw new Error(`assertion: a paired t-test needs pairs (${a.length} against ${b.length})`);
  if (a.length < 2) throw new Error('assertion: a paired t-test needs at least two pairs');
  const d = a.map((x, i) => x - b[i]!);
  const m = mean(d);
  const se = Math.sqrt(variance(d) / d.length);
  const df = d.length - 1;
  if (se === 0) return { t: m === 0 ? 0 : Infinity, df, p: m === 0 ? 1 : 0 };
  const t = m / se;
  return { t, df, p: 2 * (1 - studentTCdf(Math.abs(t), df)) };
}
