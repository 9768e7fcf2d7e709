import { formatNumber } from './format.js';
import { finalState, timing, type JobRecord } from './job-record.js';

/** Batsim's jobs.csv columns first, so evalys and pandas scripts for Batsim read ours; then gridemu's. */
export const JOBS_CSV_COLUMNS = [
  'job_id', 'workload_name', 'submission_time', 'requested_number_of_resources', 'requested_time', 'success',
  'final_state', 'starting_time', 'execution_time', 'finish_time', 'waiting_time', 'turnaround_time', 'stretch',
  'allocated_resources', 'origin_site', 'exec_site', 'copies', 'migrations', 'replans', 'vo', 'group', 'reason', 'restarts', 'dag',
] as const;

/** Quotes a text field that needs it (numbers never do). */
export function csvField(v: string): string {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c === 34 || c === 44 || c === 10 || c === 13) return `"${v.replace(/"/g, '""')}"`;
  }
  return v;
}

/** A number cell; empty when unknown. */
function num(n: number | undefined): string {
  return n === undefined ? '' : formatNumber(n);
}

export function jobsCsvRow(r: JobRecord): string {
  const { job } = r;
  const t = timing(r);
  const state = finalState(r);
  return (
    `${csvField(job.id)},${csvField(job.workload)},${num(job.submit_s)},${job.procs},${num(job.estimate_s)},` +
    `${state === 'COMPLETED_SUCCESSFULLY' ? '1' : '0'},${state},${num(r.start_s)},${num(t?.run_s)},${num(r.finish_s)},` +
    `${num(t?.wait_s)},${num(t?.turnaround_s)},${num(t?.slowdown)},${r.resources ?? ''},${csvField(job.origin)},` +
    `${csvField(r.execSite ?? '')},${r.copies},${r.migrations},${r.replans},${csvField(job.vo ?? '')},${csvField(String(job.group ?? ''))},${csvField(r.rejectReason ?? r.failReason ?? '')},${r.lostRuns.length},${csvField(job.dag ?? '')}`
  );
}

/**
 * The whole file, header first, one row per submitted job in the order given, in pieces of `rows`
 * rows: a full archive trace is tens of thousands of rows, and one string of them all is garbage to
 * collect.
 */
export function* jobsCsvChunks(records: readonly JobRecord[], rows = 2048): Generator<string> {
  yield JOBS_CSV_COLUMNS.join(',') + '\n';
  for (let i = 0; i < records.length; i += rows) {
    let chunk = '';
    const end = Math.min(records.length, i + rows);
    for (let j = i; j < end; j++) chunk += jobsCsvRow(records[j]!) + '\n';
    yield chunk;
  }
}
