// Slow tests (npm run test:slow): gridemu fuzz --live, a seed that passes and one made to fail.
// scripts/slow-tests.mjs runs CI's ten live seeds besides.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gridemuLive, tmp } from '../test/live-helpers.js';

describe('gridemu fuzz --live', () => {
  it("runs a seed's experiment live with its faults, checks it, and removes what passed", async () => {
    const out = tmp();
    // Seed 12: the hierarchy family, nine crashes of its queues and grids, a partition, a server
    // restart and 10% loss (the seed that found the warm-up writing into the run's journals).
    const r = await gridemuLive(['fuzz', '--live', '--from', '12', '--seeds', '1', '--out', out]).done;
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(
      /\[1\/1\] seed 12 \(mq-hierarchy, 3 sites, 9 crashes, 1 partition, 1 server restart, 10% loss, speed-up \d+\): passed \(/,
    );
    expect(r.out).toMatch(/^1 seed passed live \(12\.\.12\) in [\d.]+ s\n$/);
    expect(readdirSync(out)).toEqual([]);
  }, 300_000);

  it('keeps what a seed that failed live left, and says how to run it again', async () => {
    const out = tmp();
    // No run of a seed's ends within a second of wall time: the start-up alone takes longer.
    const r = await gridemuLive(['fuzz', '--live', '--from', '12', '--seeds', '1', '--out', out, '--timeout', '1'])
      .done;
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      'gridemu fuzz --live: seed 12 passed in the simulator and failed live:\n  gridemu run exit',
    );
    expect(r.err).toContain(`results and logs in ${join(out, 'fuzz-12')}`);
    expect(r.err).toContain('reproduce with: gridemu fuzz --live --seed 12');
    expect(existsSync(join(out, 'fuzz-12.yaml'))).toBe(true);
    expect(existsSync(join(out, 'fuzz-12', 'logs'))).toBe(true);
  }, 300_000);
});
