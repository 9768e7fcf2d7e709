import { describe, expect, it } from 'vitest';
import { PREDICTION_MODELS, predictedLength, progressAt } from '../src/dag/progress-model.js';

const xs = Array.from({ length: 101 }, (_, i) => i / 100);

describe('paper 003 prediction models (§4, Figure 3)', () => {
  it('progress runs from 0 to 1 and never goes back', () => {
    for (const m of PREDICTION_MODELS) {
      expect(progressAt(m, 0)).toBe(0);
      expect(progressAt(m, 1)).toBeCloseTo(1, 12);
      for (let i = 1; i < xs.length; i++)
        expect(progressAt(m, xs[i]!), m).toBeGreaterThanOrEqual(progressAt(m, xs[i - 1]!));
    }
  });

  it('decreasing predictions fall to the true length, increasing ones rise to it, oscillating ones swing around it', () => {
    const L = 1000;
    const e = (m: (typeof PREDICTION_MODELS)[number]) => xs.slice(1).map((x) => predictedLength(m, L, x * L)!);
    const dec = e('decreasing');
    const inc = e('increasing');
    const osc = e('oscillating');
    for (let i = 1; i < dec.length; i++) {
      expect(dec[i]!).toBeLessThanOrEqual(dec[i - 1]! + 1e-9);
      expect(inc[i]!).toBeGreaterThanOrEqual(inc[i - 1]! - 1e-9);
    }
    expect(dec[0]!).toBeGreaterThan(10 * L);
    expect(inc[0]!).toBeLessThan(0.2 * L);
    expect(dec.at(-1)).toBeCloseTo(L, 6);
    expect(inc.at(-1)).toBeCloseTo(L, 6);
    // Above and below the truth, more than once, ending on it.
    const crossings = osc.slice(1).filter((v, i) => (v - L) * (osc[i]! - L) < 0).length;
    expect(crossings).toBeGreaterThanOrEqual(4);
    expect(osc.at(-1)).toBeCloseTo(L, 6);
    expect(predictedLength('increasing', L, 0)).toBeUndefined();
  });
});
