// Slow tests (npm run test:slow): an external policy that is slow to start, live.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gridemuLive, readCheck, readSummary, REPO, tmp } from '../test/live-helpers.js';

/**
 * Two sites whose policy is Python's least-loaded behind a 15-second start-up: the site's process
 * waits for its hello, sending nothing, past both the 10 s a silent process had and the 15 s a
 * site gives a silent driver.
 */
function slowStart(startup: string): { spec: string; out: string } {
  const dir = tmp();
  const policy = join(dir, 'slow_start.py');
  writeFileSync(
    policy,
    [
      'import runpy, time',
      'time.sleep(15)',
      `runpy.run_path(${JSON.stringify(join(REPO, 'examples/policies/least_loaded.py'))}, run_name="__main__")`,
    ].join('\n') + '\n',
  );
  const spec = join(dir, 'spec.yaml');
  writeFileSync(
    spec,
    [
      'name: slow-start',
      'seed: 3',
      'sites: [{ id: s1, cpus: 64 }, { id: s2, cpus: 64 }]',
      'workload:',
      '  - { site: s1, synthetic: { jobs: 20 } }',
      '  - { site: s2, synthetic: { jobs: 20 }, shift_h: 1 }',
      'local: { policy: easy }',
      `meta: { scheme: external, command: [python3, ${JSON.stringify(policy)}]${startup} }`,
      'live: { speedup: 5000 }',
    ].join('\n') + '\n',
  );
  return { spec, out: join(dir, 'out') };
}

describe('gridemu run with an external policy slow to start', () => {
  it('waits for it within meta.startup_timeout_s: the run ends with every job once', async () => {
    const { spec, out } = slowStart('');
    const run = await gridemuLive(['run', spec, '--out', out, '--timeout', '120']).done;
    expect(run.code, run.err).toBe(0);
    expect(readSummary(out).jobs.completed).toBe(40);
    expect(readCheck(out).ok, JSON.stringify(readCheck(out))).toBe(true);
  }, 120_000);

  it('past it, stops the run with exit 2 naming the policy and its start-up', async () => {
    const { spec, out } = slowStart(', startup_timeout_s: 2');
    const run = await gridemuLive(['run', spec, '--out', out, '--timeout', '120']).done;
    expect(run.code, run.err).toBe(2);
    expect(run.err).toMatch(
      /the external policy at s\d .* did not answer request 1 within 2 s \(its start-up included\)/,
    );
  }, 120_000);
});
