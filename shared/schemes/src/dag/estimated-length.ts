import type { DagTaskJob } from './dag-sources.js';

/** The bytes a task reads before it starts: from outside the grid, and from each parent. */
export interface TaskInputs {
  readonly external: number;
  /** Aligned with the task's parents. */
  readonly fromParents: readonly number[];
}

/**
 * What a task reads (§4: 1 MB files; a WfFormat task: its files' sizes): its inputs from outside
 * the grid (an initial task's 1 MB, unless the source says), and each parent's outputs.
 */
export function inputsOf(job: DagTaskJob, fileBytes: number): TaskInputs {
  return {
    external: job.input_bytes ?? (job.parents.length === 0 ? fileBytes : 0),
    fromParents: job.parents.map((_, i) => job.parent_bytes?.[i] ?? fileBytes),
  };
}

/**
 * A task's length as the scheduler can estimate it at submission, in seconds: its rough run-time
 * estimate on the reference CR, plus staging its inputs over the grid's links at their bandwidth
 * (the inputs move at once, so the largest decides; where they run, and so each link's latency, is
 * not known yet). Paper 003's 1 MB files add 8 ms at 1 Gbit/s; a WfFormat task that reads a 5 GB
 * database adds 41 s, which no limit on its run time alone could leave room for.
 */
export function estimatedTask_s(job: DagTaskJob, fileBytes: number, bandwidth_bps: number): number {
  const i = inputsOf(job, fileBytes);
  return job.estimate_s + (Math.max(i.external, ...i.fromParents) * 8) / bandwidth_bps;
}
