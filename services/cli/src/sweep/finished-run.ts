import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { RunSummary } from '@gridemu/metrics';
import type { ExperimentSpec } from '@gridemu/model';

/**
 * The summary of a run an earlier sweep finished in `dir`, for `sweep --resume`; undefined where
 * the run must be made again. A run is kept only if it is this variant's: its summary records the
 * same experiment, every default, override and seed resolved (a folder left by another spec or
 * another --set is run again), of the same kind (simulated or live), and, live, `gridemu run`'s
 * check of it passed (check.json ok): a live run stopped by Ctrl-C, a timeout or a failure wrote a
 * summary but no passing check.
 */
export function finishedRun(dir: string, spec: ExperimentSpec, live: boolean): RunSummary | undefined {
  const summaryFile = join(dir, 'summary.json');
  if (!existsSync(summaryFile)) return undefined;
  const summary = readJson(summaryFile) as RunSummary | undefined;
  if (summary === undefined || summary.mode !== (live ? 'run' : 'simulate')) return undefined;
  // The summary holds the spec as JSON: compare it with this variant's as JSON would hold it.
  if (!isDeepStrictEqual(summary.spec, JSON.parse(JSON.stringify(spec)))) return undefined;
  if (live && (readJson(join(dir, 'check.json')) as { ok?: unknown } | undefined)?.ok !== true) return undefined;
  return summary;
}

/** A file's JSON, or undefined where it is missing or cut short (a run killed while writing it). */
function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}
