import { CsvRowString, type CsvCells, type CsvFileWriter } from './csv-cells.js';
import { finalState, timing, type JobRecord } from './job-record.js';

/** Batsim's jobs.csv columns first, so evalys and pandas scripts for Batsim read ours; then gridemu's. */
export const JOBS_CSV_COLUMNS = [
  'job_id',
  'workload_name',
  'submission_time',
  'requested_number_of_resources',
  'requested_time',
  'success',
  'final_state',
  'starting_time',
  'execution_time',
  'finish_time',
  'waiting_time',
  'turnaround_time',
  'stretch',
  'allocated_resources',
  'origin_site',
  'exec_site',
  'copies',
  'migrations',
  'replans',
  'vo',
  'group',
  'reason',
  'restarts',
  'dag',
] as const;

/**
 * One job's row, cell by cell: the one definition of jobs.csv's rows, whether they become a string
 * (jobsCsvRow) or bytes in a file (writeJobsCsvRows).
 */
export function jobsCsvCells(r: JobRecord, out: CsvCells): void {
  const { job } = r;
  const t = timing(r);
  const state = finalState(r);
  out.text(job.id);
  out.text(job.workload);
  out.num(job.submit_s);
  out.num(job.procs);
  out.num(job.estimate_s);
  out.num(state === 'COMPLETED_SUCCESSFULLY' ? 1 : 0);
  out.text(state);
  out.num(r.start_s);
  out.num(t?.run_s);
  out.num(r.finish_s);
  out.num(t?.wait_s);
  out.num(t?.turnaround_s);
  out.num(t?.slowdown);
  out.text(r.resources ?? '');
  out.text(job.origin);
  out.text(r.execSite ?? '');
  out.num(r.copies);
  out.num(r.migrations);
  out.num(r.replans);
  out.text(job.vo ?? '');
  out.text(String(job.group ?? ''));
  out.text(r.rejectReason ?? r.failReason ?? '');
  out.num(r.lostRuns.length);
  out.text(job.dag ?? '');
  out.end();
}

const rowString = new CsvRowString();

export function jobsCsvRow(r: JobRecord): string {
  jobsCsvCells(r, rowString);
  return rowString.take();
}

/** The whole file as one string, header first, one row per submitted job in the order given (for checks in memory; files are written by writeJobsCsvRows). */
export function jobsCsvText(records: readonly JobRecord[]): string {
  let text = JOBS_CSV_COLUMNS.join(',') + '\n';
  for (const r of records) text += jobsCsvRow(r) + '\n';
  return text;
}

/** The whole file into `out`, header first, one row per submitted job in the order given. */
export function writeJobsCsvRows(out: CsvFileWriter, records: readonly JobRecord[]): void {
  out.line(JOBS_CSV_COLUMNS.join(','));
  for (const r of records) jobsCsvCells(r, out);
}
