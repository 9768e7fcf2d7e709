import { readCsvTable, type MeanWithInterval } from '@gridemu/metrics';
import { InputError } from '@gridemu/model';
import type { ReportChart } from './report-html.js';
import type { SeedSpread } from '../seed-spread.js';
import { DRAWN_METRICS } from './sweep-report.js';

/**
 * The charts of a folder of `simulate --seeds N` or `run --seeds N`: for each metric a sweep
 * report draws, a bar per seed from seeds.csv and, across them, the mean and its interval as
 * seeds.json gives them (the numbers the command printed; nothing is recomputed here).
 */
export function seedsCharts(
  seedsCsv: string,
  csvFile: string,
  seedsJson: string,
  jsonFile: string,
): { charts: ReportChart[]; seeds: number; sampled?: string } {
  const table = readCsvTable(seedsCsv, csvFile);
  const col = (name: string) => table.header.indexOf(name);
  if (col('seed') < 0)
    throw new InputError(
      `${csvFile}:1: no column "seed" in the header (is this the seeds.csv of simulate or run --seeds?)`,
    );
  let means: Record<string, MeanWithInterval | undefined>;
  let spread: Partial<SeedSpread>;
  try {
    const parsed = JSON.parse(seedsJson) as {
      metrics?: Record<string, MeanWithInterval | undefined>;
    } & Partial<SeedSpread>;
    means = parsed.metrics ?? {};
    spread = parsed;
  } catch (err) {
    throw new InputError(`${jsonFile}: not valid JSON (${(err as Error).message})`, { cause: err });
  }
  const labels = table.rows.map((r) => `seed ${r[col('seed')]}`);
  const charts = DRAWN_METRICS.filter(([m]) => col(m) >= 0).map(([metric, title]): ReportChart => {
    // An empty cell is a metric the seed's run does not define (a mean over no jobs): no bar.
    const values = table.rows.map((r, i) => (r[col(metric)] === '' ? null : table.number(i, col(metric))));
    const m = means[metric];
    const across = (v: number | undefined) => labels.map(() => v ?? null);
    const line = (label: string, data: (number | null)[], color: string, dash: number[]) => ({
      type: 'line',
      label,
      data,
      borderColor: color,
      borderDash: dash,
      pointRadius: 0,
      fill: false,
      order: 0,
    });
    return {
      id: `seeds-${metric}`,
      title: `${title} by seed`,
      caption: !m
        ? "Each seed's run (seeds.json has no mean of this metric)."
        : m.n < 2
          ? `The one seed's run (${fourDigits(m.mean)}): one seed gives no interval.`
          : `Each seed's run; the line is the mean over ${m.n} seeds (${fourDigits(m.mean)}), the dashed lines its ${m.confidence * 100}% confidence interval (± ${fourDigits(m.half_width)}, Student's t), as seeds.json gives them.`,
      config: {
        type: 'bar',
        data: {
          labels,
          datasets: [
            { label: 'run', data: values, backgroundColor: '#4a7ab5', order: 1 },
            ...(m && m.n >= 2
              ? [
                  line('mean', across(m.mean), '#d9822b', []),
                  // Two legend entries: one named "interval" twice read as a mistake.
                  line(`${m.confidence * 100}% interval, low`, across(m.mean - m.half_width), '#d9822b', [4, 4]),
                  line(`${m.confidence * 100}% interval, high`, across(m.mean + m.half_width), '#d9822b', [4, 4]),
                ]
              : []),
          ],
        },
        options: { scales: { y: { beginAtZero: true, title: { display: true, text: metric } } } },
      },
    };
  });
  if (charts.length === 0)
    throw new InputError(
      `${csvFile}: none of the metrics a seeds report draws (${DRAWN_METRICS.map(([m]) => m).join(', ')}) is in it`,
    );
  const sampled = whatSeedsSampled(spread);
  return { charts, seeds: table.rows.length, ...(sampled ? { sampled } : {}) };
}

/** What the intervals are over, as seeds.json records it (a folder written before it did says nothing). */
function whatSeedsSampled(spread: Partial<SeedSpread>): string | undefined {
  if (spread.identical_runs === true)
    return 'one run: every seed made the same run (every metric equal), nothing drew from the seed, so there is no interval';
  if (spread.same_workload_every_seed === true)
    return "the same jobs in every seed: the intervals are over link delays and loss, failures and the schemes' own draws, not over workloads";
  if (spread.same_workload_every_seed === false) return 'a workload of its own in each seed';
  return undefined;
}

/** Four significant digits, without the exponent toPrecision gives from 10,000 up. */
function fourDigits(v: number): string {
  return String(Number(v.toPrecision(4)));
}
