import { describe, expect, it } from 'vitest';
import { LinkOrder } from '../src/link-order.js';

describe('LinkOrder', () => {
  it("delivers a link's messages in their numbers' order, holding those that overtook an earlier one", () => {
    const order = new LinkOrder();
    const out: string[] = [];
    const deliver = (what: string) => () => out.push(what);
    expect(order.admit('a>b', 2, deliver('a2'))).toBe('held');
    expect(order.admit('a>b', 3, deliver('a3'))).toBe('held');
    // Another link is not held up by this one's gap.
    expect(order.admit('c>b', 1, deliver('c1'))).toBe('delivered');
    expect(order.holding).toBe(2);
    // A second copy of a held one replaces it: it is delivered once.
    expect(order.admit('a>b', 3, deliver('a3 again'))).toBe('held');
    expect(order.admit('a>b', 1, deliver('a1'))).toBe('delivered');
    expect(out).toEqual(['c1', 'a1', 'a2', 'a3 again']);
    expect(order.holding).toBe(0);
    expect(order.passed('a>b', 2)).toBe(true);
    expect(order.passed('a>b', 4)).toBe(false);
    expect(order.passed('x>b', 1)).toBe(false);
    expect(order.admit('a>b', 2, deliver('a2 copy'))).toBe('passed');
    expect(order.admit('a>b', 4, deliver('a4'))).toBe('delivered');
    expect(out.at(-1)).toBe('a4');
  });

  it('after a replay, takes what the journal delivered, out of order too, as delivered', () => {
    const order = new LinkOrder();
    const out: number[] = [];
    // The journal holds 1, 2 and 4: message 3 was in a mailbox, not yet handled, when the process died.
    for (const n of [1, 2, 4]) order.replayed('a>b', n);
    expect([1, 2, 3, 4, 5].map((n) => order.passed('a>b', n))).toEqual([true, true, false, true, false]);
    expect(order.admit('a>b', 4, () => out.push(4))).toBe('passed');
    expect(order.admit('a>b', 5, () => out.push(5))).toBe('held');
    expect(order.admit('a>b', 3, () => out.push(3))).toBe('delivered');
    expect(out).toEqual([3, 5]);
  });
});
