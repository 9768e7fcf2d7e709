import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCsvTable } from '@gridemu/metrics';
import { InputError } from '@gridemu/model';
import { jobsDigestOf } from '../results-folder.js';
import { holdsLiveRuns } from '../sweep/metrics-table.js';
import { sweepSampling, type SweepSampling } from '../sweep/seeds-sampled.js';
import { folderName } from '../sweep/variants.js';
import type { ReportChart } from './report-html.js';

/** The summary metrics a sweep's report (against its variants) and a seeds report (by seed) draw, when the folder has them. */
export const DRAWN_METRICS: readonly [string, string][] = [
  ['mean_wait_s', 'Mean wait (s)'],
  ['mean_bounded_slowdown', 'Mean bounded slowdown'],
  ['mean_slowdown', 'Mean slowdown'],
  ['mean_turnaround_s', 'Mean turnaround (s)'],
  ['utilization', 'Utilization'],
  ['messages_per_job', 'Messages per job'],
  // Live runs only: what the emulation itself measured (docs/fidelity.md).
  ['live_latency_mean_ms', 'Felt one-way delay, mean (wall ms)'],
  ['live_fidelity_warnings', "Fidelity guard's warnings"],
];

/**
 * What each variant's seeds sampled (sweepSampling), from the folder's sweep.csv and its runs'
 * summaries; undefined without a sweep.csv (a folder from before it was written alongside).
 */
export function sweepFolderSampling(dir: string): SweepSampling | undefined {
  const file = join(dir, 'sweep.csv');
  if (!existsSync(file)) return undefined;
  const table = readCsvTable(readFileSync(file, 'utf8'), file);
  const variantAt = table.column('variant');
  const seedAt = table.column('seed');
  const byVariant = new Map<string, { metrics: Record<string, number>[]; jobs: (string | undefined)[] }>();
  table.rows.forEach((r, i) => {
    const name = r[variantAt]!;
    const group = byVariant.get(name) ?? { metrics: [], jobs: [] };
    byVariant.set(name, group);
    // The columns after the seed are the run's metrics; an empty one it does not define.
    const metrics: Record<string, number> = {};
    table.header.forEach((column, c) => {
      if (c > seedAt && r[c] !== '') metrics[column] = table.number(i, c);
    });
    group.metrics.push(metrics);
    group.jobs.push(jobsDigestOf(join(dir, folderName({ name, sets: [], seed: table.number(i, seedAt) }))));
  });
  return sweepSampling(
    [...byVariant].map(([name, g]) => ({ name, ...g })),
    holdsLiveRuns(table.header),
  );
}

/** A sweep folder's sweep-mean.csv: each variant's mean of every metric over its seeds, and the 90% interval's half-width. */
export function sweepCharts(
  meanCsv: string,
  file: string,
): { charts: ReportChart[]; variants: number; seeds: string; live: boolean } {
  const table = readCsvTable(meanCsv, file);
  const { header, rows } = table;
  const col = (name: string) => header.indexOf(name);
  if (col('variant') < 0)
    throw new InputError(`${file}:1: no column "variant" in the header (is this gridemu sweep's sweep-mean.csv?)`);
  const labels = rows.map((r) => r[col('variant')]!);
  // An empty cell is a metric none of the variant's runs defines (a mean over no jobs): no bar.
  const num = (r: readonly string[], c: number, row: number): number | null =>
    r[c] === '' ? null : table.number(row, c);
  const charts = DRAWN_METRICS.filter(([m]) => col(m) >= 0).map(([metric, title]) => {
    const means = rows.map((r, i) => num(r, col(metric), i));
    const half =
      col(`${metric}_ci90`) >= 0 ? rows.map((r, i) => num(r, col(`${metric}_ci90`), i) ?? 0) : means.map(() => 0);
    return {
      id: `sweep-${metric}`,
      title: `${title} against variant`,
      caption: "The mean over seeds, and its 90% confidence interval (Student's t).",
      config: {
        type: 'bar',
        data: {
          labels,
          datasets: [
            { label: 'mean', data: means, backgroundColor: '#4a7ab5', order: 1 },
            // A thin floating bar over the mean's bar (not beside it): the interval.
            {
              label: '90% interval',
              data: means.map((m, i) => (m === null ? null : [m - half[i]!, m + half[i]!])),
              backgroundColor: 'rgba(217, 130, 43, 0.8)',
              barPercentage: 0.12,
              grouped: false,
              order: 0,
            },
          ],
        },
        options: { scales: { y: { beginAtZero: true, title: { display: true, text: metric } } } },
      },
    };
  });
  if (charts.length === 0)
    throw new InputError(
      `${file}: none of the metrics a sweep report draws (${DRAWN_METRICS.map(([m]) => m).join(', ')}) is in it`,
    );
  return {
    charts,
    variants: rows.length,
    seeds: [...new Set(rows.map((r) => r[col('seeds')] ?? ''))].join(', '),
    live: holdsLiveRuns(header),
  };
}
