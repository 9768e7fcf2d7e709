import { CHECK_FILE, type RunCheckFile } from './check.js';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseCommandArgs } from '../command-args.js';
import { InputError } from '@gridemu/model';
import { MeasuredNetwork } from '@gridemu/runtime';
import { EXIT_OK, UsageError } from '../exit-codes.js';
import { makeOutputFolder } from '../output-folder.js';
import { reportHtml } from '../report/report-html.js';
import type { ReportNetwork } from '../report/live-series.js';
import { runCharts, runFacts, type ReportSummary } from '../report/run-report.js';
import { readJobsCsv } from '../report/run-series.js';
import { seedsCharts } from '../report/seeds-report.js';
import { sweepCharts, sweepFolderSampling } from '../report/sweep-report.js';
import { samplingRow } from '../sweep/seeds-sampled.js';
import { readResultsFile, readResultsSummary } from '../results-folder.js';
import { seedsFolderOrigin } from '../seed-tables.js';

export const REPORT_HELP = `Usage: gridemu report DIR [--out FILE]

Writes one self-contained HTML file (Chart.js inlined; it opens without a network):
  for a results folder of simulate or run (DIR/jobs.csv, DIR/summary.json): utilization and queue
  length over time per site, the wait-time distribution, slowdown by job category, messages over
  time, and the faults on the time axis; for a live run also its speed-up, delays and fidelity
  guard, and from DIR/network.json each process's timer lag over time (its mean against the
  guard's limit, and its 95th percentile) and the one-way delay over time into each process (its
  mean and its 95th percentile);
  for a sweep folder (DIR/sweep-mean.csv): each metric against the variants, with its 90% interval;
  for a folder of simulate or run --seeds N (DIR/seeds.csv, DIR/seeds.json): each metric by seed,
  with the mean over the seeds and its 90% interval, and whether the seeds drew their own jobs.

Options:
  --out FILE   where to write it (default: DIR/report.html)`;

export async function reportCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('report', {
    args: argv,
    allowPositionals: true,
    options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(REPORT_HELP);
    return EXIT_OK;
  }
  if (positionals.length !== 1)
    throw new UsageError(`report takes one results, sweep or seeds folder\n\n${REPORT_HELP}`);
  const dir = resolve(positionals[0]!);
  // A mistyped DIR is refused as input, not made as the report's folder (DIR/report.html).
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new InputError(
      `${dir}: ${existsSync(dir) ? 'is a file, not' : 'not found: give'} a results folder of gridemu simulate or run, a sweep folder or a folder of seeds`,
    );
  const out = resolve(values.out ?? join(dir, 'report.html'));
  makeOutputFolder(dirname(out), '--out');
  const html = buildReport(dir);
  writeFileSync(out, html);
  console.log(`wrote ${out}`);
  return EXIT_OK;
}

/** The report of a results folder, a sweep folder or a folder of simulate or run --seeds, as HTML. */
export function buildReport(dir: string): string {
  const file = (name: string) => join(dir, name);
  const fail = (message: string, err: unknown): never => {
    if (err instanceof InputError) throw err; // it names its file and line already
    throw new InputError(`${message}: ${(err as Error).message}`);
  };
  if (existsSync(file('sweep-mean.csv'))) {
    let sweep: ReturnType<typeof sweepCharts>;
    let sampled: string | undefined;
    try {
      sweep = sweepCharts(readFileSync(file('sweep-mean.csv'), 'utf8'), file('sweep-mean.csv'));
      const sampling = sweepFolderSampling(dir);
      sampled = sampling && samplingRow(sampling);
    } catch (err) {
      return fail(`${file('sweep-mean.csv')}`, err);
    }
    return reportHtml(
      `gridemu sweep${sweep.live ? ' --live' : ''}: ${basename(dir)}`,
      [
        ['folder', dir],
        ['variants', String(sweep.variants)],
        ['seeds per variant', sweep.seeds],
        ...(sampled ? [['what the seeds sampled', sampled] as [string, string]] : []),
      ],
      sweep.charts,
    );
  }
  if (existsSync(file('seeds.json')) && !existsSync(file('summary.json'))) {
    let seeds: ReturnType<typeof seedsCharts>;
    try {
      const what = 'a folder of gridemu simulate or run --seeds';
      seeds = seedsCharts(
        readResultsFile(dir, 'seeds.csv', what),
        file('seeds.csv'),
        readResultsFile(dir, 'seeds.json', what),
        file('seeds.json'),
      );
    } catch (err) {
      return fail(file('seeds.csv'), err);
    }
    return reportHtml(
      `gridemu ${seedsCommand(dir)} --seeds: ${basename(dir)}`,
      [
        ['folder', dir],
        ['seeds', String(seeds.seeds)],
        ...(seeds.sampled ? [['what the seeds sampled', seeds.sampled] as [string, string]] : []),
        ['each run', 'its own report: gridemu report DIR/seed-N'],
      ],
      seeds.charts,
    );
  }
  const what = 'a results folder of gridemu simulate or run, or a sweep folder';
  const jobsCsv = readResultsFile(dir, 'jobs.csv', what);
  let summary = readResultsSummary<ReportSummary>(dir, what);
  // gridemu run's check of the folder, written beside the summary.
  if (existsSync(file(CHECK_FILE))) {
    try {
      summary = { ...summary, check: JSON.parse(readFileSync(file(CHECK_FILE), 'utf8')) as RunCheckFile };
    } catch (err) {
      return fail(`${file(CHECK_FILE)}: not valid JSON`, err);
    }
  }
  // What a live run measured of itself over its time, which gridemu run writes beside the summary.
  let network: ReportNetwork | undefined;
  if (summary.mode === 'run' && existsSync(file('network.json'))) {
    try {
      // Read as simulate --network-from reads it: a field out of shape is named, not drawn wrong.
      network = MeasuredNetwork.parse(readFileSync(file('network.json'), 'utf8'), file('network.json')).file;
    } catch (err) {
      throw new InputError((err as Error).message);
    }
  }
  const jobs = readJobsCsv(jobsCsv, file('jobs.csv'));
  return reportHtml(`gridemu ${summary.mode}: ${summary.name}`, runFacts(summary), runCharts(summary, jobs, network));
}

/** Which command made a folder of seeds, from its first run's summary.json (`mode`): simulate or run. */
function seedsCommand(dir: string): string {
  try {
    return seedsFolderOrigin(dir)?.command ?? 'simulate';
  } catch {
    return 'simulate';
  }
}
