import { describe, expect, it } from 'vitest';
import { sweepCharts } from '../src/report/sweep-report.js';

describe("a sweep's report charts", () => {
  const head = 'variant,meta.k,seeds,mean_wait_s,mean_wait_s_ci90,mean_wait_s_runs';

  it('draws no bar for a variant whose runs define no mean, and the others as they are', () => {
    const csv = `${head}\nmeta.k=1,1,2,120,30,2\nmeta.k=2,2,2,,,0\n`;
    const { charts, variants } = sweepCharts(csv, 'sweep-mean.csv');
    expect(variants).toBe(2);
    const data = (charts[0]!.config as { data: { datasets: { data: unknown[] }[] } }).data.datasets;
    expect(data[0]!.data).toEqual([120, null]);
    expect(data[1]!.data).toEqual([[90, 150], null]);
  });

  it('still refuses a cell that is not a number, naming its line and column', () => {
    expect(() => sweepCharts(`${head}\nmeta.k=1,1,2,soon,30,2\n`, 'sweep-mean.csv')).toThrow(
      'sweep-mean.csv:2: mean_wait_s "soon" is not a number',
    );
  });

  it("refuses a file cut short, or not a sweep's, naming the file and line", () => {
    expect(() => sweepCharts(`${head}\nmeta.k=1,1,2,120,30,2\nmeta.k=2,2,2\n`, 'sweep-mean.csv')).toThrow(
      'sweep-mean.csv:3: 3 fields, the header has 6',
    );
    expect(() => sweepCharts('a,b\n1,2\n', 'sweep-mean.csv')).toThrow('sweep-mean.csv:1: no column "variant"');
  });

  it("draws a live sweep's felt delay and the guard's warnings, and knows it for live by its columns", () => {
    const live =
      'variant,live.speedup,seeds,mean_wait_s,mean_wait_s_ci90,live_latency_mean_ms,live_latency_mean_ms_ci90,' +
      'live_fidelity_warnings,live_fidelity_warnings_ci90,live_run_wall_s,live_run_wall_s_ci90\n' +
      'live.speedup=1000,1000,2,120,30,2.5,0.5,0,0,40,2\nlive.speedup=50000,50000,2,150,20,9,1,3,1,3,0.5\n';
    const report = sweepCharts(live, 'sweep-mean.csv');
    expect(report.live).toBe(true);
    expect(report.charts.map((c) => c.id)).toEqual([
      'sweep-mean_wait_s',
      'sweep-live_latency_mean_ms',
      'sweep-live_fidelity_warnings',
    ]);
    const data = (report.charts[1]!.config as { data: { datasets: { data: unknown[] }[] } }).data.datasets;
    expect(data[0]!.data).toEqual([2.5, 9]);
    // A simulated sweep has none of these columns: neither the charts nor the title say live.
    const simulated = sweepCharts(`${head}\nmeta.k=1,1,2,120,30,2\n`, 'sweep-mean.csv');
    expect(simulated.live).toBe(false);
    expect(simulated.charts.map((c) => c.id)).toEqual(['sweep-mean_wait_s']);
  });
});
