import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeCode } from '@gridemu/metrics';

/**
 * Stands in a report's text for madeBy(dir) until the report is written (withMadeBy): a report
 * composes its header before some of its sweeps have run.
 */
export const MADE_BY = '\u0000made-by\u0000';

/** The report's text with MADE_BY replaced by what made the runs under `dir`, read now, after every run. */
export function withMadeBy(text, dir) {
  return text.replaceAll(MADE_BY, madeBy(dir));
}

/**
 * Which gridemu made the runs under `dir`, from every summary.json's `provenance` (written since
 * 2026-12-06): a report's numbers can be traced to the commit that made them, and a report
 * rewritten with --reuse over runs of several commits says so rather than naming one.
 */
export function madeBy(dir) {
  const makers = new Map();
  let unknown = 0;
  for (const file of summaries(dir)) {
    let provenance;
    try {
      provenance = JSON.parse(readFileSync(file, 'utf8')).provenance;
    } catch {
      continue; // not a summary this report reads; the report's own reading says so if it matters
    }
    if (provenance === undefined) {
      unknown++;
      continue;
    }
    const key = describeCode(provenance);
    makers.set(key, (makers.get(key) ?? 0) + 1);
  }
  const known = [...makers].sort((a, b) => b[1] - a[1]);
  const runs = (n) => `${n} run${n === 1 ? '' : 's'}`;
  const parts = known.length === 1 && unknown === 0 ? [known[0][0]] : known.map(([k, n]) => `${k} (${runs(n)})`);
  if (unknown > 0) parts.push(`${runs(unknown)} from before gridemu recorded its commit`);
  return parts.length === 0 ? 'no run recorded what made it' : parts.join('; ');
}

function* summaries(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* summaries(path);
    else if (entry.name === 'summary.json') yield path;
  }
}
