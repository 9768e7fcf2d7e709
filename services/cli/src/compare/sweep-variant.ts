import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCsvTable } from '@gridemu/metrics';
import { closestName, didYouMean } from '@gridemu/model';
import { UsageError } from '../exit-codes.js';
import { jobsDigestOf, readResultsSummary, type ResultsSummary } from '../results-folder.js';
import { holdsLiveRuns } from '../sweep/metrics-table.js';
import { folderName } from '../sweep/variants.js';
import type { SeedsFolder } from './compare-seeds.js';

/** A folder `gridemu sweep` wrote: its sweep.csv, a row per run. */
export function isSweepFolder(dir: string): boolean {
  return existsSync(join(dir, 'sweep.csv')) && !existsSync(join(dir, 'summary.json'));
}

/**
 * One variant of a sweep as a folder of seeds: its rows of sweep.csv, each metric by seed (the
 * columns after `seed`; the varied values before it are not metrics). Every variant of a sweep
 * ran the same seeds, so two of them compare paired by seed. A variant the sweep does not have
 * is a usage error naming the closest, and the variants there are.
 */
export function readSweepVariant(dir: string, variant: string): SeedsFolder {
  const file = join(dir, 'sweep.csv');
  const table = readCsvTable(readFileSync(file, 'utf8'), file);
  const variantAt = table.column('variant');
  const seedAt = table.column('seed');
  const names = [...new Set(table.rows.map((r) => r[variantAt]!))];
  if (!names.includes(variant))
    throw new UsageError(
      `${dir} has no variant "${variant}" (its variants: ${names.join('; ')})${didYouMean(closestName(variant, names))}`,
    );
  const rows = table.rows.map((r, i) => ({ r, i })).filter(({ r }) => r[variantAt] === variant);
  const seeds = rows.map(({ i }) => table.number(i, seedAt));
  const columns = new Map<string, (number | undefined)[]>();
  table.header.forEach((name, c) => {
    if (c <= seedAt) return;
    columns.set(
      name,
      rows.map(({ r, i }) => (r[c] === '' ? undefined : table.number(i, c))),
    );
  });
  // The scheme names the metrics of its own that are compared too: a run's summary says which it is.
  const runs = seeds.map((seed) => join(dir, folderName({ name: variant, sets: [], seed })));
  const summary = existsSync(join(runs[0]!, 'summary.json'))
    ? readResultsSummary<ResultsSummary & { scheme?: string }>(runs[0]!)
    : undefined;
  return {
    dir,
    variant,
    command: holdsLiveRuns(table.header) ? 'run' : 'simulate',
    scheme: summary?.scheme ?? '',
    seeds,
    columns,
    jobs: runs.map(jobsDigestOf),
  };
}
