import { formatNumber } from './format.js';
import { finalState, timing, type JobRecord } from './job-record.js';

/** Batsim's jobs.csv columns first, so evalys and pandas scripts for Batsim read ours; then gridemu's. */
export const JOBS_CSV_COLUMNS = [
  'job_id', 'workload_name', 'submission_time', 'requested_number_of_resources', 'requested_time', 'success',
  'final_state', 'starting_time', 'execution_time', 'finish_time', 'waiting_time', 'turnaround_time', 'stretch',
  'allocated_resources', 'origin_site', 'exec_site', 'copies', 'migrations', 'replans', 'vo', 'group',
] as const;

function csvField(v: string): string {
  return /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export function jobsCsvRow(r: JobRecord): string {
  const t = timing(r);
  const num = (n: number | undefined): string => (n === undefined ? '' : formatNumber(n));
  const state = finalState(r);
  const fields = [
    r.job.id,
    r.job.workload,
    num(r.job.submit_s),
    String(r.job.procs),
    num(r.job.estimate_s),
    state === 'COMPLETED_SUCCESSFULLY' ? '1' : '0',
    state,
    num(r.start_s),
    num(t?.run_s),
    num(r.finish_s),
    num(t?.wait_s),
    num(t?.turnaround_s),
    num(t?.slowdown),
    r.resources ?? '',
    r.job.origin,
    r.execSite ?? '',
    String(r.copies),
    String(r.migrations),
    String(r.replans),
    r.job.vo ?? '',
    r.job.group === undefined ? '' : String(r.job.group),
  ];
  return fields.map(csvField).join(',');
}

/** The whole file as text: header first, one row per submitted job, in the order given. */
export function jobsCsv(records: Iterable<JobRecord>): string {
  const lines = [JOBS_CSV_COLUMNS.join(',')];
  for (const r of records) lines.push(jobsCsvRow(r));
  return lines.join('\n') + '\n';
}
