import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { checkRun, type InvariantResult } from '@gridemu/metrics';
import { InputError } from '@gridemu/model';
import { EXIT_FAILED, EXIT_OK, UsageError } from '../exit-codes.js';

export const CHECK_HELP = `Usage: gridemu check DIR

Checks a results folder (of simulate or run) against the invariants every run must keep, from
DIR/jobs.csv, DIR/summary.json and, for a live run, the processes' logs in DIR/logs:
  one final row per submitted job; no job ran twice or overlapped itself; no site over capacity
  and no processor held twice; no job lost.
Prints one line per invariant and exits 1 if any is broken.`;

export async function checkCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    console.log(CHECK_HELP);
    return EXIT_OK;
  }
  if (positionals.length !== 1) throw new UsageError(`check takes one results folder\n\n${CHECK_HELP}`);
  const results = checkResultsFolder(positionals[0]!);
  for (const r of results) console.log(`${r.ok ? 'ok    ' : 'BROKEN'}  ${r.name}: ${r.detail}`);
  return results.every((r) => r.ok) ? EXIT_OK : EXIT_FAILED;
}

/** The invariants of the run in results folder `dir` (gridemu run checks its own folder this way). */
export function checkResultsFolder(dir: string): InvariantResult[] {
  const read = (name: string) => {
    const file = join(dir, name);
    if (!existsSync(file)) throw new InputError(`${file}: not found (is ${dir} a results folder of gridemu simulate or run?)`);
    return readFileSync(file, 'utf8');
  };
  const jobsCsv = read('jobs.csv');
  let summary: { jobs?: { submitted?: number }; spec?: { sites?: { id: string; cpus: number }[] } };
  try {
    summary = JSON.parse(read('summary.json')) as typeof summary;
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`${join(dir, 'summary.json')}: not valid JSON (${(err as Error).message})`);
  }
  const submitted = summary.jobs?.submitted;
  const sites = summary.spec?.sites;
  if (typeof submitted !== 'number' || !Array.isArray(sites)) throw new InputError(`${join(dir, 'summary.json')}: no jobs.submitted or spec.sites`);
  return checkRun({ jobsCsv, submitted, cpus: new Map(sites.map((s) => [s.id, s.cpus])), ...logStarts(join(dir, 'logs')) });
}

/** The `job.started` events of a live run's logs; nothing for a simulation (it has no logs). */
function logStarts(logs: string): { logStarts?: { jobId: string; site: string }[] } {
  if (!existsSync(logs)) return {};
  const starts: { jobId: string; site: string }[] = [];
  for (const file of readdirSync(logs).filter((f) => f.endsWith('.log'))) {
    readFileSync(join(logs, file), 'utf8').split('\n').forEach((line, i) => {
      if (!line.includes('"job.started"')) return;
      try {
        const e = JSON.parse(line) as { jobId?: unknown; site?: unknown };
        if (typeof e.jobId === 'string' && typeof e.site === 'string') starts.push({ jobId: e.jobId, site: e.site });
      } catch {
        throw new InputError(`${join(logs, file)}:${i + 1}: a job.started line that is not JSON`);
      }
    });
  }
  return { logStarts: starts };
}
