import type { Job } from '@gridemu/model';

/** Batsim's final states (DESIGN.md, "Results"). */
export type FinalState = 'COMPLETED_SUCCESSFULLY' | 'COMPLETED_FAILED' | 'COMPLETED_KILLED' | 'REJECTED';

/** What happened to one submitted job: exactly one per job, in submission order. */
export interface JobRecord {
  readonly job: Job;
  start_s?: number;
  finish_s?: number;
  execSite?: string;
  /** Processor ids in Batsim's interval-set notation. */
  resources?: string;
  rejectReason?: string;
  /** Why the job was given up without completing (it never runs again). */
  failReason?: string;
  /** When it was given up. */
  failed_s?: number;
  copies: number;
  migrations: number;
  replans: number;
  /** Runs that died in a crash before the one recorded: jobs.csv's `restarts` is their count. */
  readonly lostRuns: LostRun[];
}

/** A run of a job that died with its site's process. */
export interface LostRun {
  readonly site: string;
  readonly start_s: number;
  /** When it died: the crash. */
  readonly end_s: number;
}

export function newRecord(job: Job): JobRecord {
  return { job, copies: 1, migrations: 0, replans: 0, lostRuns: [] };
}

export function finalState(r: JobRecord): FinalState {
  if (r.rejectReason !== undefined) return 'REJECTED';
  if (r.failReason !== undefined) return 'COMPLETED_FAILED';
  if (r.start_s !== undefined && r.finish_s !== undefined) return 'COMPLETED_SUCCESSFULLY';
  // Started but never finished, or never started, when the run ended.
  return 'COMPLETED_KILLED';
}

/** A finished job's timing, derived once for CSV and summary alike. */
export interface Timing {
  readonly wait_s: number;
  readonly run_s: number;
  readonly turnaround_s: number;
  /** (wait + run) / run: paper 001 §3's slowdown. */
  readonly slowdown: number;
  /** max(1, (wait + run) / max(run, τ)), τ = 10 s. */
  readonly boundedSlowdown: number;
}

export const BOUNDED_SLOWDOWN_TAU_S = 10;

/** A job's bounded slowdown from its turnaround (wait + run) and run: max(1, turnaround / max(run, τ)). */
export function boundedSlowdown(turnaround_s: number, run_s: number): number {
  return Math.max(1, turnaround_s / Math.max(run_s, BOUNDED_SLOWDOWN_TAU_S));
}

export function timing(r: JobRecord): Timing | undefined {
  if (r.start_s === undefined || r.finish_s === undefined) return undefined;
  const wait_s = r.start_s - r.job.submit_s;
  const run_s = r.finish_s - r.start_s;
  const turnaround_s = r.finish_s - r.job.submit_s;
  return {
    wait_s,
    run_s,
    turnaround_s,
    slowdown: turnaround_s / Math.max(run_s, Number.MIN_VALUE),
    boundedSlowdown: boundedSlowdown(turnaround_s, run_s),
  };
}
