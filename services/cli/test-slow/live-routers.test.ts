// Slow tests (npm run test:slow): paper 004's routers live, MCT against Shadow (npm test runs MCT
// with a resource away and with churn, in run-live.test.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gridemuLive, readCheck, readSummary, TEST_WARM_UP_JOBS, tmp } from '../test/live-helpers.js';

describe('gridemu run: paper 004 routers, the scheduler its own process', () => {
  it("MCT's state queries cross NATS, one each way per resource and task; Shadow sends none; every task runs once", async () => {
    for (const scheme of ['mct', 'shadow']) {
      const dir = tmp();
      const spec = join(dir, 'routers.yaml');
      writeFileSync(
        spec,
        [
          'name: live-routers',
          'seed: 3',
          'sites: [{ id: a, cpus: 1 }, { id: b, cpus: 1 }, { id: c, cpus: 1 }, { id: d, cpus: 1 }]',
          'workload: [{ site: a, synthetic: { jobs: 60, uhi: 1 } }]',
          // Each task's 100 kB output comes back through its resource's link and the scheduler's.
          `meta: { scheme: ${scheme}, speeds: [1, 2, 4, 8], task_output_bytes: 100000 }`,
          'network: { latency_ms: 5 }',
          `live: { speedup: 5000, warm_up_jobs: ${TEST_WARM_UP_JOBS} }`,
        ].join('\n') + '\n',
      );
      const out = join(dir, 'out');
      const { code, err } = await gridemuLive(['run', spec, '--out', out, '--timeout', '120']).done;
      expect(code, err).toBe(0);
      const s = readSummary(out);
      expect(Object.keys(s.live.processes).sort()).toEqual(['a', 'b', 'c', 'd', 'driver', 'scheduler']);
      expect(s.jobs.completed, scheme).toBe(60);
      expect(s.schedule_check.ok).toBe(true);
      // gridemu run ran gridemu check on its own folder, logs and all.
      expect(readCheck(out).ok, JSON.stringify(readCheck(out))).toBe(true);
      expect(readCheck(out).invariants[1].detail).toMatch(/60 starts in the logs/);
      expect(s.messages.cross_site_by_type['sr.task']).toBe(60);
      expect(s.messages.cross_site_by_type['sr.output']).toBe(60);
      expect(s.messages.cross_site_by_type['sr.query'] ?? 0, scheme).toBe(scheme === 'mct' ? 240 : 0);
      expect(s.messages.cross_site_by_type['sr.answer'] ?? 0, scheme).toBe(scheme === 'mct' ? 240 : 0);
    }
  });
});
