/**
 * A job as the schedulers see it, after the workload reader's conversion (docs/workload.md). A
 * family may give its jobs fields of its own (a DAG task's parents): it declares them as a type
 * extending this one and as the registry's job fields, which the bus checks.
 */
export interface Job {
  /** Unique in the run: `${workload}!${number in its source}`. */
  readonly id: string;
  /** The source this job came from (Batsim's workload_name). */
  readonly workload: string;
  /** The site whose users submitted it. */
  readonly origin: string;
  /** Submission time, emulated seconds. */
  readonly submit_s: number;
  /** Time it actually runs once started, seconds (>= 1). */
  readonly run_s: number;
  /** Requested wall time the schedulers plan with, seconds (>= run_s). */
  readonly estimate_s: number;
  /** Processors it needs, all at one site (>= 1 unless rejected). */
  readonly procs: number;
  readonly user?: number;
  /** A trace's group number, or a named group of a VO (jobs.csv's `group` column). */
  readonly group?: number | string;
  /** The virtual organization it belongs to (jobs.csv's `vo` column). */
  readonly vo?: string;
  /** Disk the job needs at the site that runs it, MB (its input and output; GRUBER's disk SLA). */
  readonly disk_mb?: number;
  /** Memory to move with the job when it runs away from its origin (only with network.transfer). */
  readonly memory_mb?: number;
  /** The DAG a job is a task of, `<instance>!<n>` (jobs.csv's `dag` column). */
  readonly dag?: string;
  /** Set when the job can never run (e.g. its processor count is unknown); it is REJECTED at submission. */
  readonly rejectReason?: RejectReason;
}

/**
 * What actors did to a job on its way to the processors, carried with it and reported to the
 * driver when it starts (jobs.csv's copies, migrations, replans: DESIGN.md, "Results"). Each actor
 * adds what it did; nothing is derived from the configuration.
 */
export interface JobTrail {
  /** Copies of the job actually sent out (K under k-distributed, fewer if fewer sites fit it). */
  readonly copies: number;
  /** Moves an actor made: sending the job to run at a site other than its origin. */
  readonly migrations: number;
  /** Times its placement was planned again. */
  readonly replans: number;
}

/** A job that has not been anywhere yet. */
export const FRESH_TRAIL: JobTrail = { copies: 1, migrations: 0, replans: 0 };

/**
 * Why a job can never run: no processor count, wider than its site, wider than its VO may hold there
 * (GRUBER), past a hierarchy's last level, or an external policy said so (docs/external.md).
 */
export type RejectReason =
  'processors_unknown' | 'wider_than_site' | 'wider_than_vo_limit' | 'beyond_last_level' | 'by_policy';

/** The part of a job a local scheduling policy needs. */
export interface SchedulableJob {
  readonly id: string;
  readonly procs: number;
  readonly estimate_s: number;
}

/** Seconds to move a job's memory over a link of `bandwidth_mbps` (paper 001 §7). */
export function transferTime_s(job: Pick<Job, 'memory_mb'>, bandwidth_mbps: number): number {
  return ((job.memory_mb ?? 0) * 8) / bandwidth_mbps;
}

/**
 * The instant a run starts, in emulated seconds: its first submission (0 with no jobs). Both
 * runtimes start their actors then, so a period an actor starts in its start hook (load gossip,
 * a monitor, a queue's tick) has the same phase in a simulation and in every live process.
 */
export function runEpoch_s(jobs: readonly Pick<Job, 'submit_s'>[]): number {
  return jobs.reduce((min, j) => Math.min(min, j.submit_s), jobs[0]?.submit_s ?? 0);
}
