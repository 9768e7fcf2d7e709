// Slow tests (npm run test:slow): the Grafana dashboard's panels and gridemu run --prometheus's
// count of completed jobs have every site's series under each family's schemes, not only paper
// 001's (prometheus.test.ts runs those).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prometheusBinary, startPrometheus } from '../src/live/prometheus-server.js';
import { gridemuLive, readCheck, readJobs, REPO, TEST_WARM_UP_JOBS, tmp } from '../test/live-helpers.js';

const missing = prometheusBinary() ? undefined : 'skipped: needs prometheus on PATH (apt-get install -y prometheus)';

const SHADOW = [
  'name: shadow-prometheus',
  'seed: 3',
  'sites: [{ id: a, cpus: 2 }, { id: b, cpus: 2 }, { id: c, cpus: 4 }]',
  'workload: [{ site: a, synthetic: { jobs: 60, uhi: 1 } }]',
  'meta: { scheme: shadow, speeds: [1, 2, 4] }',
  `live: { speedup: 20000, warm_up_jobs: ${TEST_WARM_UP_JOBS} }`,
].join('\n');

const FAMILIES: { family: string; spec: (dir: string) => string; args: string[]; sites: readonly number[] }[] = [
  { family: 'paper 002 (gruber)', spec: () => join(REPO, 'examples/gruber-live.yaml'), args: [], sites: [8, 8, 16] },
  {
    family: 'paper 003 (dag-adaptive)',
    spec: () => join(REPO, 'examples/dag-tornado.yaml'),
    args: ['--set', 'workload[0].tornado.jobs=12'],
    sites: [32, 32, 32, 32],
  },
  {
    family: 'paper 000 (mq-hierarchy)',
    spec: () => join(REPO, 'examples/hierarchy-table1.yaml'),
    args: ['--speedup', '100000'],
    sites: [2, 200, 1500],
  },
  {
    family: 'paper 004 (shadow)',
    spec: (dir) => {
      const file = join(dir, 'shadow.yaml');
      writeFileSync(file, SHADOW + '\n');
      return file;
    },
    args: [],
    sites: [2, 2, 4],
  },
];

describe("Prometheus has every site's state under each family's schemes", () => {
  for (const { family, spec, args, sites } of FAMILIES)
    it.skipIf(missing !== undefined)(
      `${family}: its completed jobs as jobs.csv has them; every site's processors and jobs, queued and running ${missing ?? ''}`,
      async () => {
        const dir = tmp();
        const out = join(dir, 'out');
        const run = `families-${family.split(' ')[1]}`;
        const { code, err } = await gridemuLive([
          'run',
          spec(dir),
          ...args,
          '--out',
          out,
          '--prometheus',
          '--run',
          run,
          '--timeout',
          '180',
          '--quiet',
        ]).done;
        expect(code, err).toBe(0);
        const check = readCheck(out) as { prometheus: { config: string; completed_jobs?: number } };
        // What gridemu run --prometheus checks: the sites' completions, as jobs.csv has them.
        const completed = readJobs(out).filter((j) => j.state === 'COMPLETED_SUCCESSFULLY').length;
        expect(completed).toBeGreaterThan(0);
        expect(check.prometheus.completed_jobs).toBe(completed);
        const prom = await startPrometheus(check.prometheus.config, join(out, 'prometheus', 'data'));
        try {
          const over = (metric: string) => `max_over_time(gridemu_${metric}{run="${run}"}[1d])`;
          // Each site's series: the panels' numerator and denominator, and the queue panel's two.
          // Whether a scrape found a site busy depends on how the run's second fell; the gauges'
          // values over a run are checked in the simulator (shared/schemes' site-metrics.test.ts).
          for (const gauge of ['processors_total', 'processors_busy', 'jobs_queued', 'jobs_running'])
            expect(await prom.query(`count(${over(gauge)})`), gauge).toBe(sites.length);
          expect(await prom.query(`sum(${over('processors_total')})`)).toBe(sites.reduce((a, b) => a + b, 0));
        } finally {
          await prom.stop();
        }
      },
      300_000,
    );
});
