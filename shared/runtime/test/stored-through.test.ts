import { describe, expect, it } from 'vitest';
import { StoredThrough } from '../src/stored-through.js';

describe('StoredThrough', () => {
  it("moves a link's cumulative number only over an unbroken run, taking in what settled past a gap", () => {
    const stored = new StoredThrough();
    expect(stored.through('a>b')).toBe(0);
    expect(stored.settled('a>b', 1)).toBe(1);
    // Two actors' mailboxes recorded 3 and 4 before 2: nothing more may be acknowledged yet.
    expect(stored.settled('a>b', 3)).toBeUndefined();
    expect(stored.settled('a>b', 4)).toBeUndefined();
    expect(stored.through('a>b')).toBe(1);
    // Another link keeps its own count.
    expect(stored.settled('c>b', 1)).toBe(1);
    expect(stored.settled('a>b', 2)).toBe(4);
    // Settled again (a replay of what was stored): no change.
    expect(stored.settled('a>b', 3)).toBeUndefined();
    expect(stored.through('a>b')).toBe(4);
    expect(stored.settled('a>b', 5)).toBe(5);
  });
});
