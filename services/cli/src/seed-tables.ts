import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatNumber, meanWithInterval, roundNumber, type MeanWithInterval } from '@gridemu/metrics';
import { schemeMetrics } from '@gridemu/schemes';
import { clearRunOutputs, readResultsSummary, runsOfFolder, type ResultsSummary } from './results-folder.js';
import { identicalRuns, seedSpreadNote, type SeedSpread } from './seed-spread.js';

/** A folder of seeds: `simulate --seeds N` and `run --seeds N` write each seed's run into DIR/seed-<s>/. */
export const seedFolder = (out: string, seed: number): string => join(out, `seed-${seed}`);

/**
 * Readies DIR for a new set of seeds: an earlier single run's outputs go (a summary.json there would
 * make DIR read as one run), and so do an earlier set's tables and seed folders, which `gridemu
 * check`, `report` and `compare` would otherwise read as this set's (a set stopped by a run that
 * did not pass writes no tables). Only folders named seed-<n> that hold a summary.json are taken
 * for earlier seeds.
 */
export function clearSeedsFolder(out: string): void {
  clearRunOutputs(out);
  if (!existsSync(out)) return;
  for (const table of ['seeds.csv', 'seeds.json']) rmSync(join(out, table), { force: true });
  for (const e of readdirSync(out, { withFileTypes: true }))
    if (e.isDirectory() && /^seed-\d+$/.test(e.name) && existsSync(join(out, e.name, 'summary.json')))
      rmSync(join(out, e.name), { recursive: true, force: true });
}

/**
 * Which command made a folder of seeds, and its scheme, from its first run's summary.json (`mode`
 * and `scheme`); undefined for a folder with no run in it. A summary that cannot be read is the
 * error readResultsSummary gives.
 */
export function seedsFolderOrigin(dir: string): { command: 'simulate' | 'run'; scheme: string } | undefined {
  const first = runsOfFolder(dir)?.[0];
  if (first === undefined) return undefined;
  const { mode, scheme } = readResultsSummary<ResultsSummary & { mode?: string; scheme?: string }>(join(dir, first));
  return { command: mode === 'run' ? 'run' : 'simulate', scheme: scheme ?? '' };
}

export interface SeedTables {
  readonly csv: string;
  readonly json: string;
  readonly metrics: Record<string, MeanWithInterval>;
  readonly seeds: number;
  readonly spread: SeedSpread;
}

/**
 * DIR/seeds.csv, a row per seed, and DIR/seeds.json, each metric's mean with its 90% interval and
 * what the seeds sampled (`sameWorkload`: whether every seed submitted the same jobs).
 */
export function writeSeedTables(
  out: string,
  rows: readonly Record<string, number>[],
  sameWorkload: boolean,
): SeedTables {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const csv = join(out, 'seeds.csv');
  writeFileSync(
    csv,
    [
      columns.join(','),
      ...rows.map((r) => columns.map((c) => (r[c] === undefined ? '' : formatNumber(r[c]!))).join(',')),
    ].join('\n') + '\n',
  );
  const metrics: Record<string, MeanWithInterval> = {};
  for (const c of columns) {
    if (c === 'seed') continue;
    const xs = rows.map((r) => r[c]).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    if (xs.length === rows.length) metrics[c] = meanWithInterval(xs, 0.9);
  }
  const spread: SeedSpread = { same_workload_every_seed: sameWorkload, identical_runs: identicalRuns(rows) };
  const json = join(out, 'seeds.json');
  writeFileSync(
    json,
    JSON.stringify({ seeds: rows.map((r) => r['seed']), confidence: 0.9, ...spread, metrics }, null, 2) + '\n',
  );
  return { csv, json, metrics, seeds: rows.length, spread };
}

/** The main metrics' means over the seeds, each with its 90% interval, then the files written. */
export function renderSeedMeans(
  tables: SeedTables,
  scheme: string,
  { extra = [], replay = false }: { readonly extra?: readonly string[]; readonly replay?: boolean } = {},
): string {
  const shown = [
    'mean_wait_s',
    'mean_bounded_slowdown',
    'utilization',
    ...schemeMetrics(scheme).map((m) => m.column),
    ...extra,
  ];
  let text = '';
  for (const m of shown) {
    const ci = tables.metrics[m];
    if (ci)
      text += `${m.padEnd(24)} ${formatNumber(roundNumber(ci.mean, 4))} ± ${formatNumber(roundNumber(ci.half_width, 4))} (90%, n=${ci.n})\n`;
  }
  const note = seedSpreadNote(tables.spread, tables.seeds, replay);
  return `${text}${note ? `${note}\n` : ''}\nwrote ${tables.csv}\n      ${tables.json}\n`;
}
