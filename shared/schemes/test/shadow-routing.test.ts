import { describe, expect, it } from 'vitest';
import { ShadowRouting, estimatedLength, estimatedRate } from '../src/shadow/index.js';

/**
 * Figure 1 on three resources of estimated rates 1, 2 and 4 with η = 1/30, worked on paper:
 * the virtual queues start at 1/(ηM) = 10 each.
 */
describe('Grid Shadow Routing (paper 004, Figure 1)', () => {
  it('chooses argmin (Q_r + L/μ_r) · L/μ_r and then adds L/μ_m to Q_m', () => {
    const s = new ShadowRouting([1, 2, 4], 1 / 30);
    expect(s.Q).toEqual([10, 10, 10]);
    // L = 8: scores (10+8)·8 = 144, (10+4)·4 = 56, (10+2)·2 = 24 → resource 2; Q = [10, 10, 12];
    // η ΣQ = 32/30 >= 1, so every Q_r loses c = 2 · max(8, 4, 2) = 16, floored at 0.
    expect(s.route(8)).toBe(2);
    expect(s.Q).toEqual([0, 0, 0]);
    expect(s.normalizations).toBe(1);
    // L = 4: scores 16, 4, 1 → 2; Q = [0, 0, 1]; η ΣQ = 1/30: no normalization.
    expect(s.route(4)).toBe(2);
    expect(s.Q).toEqual([0, 0, 1]);
    // L = 4: 16, 4, (1+1)·1 = 2 → 2; Q = [0, 0, 2].
    expect(s.route(4)).toBe(2);
    // L = 12: 144, 36, (2+3)·3 = 15 → 2; Q = [0, 0, 5].
    expect(s.route(12)).toBe(2);
    expect(s.Q).toEqual([0, 0, 5]);
    // L = 2: (0+2)·2 = 4, (0+1)·1 = 1, (5+0.5)·0.5 = 2.75 → resource 1 at last; Q = [0, 1, 5].
    expect(s.route(2)).toBe(1);
    expect(s.Q).toEqual([0, 1, 5]);
    expect(s.normalizations).toBe(1);
  });

  it('normalizes only a queue that stays positive, and never chooses a resource of rate 0', () => {
    const s = new ShadowRouting([0, 1], 1 / 10);
    // Q starts at 1/(ηM) = 5 each; L = 1 goes to resource 1 (Q = 6); η ΣQ = 11/10 >= 1: c = 2 · 1 = 2.
    expect(s.route(1)).toBe(1);
    expect(s.Q).toEqual([3, 4]);
  });
});

describe('Grid Shadow Routing as resources leave and join (§3: "the virtual queues readjust")', () => {
  it('a resource that leaves gets no task and its virtual queue is dropped; it comes back empty', () => {
    const s = new ShadowRouting([1, 2, 4], 1 / 30);
    s.route(5);
    s.route(5);
    // L = 5 → 2 (14.06 is the lowest score); Q = [10, 10, 11.25], η ΣQ >= 1: each loses 2 · 5 = 10,
    // so Q = [0, 0, 1.25]. L = 5 again: 25, 6.25, (1.25 + 1.25) · 1.25 = 3.125 → 2; Q = [0, 0, 2.5].
    expect(s.Q).toEqual([0, 0, 2.5]);
    s.leave(2);
    expect(s.Q).toEqual([0, 0, 0]);
    // L = 8 with 2 away: (0+8)·8 = 64, (0+4)·4 = 16 → 1; Q = [0, 4, 0]. Then 64 against (4+4)·4 = 32 → 1.
    expect(s.route(8)).toBe(1);
    expect(s.route(8)).toBe(1);
    expect(s.Q).toEqual([0, 8, 0]);
    s.join(2);
    // Back with an empty queue: 64, (8+4)·4 = 48, (0+2)·2 = 4 → 2; Q = [0, 8, 2].
    expect(s.route(8)).toBe(2);
    expect(s.Q).toEqual([0, 8, 2]);
    expect(s.normalizations).toBe(1);
  });
});

describe('estimate errors (§4)', () => {
  const overUnder = { model: 'over-under', I: 0.4, apply: 'both' } as const;
  const over = { model: 'over', I: 0.4, apply: 'lengths' } as const;
  it('stay within [-I, +I], or [0, +I] when only over-estimating, and apply to rates only when asked', () => {
    const a = Array.from({ length: 2000 }, (_, i) => estimatedLength(100, `t${i}`, overUnder, 1) / 100 - 1);
    expect(Math.min(...a)).toBeGreaterThanOrEqual(-0.4);
    expect(Math.max(...a)).toBeLessThanOrEqual(0.4);
    expect(Math.min(...a)).toBeLessThan(-0.35);
    const b = Array.from({ length: 2000 }, (_, i) => estimatedLength(100, `t${i}`, over, 1) / 100 - 1);
    expect(Math.min(...b)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...b)).toBeGreaterThan(0.35);
    expect(estimatedRate(3, 's1', over, 1)).toBe(3);
    expect(estimatedRate(3, 's1', overUnder, 1)).not.toBe(3);
    // The same task and seed give the same estimate whatever the scheme.
    expect(estimatedLength(100, 't7', overUnder, 1)).toBe(estimatedLength(100, 't7', overUnder, 1));
    expect(estimatedLength(100, 't7', { ...overUnder, I: 0 }, 1)).toBe(100);
  });
});

/**
 * Class-based Shadow Routing (§3.2, the algorithm the paper improves on) on two resources of
 * estimated rates 1 and 4, two classes of lengths 2 and 32, η = 1/20: the queues start at
 * 1/(ηM) = 10 each. Worked on paper.
 */
describe('class-based Shadow Routing on a two-class example', () => {
  it('knows a task only by its class, and picks the least current load argmin Q_r · ℓ_i/μ_r', () => {
    const s = new ShadowRouting([1, 4], 1 / 20, [2, 32]);
    // The boundary is √(2·32) = 8: 3 and 8 are short, 9 and 100 long.
    expect([3, 8, 9, 100].map((L) => s.classLength(L))).toEqual([2, 2, 32, 32]);
    // L̂ = 3 is class ℓ = 2: scores 10·2 = 20, 10·0.5 = 5 → 1; Q = [10, 10.5]; η ΣQ = 1.025 >= 1, so
    // each loses c = 2 · max(2, 0.5) = 4: Q = [6, 6.5]. (Per task, Figure 1 would add 0.75, not 0.5.)
    expect(s.route(3)).toBe(1);
    expect(s.Q).toEqual([6, 6.5]);
    // L̂ = 50 is class ℓ = 32: 6·32 = 192 against 6.5·8 = 52 → 1; Q = [6, 14.5]; η ΣQ = 1.025: each loses
    // 2 · 32 = 64, floored: Q = [0, 0].
    expect(s.route(50)).toBe(1);
    expect(s.Q).toEqual([0, 0]);
    // Empty queues tie at 0: the faster resource. ℓ = 2 → 1, Q = [0, 0.5]; then 0·2 = 0 against
    // 0.5·0.5 = 0.25 → resource 0 at last (Figure 1 would score 4 against 0.5 and keep resource 1).
    expect(s.route(2)).toBe(1);
    expect(s.route(2)).toBe(0);
    expect(s.Q).toEqual([2, 0.5]);
    expect(s.normalizations).toBe(2);
  });
});
