import { describe, expect, it } from 'vitest';
import { runCharts, type ReportSummary } from '../src/report/run-report.js';
import type { ReportJob } from '../src/report/run-series.js';

describe("one run's report: every chart over time on the same hours", () => {
  it('ends each at the last hour any of them draws, the faults chart too', () => {
    // Jobs from 0 s to 36,000 s (10 h); the messages' hour 10 is drawn at its middle, 10.5 h.
    const jobs: ReportJob[] = [
      {
        id: 'a',
        submit_s: 0,
        start_s: 0,
        finish_s: 20_000,
        procs: 2,
        origin: 's1',
        site: 's1',
        state: 'COMPLETED_SUCCESSFULLY',
      },
      {
        id: 'b',
        submit_s: 100,
        start_s: 5_000,
        finish_s: 36_000,
        procs: 1,
        origin: 's2',
        site: 's2',
        state: 'COMPLETED_SUCCESSFULLY',
      },
    ];
    const summary: ReportSummary = {
      name: 'x',
      mode: 'run',
      scheme: 'k-distributed',
      jobs: { submitted: 2, completed: 2, rejected: 0 },
      mean_wait_s: 2450,
      mean_bounded_slowdown: 1,
      utilization: { overall: 0.5, per_site: { s1: 0.5, s2: 0.5 } },
      makespan_s: 36_000,
      messages: { total: 30, per_hour: { '0': 20, '10': 10 } },
      spec: {
        sites: [
          { id: 's1', cpus: 2 },
          { id: 's2', cpus: 2 },
        ],
        faults: { crash: [{ process: 's2', at_s: 3_600, down_s: 3_600 }] },
      },
      live: { speedup: 1000 },
    };
    const state = { count: 5, sum_ms: 5, min_ms: 1, max_ms: 1, buckets: { '0': 5 } };
    const network = {
      mailbox: {
        timer_fire_timeline: { bin_s: 3600, locations: { s1: { '2': state } } },
        arrived_timeline: { bin_s: 3600, links: { 's1->s2': { '3': state } } },
      },
    };
    const charts = runCharts(summary, jobs, network);
    const overTime = charts.filter((c) => !['waits', 'slowdown'].includes(c.id));
    expect(overTime.map((c) => c.id)).toEqual([
      'utilization',
      'queue',
      'messages',
      'timer-lag',
      'timer-lag-p95',
      'delay',
      'delay-p95',
      'faults',
    ]);
    for (const c of overTime) {
      const x = (c.config as { options: { scales: { x: { min?: number; max?: number } } } }).options.scales.x;
      expect({ chart: c.id, min: x.min, max: x.max }).toEqual({ chart: c.id, min: 0, max: 11 });
    }
  });
});
