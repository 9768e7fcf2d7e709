import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCommandArgs } from '../command-args.js';
import { checkRun, executedJobsFromCsv, type InvariantResult, type RunCheckInput } from '@gridemu/metrics';
import { InputError } from '@gridemu/model';
import { ReplayedLineFilter } from '@gridemu/runtime/live';
import { EXIT_FAILED, EXIT_OK, UsageError } from '../exit-codes.js';
import {
  abortedRunOf,
  readResultsFile,
  readResultsSummary,
  runsOfFolder,
  type ResultsSummary,
} from '../results-folder.js';

export const CHECK_HELP = `Usage: gridemu check DIR

Checks a results folder (of simulate or run) against the invariants every run must keep, from
DIR/jobs.csv, DIR/summary.json and, for a live run, the processes' logs in DIR/logs:
  one final row per submitted job; no job ran twice or overlapped itself; no site over capacity
  and no processor held twice; no job lost.
Prints one line per invariant and exits 1 if any is broken. A live run that was aborted is said
to be so first: the jobs it had not finished break "no job lost" without the scheme losing them.

DIR may also be a folder of runs: the seeds of \`simulate --seeds N\` or \`run --seeds N\`, or the
runs of \`sweep\`. Each run in it is checked (those a --summaries-only sweep kept no jobs.csv for
are named and skipped), and the exit code is 1 if any run breaks an invariant.`;

export async function checkCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('check', {
    args: argv,
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(CHECK_HELP);
    return EXIT_OK;
  }
  if (positionals.length !== 1) throw new UsageError(`check takes one results folder\n\n${CHECK_HELP}`);
  const dir = positionals[0]!;
  const runs = runsOfFolder(dir);
  if (!runs) return printChecks(checkResultsFolder(dir), '', abortedRunOf(dir)) ? EXIT_OK : EXIT_FAILED;
  let broken = 0;
  let skipped = 0;
  for (const run of runs) {
    const folder = join(dir, run);
    if (!existsSync(join(folder, 'jobs.csv'))) {
      console.log(`${run}: skipped, no jobs.csv (a --summaries-only sweep keeps none)`);
      skipped++;
      continue;
    }
    console.log(`${run}:`);
    if (!printChecks(checkResultsFolder(folder), '  ', abortedRunOf(folder))) broken++;
  }
  const checked = runs.length - skipped;
  console.log(
    `${checked} of ${runs.length} runs checked: ${broken === 0 ? 'every invariant holds' : `${broken} broken`}` +
      (skipped > 0 ? `; ${skipped} skipped` : ''),
  );
  if (checked === 0) throw new InputError(`${dir}: none of its runs has a jobs.csv to check`);
  return broken === 0 ? EXIT_OK : EXIT_FAILED;
}

/**
 * Prints each invariant's line; true when all hold. A run that was stopped before its end is said
 * to be so first: the jobs it had not finished break "no job lost" without the scheme having lost
 * them (unless the stop was itself a stall: jobs that never came back).
 */
function printChecks(results: readonly InvariantResult[], indent: string, aborted: string | undefined): boolean {
  if (aborted !== undefined)
    console.log(
      `${indent}note    the run was aborted (${aborted}): the jobs it had not finished when it stopped are counted as lost below`,
    );
  for (const r of results) console.log(`${indent}${r.ok ? 'ok    ' : 'BROKEN'}  ${r.name}: ${r.detail}`);
  return results.every((r) => r.ok);
}

/** Where `gridemu run` writes the check of its own results folder, beside summary.json. */
export const CHECK_FILE = 'check.json';

/** DIR/check.json: what `gridemu run` verified after the run, apart from what the run measured. */
export interface RunCheckFile {
  readonly ok: boolean;
  readonly invariants: readonly InvariantResult[];
  /** The run's scrape configuration and, with --prometheus, what Prometheus counted. */
  readonly prometheus: { readonly config: string; readonly url?: string; readonly completed_jobs?: number };
}

/** The invariants of the run in results folder `dir` (gridemu run checks its own folder this way). */
export function checkResultsFolder(dir: string): InvariantResult[] {
  const jobsCsv = readResultsFile(dir, 'jobs.csv');
  const summary = readResultsSummary<ResultsSummary & { workload?: unknown }>(dir);
  const submitted = summary.jobs.submitted;
  const sites = summary.spec.sites;
  return checkRun({
    jobsCsv,
    jobsCsvFile: join(dir, 'jobs.csv'),
    submitted,
    ...workloadsOf(summary.workload),
    cpus: new Map(sites.map((s) => [s.id, s.cpus])),
    ...logRuns(join(dir, 'logs'), jobsCsv, join(dir, 'jobs.csv')),
  });
}

/** summary.json's workload sources, each name and its jobs; none when the summary has none to read. */
function workloadsOf(workload: unknown): Pick<RunCheckInput, 'workloads'> {
  if (!Array.isArray(workload)) return {};
  const sources = (workload as unknown[]).filter(
    (w): w is { name: string; jobs: number } =>
      typeof w === 'object' &&
      w !== null &&
      typeof (w as { name?: unknown }).name === 'string' &&
      typeof (w as { jobs?: unknown }).jobs === 'number',
  );
  return sources.length === workload.length ? { workloads: sources } : {};
}

/**
 * The runs a live run's logs record: every `job.started` event, and every `job.lost` event of a
 * process restarted after a crash. A lost run is known from its `job.lost` event alone
 * (site, start and loss), since a killed process may not have written its last lines (a restart
 * writes again those of turns it replays that its predecessor may not have written, marked
 * `replayed`: one that repeats a line there already is read once, ReplayedLineFilter); an
 * optimistic run lost before its verdict (`provisional`) was never a start and is left out. The
 * other runs are the final ones jobs.csv reports. Nothing for a simulation (it has no logs).
 */
function logRuns(logs: string, jobsCsv: string, jobsCsvFile: string): Pick<RunCheckInput, 'logStarts' | 'runs'> {
  if (!existsSync(logs)) return {};
  const starts: { jobId: string; site: string; time_s: number; attempt?: number }[] = [];
  const lost: { jobId: string; site: string; start_s: number; end_s: number }[] = [];
  for (const file of readdirSync(logs).filter((f) => f.endsWith('.log'))) {
    const once = new ReplayedLineFilter();
    readFileSync(join(logs, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const started = line.includes('"job.started"');
        if (!started && !line.includes('"job.lost"')) return;
        let e: {
          jobId?: unknown;
          site?: unknown;
          time_s?: unknown;
          started_s?: unknown;
          provisional?: unknown;
          attempt?: unknown;
          replayed?: unknown;
        };
        try {
          e = JSON.parse(line) as typeof e;
        } catch {
          throw new InputError(
            `${join(logs, file)}:${i + 1}: a ${started ? 'job.started' : 'job.lost'} line that is not JSON`,
          );
        }
        if (typeof e.jobId !== 'string' || typeof e.site !== 'string' || once.repeats(e)) return;
        if (started)
          starts.push({
            jobId: e.jobId,
            site: e.site,
            time_s: Number(e.time_s),
            ...(typeof e.attempt === 'number' ? { attempt: e.attempt } : {}),
          });
        else if (e.provisional !== true)
          lost.push({ jobId: e.jobId, site: e.site, start_s: Number(e.started_s), end_s: Number(e.time_s) });
      });
  }
  if (lost.length === 0) return { logStarts: starts };
  const key = (jobId: string, site: string, start_s: number) => `${jobId}\u0000${site}\u0000${start_s}`;
  const lostStarts = new Set(lost.map((l) => key(l.jobId, l.site, l.start_s)));
  const finalRuns = executedJobsFromCsv(jobsCsv, jobsCsvFile).map((j) => ({
    jobId: j.jobId,
    site: j.site,
    start_s: j.start_s,
    end_s: j.finish_s,
  }));
  return {
    logStarts: starts.filter((s) => !lostStarts.has(key(s.jobId, s.site, s.time_s))),
    runs: [...lost, ...finalRuns],
  };
}
