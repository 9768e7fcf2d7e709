import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '@gridemu/model';

/**
 * What a run, live or simulated, writes into its results folder. A new run into a results folder
 * clears them first: an earlier run's files (a live run's logs, which `gridemu check` reads, or a
 * jobs.csv beside a --summary-only summary) must not read as the new run's.
 */
export const RUN_OUTPUTS = [
  'logs',
  'jobs.csv',
  'summary.json',
  'network.json',
  'check.json',
  'experiment.json',
  'protocol-trace.csv',
  'nats',
  'journal',
  'prometheus',
] as const;

/** Files only a run writes, first of all: a folder without any of them is not a results folder. */
const RESULTS_MARKS = ['experiment.json', 'summary.json', 'jobs.csv'] as const;

/**
 * Clears an earlier run's outputs from `dir`, if it is a results folder. A folder holding none of
 * the files a run writes first (`--out .`, say) is left as it is: its `logs` or `journal` are
 * someone else's.
 */
export function clearRunOutputs(dir: string): void {
  if (!RESULTS_MARKS.some((name) => existsSync(join(dir, name)))) return;
  for (const old of RUN_OUTPUTS) rmSync(join(dir, old), { recursive: true, force: true });
}

/** The part of summary.json every reader of a results folder relies on. */
export interface ResultsSummary {
  readonly jobs: { readonly submitted: number };
  readonly spec: { readonly sites: readonly { readonly id: string; readonly cpus: number }[] };
}

/**
 * A file of results folder `dir`, read; one that is not there is bad input asking whether `dir` is
 * `what` (a results folder of simulate or run, or for the report a sweep folder too).
 */
export function readResultsFile(
  dir: string,
  name: string,
  what = 'a results folder of gridemu simulate or run',
): string {
  const file = join(dir, name);
  if (!existsSync(file)) {
    const runs = runsOfFolder(dir);
    if (runs !== undefined && runs.length > 0)
      throw new InputError(
        `${file}: not found: ${dir} is a folder of ${runs.length} runs (simulate or run --seeds, or sweep); give one of them, e.g. ${join(dir, runs[0]!)}`,
      );
    throw new InputError(`${file}: not found (is ${dir} ${what}?)`);
  }
  return readFileSync(file, 'utf8');
}

/**
 * The runs of a folder of runs (simulate and run --seeds write seeds.json beside a folder per seed, sweep
 * writes sweep.csv beside a folder per run): the sub-folders holding a summary.json, in name
 * order. Undefined for a folder that is not one.
 */
export function runsOfFolder(dir: string): string[] | undefined {
  if (existsSync(join(dir, 'summary.json'))) return undefined;
  if (!existsSync(join(dir, 'seeds.json')) && !existsSync(join(dir, 'sweep.csv'))) return undefined;
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'summary.json')))
    .map((e) => e.name)
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

/**
 * DIR/summary.json, as check, report and compare read it: JSON holding at least `jobs.submitted`
 * and `spec.sites`, or bad input naming the file.
 */
export function readResultsSummary<T extends ResultsSummary = ResultsSummary>(dir: string, what?: string): T {
  const text = readResultsFile(dir, 'summary.json', what);
  const file = join(dir, 'summary.json');
  let summary: unknown;
  try {
    summary = JSON.parse(text);
  } catch (err) {
    throw new InputError(`${file}: not valid JSON (${(err as Error).message})`, { cause: err });
  }
  const s = summary as Partial<ResultsSummary> | null;
  if (typeof s !== 'object' || s === null || typeof s.jobs?.submitted !== 'number' || !Array.isArray(s.spec?.sites))
    throw new InputError(`${file}: no jobs.submitted or spec.sites (is it gridemu's summary.json?)`);
  return summary as T;
}

/** The jobs_sha256 of the run in `dir`, if its summary.json is there and has one. */
export function jobsDigestOf(dir: string): string | undefined {
  if (!existsSync(join(dir, 'summary.json'))) return undefined;
  return readResultsSummary<ResultsSummary & { jobs_sha256?: string }>(dir).jobs_sha256;
}

/**
 * Why the live run in `dir` was stopped before its end (summary.json's live.aborted); undefined
 * for a run that ended, a simulation, or a folder without a readable summary.
 */
export function abortedRunOf(dir: string): string | undefined {
  try {
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { live?: { aborted?: unknown } };
    return typeof summary.live?.aborted === 'string' ? summary.live.aborted : undefined;
  } catch {
    return undefined;
  }
}
