import { describe, expect, it } from 'vitest';
import { largest, smallest } from '../src/index.js';

describe('the largest and smallest of many numbers', () => {
  it('agree with Math.max and Math.min, and say what is given for none', () => {
    expect(largest([3, -1, 7, 2])).toBe(7);
    expect(smallest([3, -1, 7, 2])).toBe(-1);
    expect(largest([])).toBe(Number.NEGATIVE_INFINITY);
    expect(smallest([], 0)).toBe(0);
    expect(largest(new Set([-5, -2]), 0)).toBe(-2);
    expect(largest([1, Number.NaN, 2])).toBeNaN();
  });

  it('take more numbers than a call has room for as arguments', () => {
    const many = Array.from({ length: 1_000_000 }, (_, i) => (i * 7919) % 1_000_003);
    expect(() => Math.max(...many)).toThrow(RangeError);
    expect(largest(many)).toBe(many.reduce((a, b) => (b > a ? b : a)));
    expect(smallest(many)).toBe(0);
  });
});
