// Slow tests (npm run test:slow): an external policy that is slow to start, live.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gridemuLive, readSummary, REPO, tmp } from '../test/live-helpers.js';

describe('gridemu run with an external policy slow to start', () => {
  it("stops the run naming the silent site and the policy's start-up, not the machine", async () => {
    // Python's least-loaded policy behind a 25-second start-up: the site's process waits for its
    // hello and sends nothing, past the leader's 10 s for a silent process, well inside the 30 s
    // meta.startup_timeout_s gives the start-up.
    const dir = tmp();
    const policy = join(dir, 'slow_start.py');
    writeFileSync(
      policy,
      [
        'import runpy, time',
        'time.sleep(25)',
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
        `meta: { scheme: external, command: [python3, ${JSON.stringify(policy)}] }`,
        'live: { speedup: 5000 }',
      ].join('\n') + '\n',
    );
    const out = join(dir, 'out');
    const run = await gridemuLive(['run', spec, '--out', out, '--timeout', '120']).done;
    expect(run.code, run.err).toBe(1);
    expect(readSummary(out).live.aborted).toMatch(
      /^process "s\d" \(pid \d+\) has been silent for 10 s; with scheme external, .*start-up included .*meta\.startup_timeout_s/,
    );
  }, 120_000);
});
