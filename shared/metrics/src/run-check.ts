import { readCsvTable } from './csv-table.js';
import { checkSchedule, describeScheduleCheck, executedJobs } from './schedule-check.js';

/** One invariant of a finished run, and whether it held (Jepsen-style: a history checked after the fact). */
export interface InvariantResult {
  readonly name: string;
  readonly ok: boolean;
  /** What was checked and, when broken, the first examples. */
  readonly detail: string;
}

export interface RunCheckInput {
  /** jobs.csv as written. */
  readonly jobsCsv: string;
  /** Its path, named when it cannot be read (default `jobs.csv`). */
  readonly jobsCsvFile?: string;
  /** summary.json's `jobs.submitted`. */
  readonly submitted: number;
  /**
   * summary.json's `workload`: each source's name (jobs.csv's `workload_name`) and its jobs, so
   * that a row too few or too many names the source it belongs to.
   */
  readonly workloads?: readonly { readonly name: string; readonly jobs: number }[];
  /** Each site's CPUs. */
  readonly cpus: ReadonlyMap<string, number>;
  /**
   * Every `job.started` event in the processes' logs (live runs): job id and site, and the attempt
   * where a scheme retries a job that failed (GRUBER, paper 002): a retry is a new run, so each
   * attempt may start once. Absent for a simulation.
   */
  readonly logStarts?: readonly { readonly jobId: string; readonly site: string; readonly attempt?: number }[];
  /** Every run of every job, those lost in crashes included, when known (a simulation's records). */
  readonly runs?: readonly {
    readonly jobId: string;
    readonly site: string;
    readonly start_s: number;
    readonly end_s: number;
  }[];
}

const MAX_EXAMPLES = 5;
const examples = (xs: readonly string[]) =>
  xs.length > MAX_EXAMPLES ? `${xs.slice(0, MAX_EXAMPLES).join('; ')}; ...` : xs.join('; ');

const rowsCount = (n: number) => `${n} row${n === 1 ? '' : 's'}`;

/**
 * Where the rows and the submitted jobs differ in number: each workload source whose rows in
 * jobs.csv are not its jobs, when the sources' jobs add up to those submitted (a run stopped early
 * submits fewer than its sources hold, and then they say nothing).
 */
function sourcesMiscounted(rows: readonly (readonly string[])[], nameColumn: number, input: RunCheckInput): string {
  const sources = input.workloads;
  if (!sources || sources.reduce((n, w) => n + w.jobs, 0) !== input.submitted) return '';
  const rowsOf = new Map<string, number>();
  for (const r of rows) rowsOf.set(r[nameColumn] ?? '', (rowsOf.get(r[nameColumn] ?? '') ?? 0) + 1);
  const named = new Set(sources.map((w) => w.name));
  const off = [
    ...sources
      .filter((w) => (rowsOf.get(w.name) ?? 0) !== w.jobs)
      .map((w) => `${w.name}: ${rowsCount(rowsOf.get(w.name) ?? 0)} for ${w.jobs} jobs`),
    ...[...rowsOf]
      .filter(([name]) => !named.has(name))
      .map(([name, n]) => `"${name}": ${rowsCount(n)}, a source the run does not have`),
  ];
  return off.length > 0 ? ` (by workload_name: ${examples(off)})` : '';
}

/**
 * The invariants gridemu promises of every run: each submitted job has exactly one final row; no
 * job ran twice (in the logs, a start at two sites, or twice at one); no site went over capacity
 * and no processor held two jobs; no job was lost (every row ended completed, rejected or failed
 * with a reason).
 */
export function checkRun(input: RunCheckInput): InvariantResult[] {
  const table = readCsvTable(input.jobsCsv, input.jobsCsvFile ?? 'jobs.csv');
  const { rows } = table;
  const col = (name: string) => table.column(name);
  const ids = rows.map((r) => r[col('job_id')] ?? '');
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  const twice = [...counts].filter(([, n]) => n > 1).map(([id, n]) => `${id} (${n} rows)`);
  const results: InvariantResult[] = [];
  results.push({
    name: 'one final row per submitted job',
    ok: twice.length === 0 && rows.length === input.submitted,
    detail:
      twice.length > 0
        ? `rows repeated: ${examples(twice)}`
        : rows.length !== input.submitted
          ? `${rows.length} rows for ${input.submitted} submitted jobs${table.header.includes('workload_name') ? sourcesMiscounted(rows, col('workload_name'), input) : ''}`
          : `${rows.length} rows, ${input.submitted} submitted`,
  });

  const runsTwice: string[] = [];
  if (input.logStarts) {
    const starts = new Map<string, string[]>();
    for (const s of input.logStarts) {
      const key = s.attempt === undefined ? s.jobId : `${s.jobId} (attempt ${s.attempt})`;
      starts.set(key, [...(starts.get(key) ?? []), s.site]);
    }
    for (const [id, sites] of starts) if (sites.length > 1) runsTwice.push(`${id} started at ${sites.join(', ')}`);
  }
  if (input.runs) {
    const byJob = new Map<string, { site: string; start_s: number; end_s: number }[]>();
    for (const r of input.runs) byJob.set(r.jobId, [...(byJob.get(r.jobId) ?? []), r]);
    for (const [id, rs] of byJob) {
      const sorted = [...rs].sort((a, b) => a.start_s - b.start_s);
      for (let i = 1; i < sorted.length; i++) {
        const a = sorted[i - 1]!;
        const b = sorted[i]!;
        if (b.start_s < a.end_s)
          runsTwice.push(`${id} ran at ${a.site} [${a.start_s}, ${a.end_s}) and ${b.site} from ${b.start_s}`);
      }
    }
  }
  // A double start can only be seen where starts are logged: a check that cannot see every start says so.
  const unseen =
    input.logStarts === undefined || input.logStarts.length === 0
      ? []
      : (() => {
          const logged = new Set(input.logStarts.map((s) => s.jobId));
          return rows
            .filter((r) => (r[col('starting_time')] ?? '') !== '' && !logged.has(r[col('job_id')] ?? ''))
            .map((r) => `${r[col('job_id')]} started at ${r[col('exec_site')] ?? '?'}`);
        })();
  const backwards = rows
    .filter(
      (r) =>
        r[col('starting_time')] !== '' &&
        r[col('finish_time')] !== '' &&
        Number(r[col('finish_time')]) < Number(r[col('starting_time')]),
    )
    .map((r) => `${r[col('job_id')]} ends before it starts`);
  results.push({
    name: 'no job ran twice or overlapped itself',
    ok: runsTwice.length === 0 && backwards.length === 0,
    detail:
      (runsTwice.length + backwards.length > 0
        ? examples([...runsTwice, ...backwards])
        : input.runs
          ? `${input.runs.length} runs, lost ones included, none overlapping another of its job`
          : input.logStarts && input.logStarts.length > 0
            ? `${input.logStarts.length} starts in the logs, one per job (per attempt, where a failed job is retried)`
            : input.logStarts
              ? 'jobs.csv only (the logs record no job.started events for this scheme)'
              : 'jobs.csv only (no logs: a simulation)') +
      (unseen.length > 0
        ? `; but ${unseen.length} executed job(s) have no start in the logs, so a second start of them could not be seen: ${examples(unseen)}`
        : ''),
  });

  const schedule = checkSchedule(executedJobs(table), input.cpus);
  results.push({
    name: 'no site over capacity, no processor held twice',
    ok: schedule.ok,
    detail: schedule.ok ? `${schedule.jobs_checked} executed jobs` : examples(describeScheduleCheck(schedule)),
  });

  const state = col('final_state');
  const lost = rows
    .filter((r) => !['COMPLETED_SUCCESSFULLY', 'REJECTED', 'COMPLETED_FAILED'].includes(r[state] ?? ''))
    .map((r) => `${r[col('job_id')]} (${r[state]})`);
  results.push({
    name: 'no job lost',
    ok: lost.length === 0,
    detail:
      lost.length > 0
        ? `${lost.length} jobs neither finished, rejected nor failed: ${examples(lost)}`
        : 'every job finished, was rejected, or failed with a reason',
  });
  return results;
}
