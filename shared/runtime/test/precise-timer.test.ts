import { describe, expect, it } from 'vitest';
import { PreciseTimer } from '../src/precise-timer.js';
import { wallNow_ms } from '../src/wall-clock.js';

describe('PreciseTimer', () => {
  it('fires at its wall deadline, not before, and to well under setTimeout’s millisecond', async () => {
    const lates: number[] = [];
    for (let i = 0; i < 30; i++) {
      const due = wallNow_ms() + 0.3 + (i % 7) * 0.45;
      const fired = await new Promise<number>((resolve) => new PreciseTimer(due, () => resolve(wallNow_ms())));
      expect(fired).toBeGreaterThanOrEqual(due);
      lates.push(fired - due);
    }
    lates.sort((a, b) => a - b);
    expect(lates[15]!).toBeLessThan(0.5); // the median, on a loaded 2-core machine
  });

  it('never fires once cancelled', async () => {
    let fired = false;
    const t = new PreciseTimer(wallNow_ms() + 5, () => (fired = true));
    const u = new PreciseTimer(wallNow_ms() + 1, () => (fired = true));
    t.cancel();
    u.cancel();
    await new Promise((r) => setTimeout(r, 20));
    expect(fired).toBe(false);
  });
});
