import { describe, expect, it } from 'vitest';
import { Rng } from '../src/index.js';
import { LatencyHistogram } from '../src/live.js';

describe('LatencyHistogram', () => {
  it('gives exact count, mean, min and max, and percentiles within 3%', () => {
    const rng = new Rng(3);
    const xs = Array.from(
      { length: 20_000 },
      () => rng.uniform(18, 22) + (rng.uniform(0, 1) < 0.05 ? rng.uniform(0, 30) : 0),
    );
    const h = new LatencyHistogram();
    for (const x of xs) h.record(x);
    const sorted = [...xs].sort((a, b) => a - b);
    const s = h.stats();
    expect(s.count).toBe(xs.length);
    expect(s.mean_ms).toBeCloseTo(xs.reduce((a, b) => a + b, 0) / xs.length, 2);
    expect(s.min_ms).toBeCloseTo(sorted[0]!, 2);
    expect(s.max_ms).toBeCloseTo(sorted.at(-1)!, 2);
    for (const [q, got] of [
      [0.5, s.p50_ms],
      [0.95, s.p95_ms],
      [0.99, s.p99_ms],
    ] as const) {
      const exact = sorted[Math.floor(q * sorted.length)]!;
      expect(Math.abs(got - exact) / exact, `p${q * 100}`).toBeLessThan(0.03);
    }
  });

  it('merges across processes to the same result as one histogram', () => {
    const whole = new LatencyHistogram();
    const parts = [new LatencyHistogram(), new LatencyHistogram()];
    for (let i = 0; i < 1000; i++) {
      const x = ((i * 7919) % 100) / 3;
      whole.record(x);
      parts[i % 2]!.record(x);
    }
    const merged = LatencyHistogram.from(parts[0]!.state());
    merged.merge(parts[1]!.state());
    expect(merged.stats()).toEqual(whole.stats());
    expect(new LatencyHistogram().stats().count).toBe(0);
  });
});
