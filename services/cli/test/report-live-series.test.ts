import { describe, expect, it } from 'vitest';
import type { LatencyState } from '@gridemu/protocol';
import { LatencyHistogram } from '@gridemu/runtime/live';
import { delayOverTime, timerLagOverTime } from '../src/report/live-series.js';
import { runCharts, type ReportSummary } from '../src/report/run-report.js';
import type { ReportJob } from '../src/report/run-series.js';

/** A window's histogram as network.json holds it: only the count and the sum are read here. */
const state = (count: number, sum_ms: number): LatencyState => ({
  count,
  sum_ms,
  min_ms: 0,
  max_ms: sum_ms,
  buckets: {},
});

describe("a live run's timers and delays over its time (network.json)", () => {
  it("draws each process's timer lag per window in emulated seconds, only windows the guard judges, sites first", () => {
    // Windows of 1000 emulated s at 2000x: 1 wall ms late is 2 emulated s.
    const timeline = {
      bin_s: 1000,
      locations: {
        driver: { '1': state(5, 5) },
        s2: { '2': state(10, 30), '1': state(4, 400) },
        s1: { '3': state(6, 12), '1': state(5, 10) },
      },
    };
    const series = timerLagOverTime(timeline, 2000, 1000, ['s1', 's2']);
    expect(series.map((s) => s.name)).toEqual(['s1', 's2', 'driver']);
    // s1: window 1 (1000-2000 s) has its middle at 1500 s, 500 s after the first submission at 1000 s.
    expect(series[0]!.points).toEqual([
      { x: 500 / 3600, y: 4 },
      { x: 2500 / 3600, y: 4 },
    ]);
    // s2's window 1 holds 4 timers, fewer than the guard judges: left out, however late.
    expect(series[1]!.points).toEqual([{ x: 1500 / 3600, y: 6 }]);
    expect(series[2]!.points).toEqual([{ x: 500 / 3600, y: 2 }]);
  });

  it("draws each process's timer lag at a window's 95th percentile from its histogram", () => {
    const recorded = (lags_ms: readonly [number, number][]): LatencyState => {
      const h = new LatencyHistogram();
      for (const [ms, n] of lags_ms) for (let i = 0; i < n; i++) h.record(ms);
      return h.state();
    };
    // s1's window 0: 94 timers 1 ms late and 6 held up 400 ms, a mean of 24.94 ms that the guard
    // judges; one timer in twenty was 400 ms late, 400 emulated s at 1000x. Window 1 holds four
    // timers, fewer than the guard judges: left out of both charts alike.
    const timeline = {
      bin_s: 100,
      locations: {
        s1: {
          '0': recorded([
            [1, 94],
            [400, 6],
          ]),
          '1': recorded([[400, 4]]),
        },
      },
    };
    const at = (statistic: 'mean' | 'p95') =>
      timerLagOverTime(timeline, 1000, 0, ['s1'], statistic)[0]!.points.map((p) => p.y);
    const mean = at('mean');
    expect(mean).toHaveLength(1);
    expect(mean[0]).toBeCloseTo(24.94, 6);
    const tail = at('p95');
    expect(tail).toHaveLength(1);
    expect(tail[0]).toBeGreaterThan(400 * 0.97);
    expect(tail[0]).toBeLessThanOrEqual(400);
  });

  it('merges the links into each receiving process, weighting each by its messages', () => {
    const timeline = {
      bin_s: 100,
      links: {
        's1->s2': { '0': state(1, 10), '1': state(0, 0) },
        'driver->s2': { '0': state(3, 6) },
        's2->s1': { '0': state(2, 4) },
      },
    };
    const series = delayOverTime(timeline, 1000, 0, ['s1', 's2']);
    expect(series.map((s) => s.name)).toEqual(['to s1', 'to s2']);
    expect(series[0]!.points).toEqual([{ x: 50 / 3600, y: 2 }]);
    // (10 + 6) ms over 4 messages: 4 ms, 4 emulated s at 1000x; the empty window drawn as nothing.
    expect(series[1]!.points).toEqual([{ x: 50 / 3600, y: 4 }]);
  });

  it("draws each window's 95th percentile from the links' histograms merged into the receiver", () => {
    const recorded = (ms: number, n: number): LatencyState => {
      const h = new LatencyHistogram();
      for (let i = 0; i < n; i++) h.record(ms);
      return h.state();
    };
    // Into s2 in window 0: 94 messages of 10 ms from s1 and 6 of 2000 ms from the driver. Their
    // mean, 129.4 ms, is far below what one message in twenty took; window 1 has s1's alone.
    const timeline = {
      bin_s: 100,
      links: {
        's1->s2': { '0': recorded(10, 94), '1': recorded(10, 50) },
        'driver->s2': { '0': recorded(2000, 6) },
      },
    };
    const at = (statistic: 'mean' | 'p95') =>
      delayOverTime(timeline, 1000, 0, ['s1', 's2'], statistic)[0]!.points.map((p) => p.y);
    const [mean0, mean1] = at('mean');
    expect(mean0).toBeCloseTo(129.4, 6);
    expect(mean1).toBeCloseTo(10, 6);
    // From buckets about 4.4% wide, clamped to the window's exact longest delay.
    const [tail0, tail1] = at('p95');
    expect(tail0).toBeGreaterThan(2000 * 0.97);
    expect(tail0).toBeLessThanOrEqual(2000);
    expect(tail1).toBeGreaterThan(10 * 0.97);
    expect(tail1).toBeLessThanOrEqual(10);
  });

  it("draws the guard's limit across the timer chart: its share of the shortest timescale, over a late run's mean", () => {
    const job: ReportJob = {
      id: 'j',
      submit_s: 0,
      start_s: 0,
      finish_s: 36_000,
      procs: 1,
      origin: 's1',
      site: 's1',
      state: 'COMPLETED_SUCCESSFULLY',
    };
    const summary = (judged_beyond_ms: number): ReportSummary => ({
      name: 'x',
      mode: 'run',
      scheme: 'k-distributed',
      jobs: { submitted: 1, completed: 1, rejected: 0 },
      mean_wait_s: 0,
      mean_bounded_slowdown: 1,
      utilization: { overall: 1, per_site: { s1: 1 } },
      makespan_s: 36_000,
      messages: { total: 0 },
      spec: { sites: [{ id: 's1', cpus: 1 }] },
      live: {
        speedup: 1000,
        fidelity: {
          timescales: { 'meta.claim_timeout_s': 900, median_run_s: 600 },
          measured: { share: 0.05, backlog: { judged_beyond_ms: judged_beyond_ms } },
        },
      },
    });
    const network = { mailbox: { timer_fire_timeline: { bin_s: 3600, locations: { s1: { '0': state(5, 5) } } } } };
    const level = (s: ReportSummary) => {
      const chart = runCharts(s, [job], network).find((c) => c.id === 'timer-lag')!;
      const sets = (chart.config as { data: { datasets: { label: string; data: { x: number; y: number }[] }[] } }).data
        .datasets;
      return { caption: chart.caption, line: sets.find((d) => d.label === "the guard's limit")!.data };
    };
    // 5% of 600 s: 30 emulated s, across the run's 10 hours.
    const quiet = level(summary(0));
    expect(quiet.line).toEqual([
      { x: 0, y: 30 },
      { x: 10, y: 30 },
    ]);
    expect(quiet.caption).toContain('(5% of median_run_s, 600 s)');
    // A run whose mean lateness was past the share already (40 wall ms, 40 emulated s): judged beyond it.
    const late = level(summary(40));
    expect(late.line[0]!.y).toBe(70);
    expect(late.caption).toContain("the run's own mean lateness, 40 emulated s, and 5% of median_run_s, 600 s over it");
    // No network.json (a simulation, or a run from before it): no live charts, and no faults chart without faults.
    expect(runCharts(summary(0), [job]).map((c) => c.id)).toEqual([
      'utilization',
      'queue',
      'waits',
      'slowdown',
      'messages',
    ]);
    // Jobs that hold no processors of their own (paper 003's tasks, paper 000's): jobs.csv cannot
    // say how busy the sites were over time, so no chart says 0; the summary's figure stands.
    expect(runCharts(summary(0), [{ ...job, procs: 0 }]).map((c) => c.id)).toEqual([
      'queue',
      'waits',
      'slowdown',
      'messages',
    ]);
  });
});
