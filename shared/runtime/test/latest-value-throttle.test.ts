import { describe, expect, it } from 'vitest';
import { LatestValueThrottle, type ThrottleClock } from '../src/latest-value-throttle.js';

/** A clock the test moves by hand, with the timers it fires in due order. */
function manualClock(): ThrottleClock & { advance(ms: number): void } {
  let now = 0;
  let timers: { due: number; f: () => void; live: boolean }[] = [];
  return {
    now_ms: () => now,
    after: (ms, f) => {
      const t = { due: now + ms, f, live: true };
      timers.push(t);
      return { cancel: () => (t.live = false) };
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const next = timers.filter((t) => t.live && t.due <= end).sort((a, b) => a.due - b.due)[0];
        if (!next) break;
        now = next.due;
        next.live = false;
        next.f();
      }
      timers = timers.filter((t) => t.live);
      now = end;
    },
  };
}

describe('LatestValueThrottle (issue 15: load reports bounded in wall time)', () => {
  it('sends the first at once, holds the next for the interval, and sends only the newest of those held', () => {
    const clock = manualClock();
    const sent: string[] = [];
    let superseded = 0;
    const t = new LatestValueThrottle(20, () => superseded++, clock);
    const offer = (key: string, v: string) =>
      t.offer(key, (deferred) => sent.push(`${clock.now_ms()} ${key}=${v}${deferred ? ' (deferred)' : ''}`));
    offer('s1 load', 'a'); // t = 0: goes
    clock.advance(5);
    offer('s1 load', 'b'); // t = 5: waits for t = 20
    clock.advance(5);
    offer('s1 load', 'c'); // t = 10: replaces b
    offer('s2 load', 'x'); // another sender is not held back by s1
    clock.advance(15); // t = 25
    expect(sent).toEqual(['0 s1 load=a', '10 s2 load=x', '20 s1 load=c (deferred)']);
    expect(superseded).toBe(1);
    // The interval runs from the deferred send at 20: d, offered at 25, goes at 40; e, at 45,
    // waits for 60; f, at 85, goes at once.
    offer('s1 load', 'd');
    clock.advance(20); // t = 45
    offer('s1 load', 'e');
    clock.advance(40); // t = 85
    offer('s1 load', 'f');
    expect(sent.slice(3)).toEqual(['40 s1 load=d (deferred)', '60 s1 load=e (deferred)', '85 s1 load=f']);
  });

  it('clear() drops what waits', () => {
    const clock = manualClock();
    const sent: string[] = [];
    const t = new LatestValueThrottle(20, undefined, clock);
    t.offer('k', () => sent.push('a'));
    t.offer('k', () => sent.push('b'));
    t.clear();
    clock.advance(100);
    expect(sent).toEqual(['a']);
  });
});
