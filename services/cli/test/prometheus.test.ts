import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  completedJobsQuery,
  prometheusBinary,
  queryPrometheus,
  startPrometheus,
} from '../src/live/prometheus-server.js';
import { dashboardQueries, gridemuLive, readJobs, readCheck, smallSpec, tmp } from './live-helpers.js';

const missing = prometheusBinary() ? undefined : 'skipped: needs prometheus on PATH (apt-get install -y prometheus)';

/** A real Prometheus scraping a real run: what it counted must be what jobs.csv says. */
describe('Prometheus in the loop (issue 12)', () => {
  it.skipIf(missing !== undefined)(
    `four sites scraped by a real Prometheus: its completed jobs equal jobs.csv's completed rows ${missing ?? ''}`,
    async () => {
      const dir = tmp();
      const out = join(dir, 'out');
      const spec = smallSpec(dir, { sites: 4, jobs: 30, speedup: 20000 });
      const { code, err } = await gridemuLive([
        'run',
        spec,
        '--out',
        out,
        '--prometheus',
        '--run',
        'prom-agrees',
        '--timeout',
        '120',
      ]).done;
      expect(code, err).toBe(0);
      expect(err).toMatch(/Prometheus at http:\/\/127\.0\.0\.1:\d+/);
      const completedRows = readJobs(out).filter((j) => j.state === 'COMPLETED_SUCCESSFULLY').length;
      expect(completedRows).toBeGreaterThan(0);
      const s = readCheck(out) as { prometheus: { completed_jobs?: number; config: string } };
      expect(s.prometheus.completed_jobs).toBe(completedRows);
      expect(err).toContain(`counted ${completedRows} completed jobs, as jobs.csv does`);

      // Ask again, through the HTTP API of a Prometheus started afresh on what the run's one stored.
      const prom = await startPrometheus(s.prometheus.config, join(out, 'prometheus', 'data'));
      try {
        expect(await prom.query(completedJobsQuery('prom-agrees'))).toBe(completedRows);
        // Every site's gauges, labelled by run, site and scheme.
        expect(
          await queryPrometheus(
            prom.url,
            'count(max_over_time(gridemu_processors_busy{run="prom-agrees",scheme="k-distributed"}[1d]))',
          ),
        ).toBe(4);
        expect(
          await prom.query('sum(max by (site) (max_over_time(gridemu_jobs_started_total{run="prom-agrees"}[1d])))'),
        ).toBe(completedRows);
        expect(await prom.query('sum(max_over_time(gridemu_jobs_wait_seconds_count{run="prom-agrees"}[1d]))')).toBe(
          completedRows,
        );
        // The driver is scraped too: its count of jobs with an outcome reached every job.
        expect(
          await prom.query('max(max_over_time(gridemu_run_jobs_finished{run="prom-agrees",site="driver"}[1d]))'),
        ).toBe(readJobs(out).length);
        expect(
          await prom.query(
            'sum(max_over_time(gridemu_messages_sent_total{run="prom-agrees",type="claim.request"}[1d]))',
          ),
        ).toBeGreaterThan(0);
        // Every cancel that dropped a losing copy is in the cancel-delay histogram, and links' latency is by sender.
        const cancelDelays =
          (await prom.query('sum(max_over_time(gridemu_copies_cancel_delay_seconds_count{run="prom-agrees"}[1d]))')) ??
          0;
        const cancelsSent =
          (await prom.query('sum(max_over_time(gridemu_copies_cancels_sent_total{run="prom-agrees"}[1d]))')) ?? 0;
        expect(cancelDelays).toBeGreaterThan(0);
        expect(cancelDelays).toBeLessThanOrEqual(cancelsSent);
        // Over the run, not at the query's instant: a site's series go stale once its last scrape
        // finds the process gone, and on a loaded machine that scrape can come before Prometheus stops.
        expect(
          await prom.query(
            'count(count by (site, from) (max_over_time(gridemu_message_latency_seconds_count{run="prom-agrees"}[1d])))',
          ),
        ).toBeGreaterThan(4);
        // gridemu run's own series: the faults it injected (none here) and the processes it restarted.
        expect(
          await prom.query(
            'count(max_over_time(gridemu_faults_injected_total{run="prom-agrees",site="orchestrator"}[1d]) == 0)',
          ),
        ).toBe(4);
        // Never a job id in a label.
        expect(await prom.query('count(max_over_time({run="prom-agrees",job_id!=""}[1d]))')).toBeUndefined();
        // Prometheus itself takes every query of the Grafana dashboard (deploy/grafana).
        const refused: string[] = [];
        for (const q of dashboardQueries('prom-agrees'))
          await prom.query(q.expr).catch((e: Error) => refused.push(`${q.panel}: ${e.message}`));
        expect(refused).toEqual([]);
        // And the utilization panel has a value for every site.
        expect(
          await queryPrometheus(prom.url, 'count(max_over_time(gridemu_processors_total{run="prom-agrees"}[1d]))'),
        ).toBe(4);
      } finally {
        await prom.stop();
      }
    },
  );
});
