// Slow tests (npm run test:slow): a live sweep passes gridemu run's --tls and --prometheus to every run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prometheusBinary } from '../src/live/prometheus-server.js';
import { gridemuLive, readCheck, readJobs, smallSpec, tmp } from '../test/live-helpers.js';

const missing = prometheusBinary() ? undefined : 'skipped: needs prometheus on PATH (apt-get install -y prometheus)';

describe('gridemu sweep --live --tls --prometheus', () => {
  it.skipIf(missing !== undefined)(
    `each run speaks TLS to its own server, and its own Prometheus counts what its jobs.csv says ${missing ?? ''}`,
    async () => {
      const dir = tmp();
      const spec = smallSpec(dir, { sites: 2, jobs: 15, speedup: 20000 });
      const out = join(dir, 'sweep');
      const { code, err } = await gridemuLive([
        'sweep',
        spec,
        '--vary',
        'network.latency_ms=0,2',
        '--live',
        '--tls',
        '--prometheus',
        '--timeout',
        '120',
        '--out',
        out,
      ]).done;
      expect(code, err).toBe(0);
      for (const variant of ['network.latency_ms=0', 'network.latency_ms=2']) {
        const run = join(out, `${variant}__seed7`);
        const check = readCheck(run) as { ok: boolean; prometheus?: { completed_jobs?: number } };
        expect(check.ok, JSON.stringify(check)).toBe(true);
        const completed = readJobs(run).filter((j) => j.state === 'COMPLETED_SUCCESSFULLY').length;
        expect(completed, variant).toBeGreaterThan(0);
        expect(check.prometheus?.completed_jobs, variant).toBe(completed);
        // The run's server took TLS only.
        expect(readFileSync(join(run, 'nats', 'nats-server.conf'), 'utf8'), variant).toMatch(/tls/);
      }
    },
    300_000,
  );
});
