import { largest, smallest, type ExperimentSpec } from '@gridemu/model';
import type { JobRecord } from '@gridemu/metrics';
import type { SchemeMetric } from '../scheme-module.js';
import { asDagTask, type DagTaskJob } from './dag-sources.js';
import { LIMIT_REASON } from './scheduler-actor.js';
import { estimatedTask_s } from './estimated-length.js';
import { dagGridOf, dagMeta } from './meta.js';
import { REFERENCE_MIPS } from './site-actor.js';

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * summary.json's `dag` block, the figures paper 003 reports (§4):
 * - **useful work**: the work (MI) in tasks of DAG jobs that were "successfully executed": every
 *   task done, within the observation window (`meta.horizon_s` after the first arrival; the paper
 *   observes 24 h) and within the limit on their growth, 200% of their length (§4). The length is,
 *   by `meta.limit_basis`, the job's initially estimated length (the paper's: the longest chain of
 *   its tasks' rough estimates on the 1000-MIPS reference, each with its inputs' staging at the
 *   links' bandwidth; the scheduler stops a job that passes it, and its tasks fail) or its true
 *   critical path there (judged after the run, nothing stopped). `useful_work_share` is its
 *   share of the work of the jobs that arrived in the window (Figures 6 and 8), and `load` that
 *   work over what the CRs could do in the window;
 * - **network load** by kind, MB (Figure 7; `moves`: what the migrations alone moved, their
 *   checkpoints and the inputs sent again with each restart, part of `input` and `checkpoint`),
 *   the migrations (with the initial tasks' moves among them), and the DAG jobs' turnaround.
 */
export function dagSummary(
  counters: Readonly<Record<string, number>>,
  spec: ExperimentSpec,
  records: readonly JobRecord[],
): Record<string, unknown> {
  const meta = dagMeta(spec);
  const byDag = new Map<string, JobRecord[]>();
  for (const r of records) {
    const list = byDag.get(r.job.dag ?? r.job.id) ?? [];
    list.push(r);
    byDag.set(r.job.dag ?? r.job.id, list);
  }
  const first = smallest(records.map((r) => r.job.submit_s));
  const horizon = first + meta.horizon_s;
  const turnaround: number[] = [];
  let useful = 0;
  let offered = 0;
  let withinLimit = 0;
  let failedAtLimit = 0;
  // What the CRs could do in the window: the grid the plan draws (the same seed), at full power.
  const grid = dagGridOf(spec);
  const { file_bytes, bandwidth_bps } = grid.params;
  const length_s =
    meta.limit_basis === 'estimate'
      ? (tasks: readonly JobRecord[]) => estimatedLength_s(tasks, file_bytes, bandwidth_bps)
      : criticalPath_s;
  for (const tasks of byDag.values()) {
    const submit = smallest(tasks.map((t) => t.job.submit_s));
    const work = tasks.reduce((a, t) => a + t.job.run_s * REFERENCE_MIPS, 0);
    if (submit <= horizon) offered += work;
    if (tasks.some((t) => t.failReason === LIMIT_REASON)) failedAtLimit++;
    if (!tasks.every((t) => t.finish_s !== undefined)) continue;
    const end = largest(tasks.map((t) => t.finish_s!));
    turnaround.push(end - submit);
    // A job whose last task ended as its limit passed, before the stop reached it, is over it all the same.
    const ok = end - submit <= (1 + meta.growth_limit) * length_s(tasks);
    if (ok) withinLimit++;
    if (ok && end <= horizon) useful += work;
  }
  const capacity = grid.resources.reduce((a, r) => a + r.mips, 0) * meta.horizon_s;
  const c = (k: string) => counters[k] ?? 0;
  const input = c('dag.bytes.input') / 1e6;
  const checkpoint = c('dag.bytes.checkpoint') / 1e6;
  // What the moves alone cost: their checkpoints, and the inputs sent again with each restart.
  const moves = checkpoint + c('dag.bytes.restart_input') / 1e6;
  return {
    dag: {
      scheduler: meta.scheme,
      model: meta.model,
      min_improvement: meta.min_improvement,
      jobs: byDag.size,
      jobs_completed: turnaround.length,
      jobs_within_limit: withinLimit,
      jobs_failed_at_limit: failedAtLimit,
      limit_basis: meta.limit_basis,
      horizon_s: meta.horizon_s,
      useful_work_mi: round(useful, 0),
      useful_work_share: round(useful / Math.max(1, offered), 4),
      offered_work_mi: round(offered, 0),
      load: round(offered / Math.max(1, capacity), 4),
      mean_turnaround_s: round(turnaround.reduce((a, b) => a + b, 0) / Math.max(1, turnaround.length)),
      migrations: c('dag.migrations'),
      /** Of those, initial tasks moved out of a dependent task's way (step 1, §3). */
      initial_interruptions: c('dag.initial_interruptions'),
      stops_too_late: c('dag.stops_too_late'),
      rounds: c('dag.rounds'),
      network_mb: {
        input: round(input),
        checkpoint: round(checkpoint),
        total: round(input + checkpoint),
        moves: round(moves),
      },
    },
  };
}

/** A DAG's critical path: its longest chain of true lengths, seconds on the reference CR. */
function criticalPath_s(tasks: readonly JobRecord[]): number {
  return longestChain_s(tasks, (job) => job.run_s);
}

/** A DAG's initially estimated length: its longest chain of the tasks' estimates with their staging (what GSched's limit uses). */
function estimatedLength_s(tasks: readonly JobRecord[], fileBytes: number, bandwidth_bps: number): number {
  return longestChain_s(tasks, (job) => estimatedTask_s(job, fileBytes, bandwidth_bps));
}

function longestChain_s(tasks: readonly JobRecord[], length: (job: DagTaskJob) => number): number {
  const byId = new Map(tasks.map((t) => [t.job.id, asDagTask(t.job)]));
  const memo = new Map<string, number>();
  const finish = (id: string): number => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const job = byId.get(id)!;
    const f = length(job) + Math.max(0, ...job.parents.map(finish));
    memo.set(id, f);
    return f;
  };
  return largest(tasks.map((t) => finish(t.job.id)));
}

export const DAG_METRICS: readonly SchemeMetric[] = [
  { path: 'dag.mean_turnaround_s', column: 'dag_turnaround_s', compared: true },
  { path: 'dag.useful_work_share', column: 'useful_work_share', compared: true },
  { path: 'dag.migrations', column: 'dag_migrations', compared: true },
  { path: 'dag.initial_interruptions', column: 'dag_initial_moves' },
  { path: 'dag.network_mb.total', column: 'network_mb', compared: true },
  { path: 'dag.network_mb.moves', column: 'network_mb_moves' },
  { path: 'dag.jobs_failed_at_limit', column: 'dag_failed_at_limit' },
  { path: 'dag.load', column: 'dag_load' },
];
