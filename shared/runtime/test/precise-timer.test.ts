import { describe, expect, it } from 'vitest';
import { PreciseTimer } from '../src/precise-timer.js';
import { wallNow_ms } from '../src/wall-clock.js';

describe('PreciseTimer', () => {
  // How late it fires depends on the machine's load: that is measured by the bench (timer lag), not asserted here.
  it('fires at its wall deadline, never before, for sub-millisecond deadlines too', async () => {
    for (let i = 0; i < 30; i++) {
      const due = wallNow_ms() + 0.3 + (i % 7) * 0.45;
      const fired = await new Promise<number>((resolve) => new PreciseTimer(due, () => resolve(wallNow_ms())));
      expect(fired).toBeGreaterThanOrEqual(due);
    }
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
