import type { ExperimentSpec } from '@gridemu/model';
import type { JobRecord } from '@gridemu/metrics';
import type { SchemeMetric } from '../scheme-module.js';
import { hierarchyMeta } from './meta.js';
import { FCFS_QUEUE, gridCpuCounter } from './names.js';
import { MIGRATION_POLICIES } from './queue-limits.js';

const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * summary.json's `hierarchy` block: per queue, what the paper's Figures 5 and 6 and Table 3 show
 * (averages over the tasks that completed there); the grids' use; Figure 7's level against
 * expected duration; and how often each migration policy fired.
 */
export function hierarchySummary(
  counters: Readonly<Record<string, number>>,
  spec: ExperimentSpec,
  records: readonly JobRecord[],
): Record<string, unknown> {
  const meta = hierarchyMeta(spec);
  const c = (name: string) => counters[name] ?? 0;
  const queueIds = meta.scheme.startsWith('fcfs') ? [FCFS_QUEUE] : meta.queues.map((q) => q.id);
  const queues: Record<string, unknown> = {};
  for (const id of queueIds) {
    const k = (name: string) => c(`hierarchy.queue.${id}.${name}`);
    const n = k('completed');
    const p = k('parallel_tasks');
    const mean = (name: string) => (n > 0 ? round(k(name) / n, 2) : 0);
    const pmean = (name: string, digits = 4) => (p > 0 ? round(k(name) / p, digits) : 0);
    const accumulated = mean('accumulated_s');
    const compute = mean('compute_s');
    queues[id] = {
      completed: n,
      // Figure 5: time from arrival in the system to termination, and what of it is not computation.
      accumulated_s: accumulated,
      overhead_s: round(Math.max(0, accumulated - compute), 2),
      // Figure 6: the kinds of overhead.
      estimation_s: mean('estimation_s'),
      grid_wait_s: mean('grid_wait_s'),
      queueing_s: mean('queueing_s'),
      moves: mean('moves'),
      expected_s: mean('expected_s'),
      cpu_s: mean('cpu_s'),
      // Table 3, over the tasks of more than one job.
      parallel_tasks: p,
      volatility_runtime: pmean('volatility_runtime'),
      volatility_jobs: pmean('volatility_jobs'),
      allocated_cpus: pmean('alloc_mean', 1),
      allocated_share: pmean('alloc_share'),
      jobs_per_task: pmean('jobs_per_task', 1),
      job_duration_s: pmean('job_duration_s', 1),
    };
  }
  const makespan =
    records.reduce((a, r) => Math.max(a, r.finish_s ?? r.failed_s ?? 0), 0) - (records[0]?.job.submit_s ?? 0);
  const grids: Record<string, unknown> = {};
  for (const s of spec.sites) {
    const cpu = c(gridCpuCounter(s.id));
    grids[s.id] = {
      cpu_s: round(cpu, 1),
      lost_cpu_s: round(c(`hierarchy.grid.${s.id}.lost_cpu_s`), 1),
      utilization: makespan > 0 ? round(cpu / (s.cpus * makespan)) : 0,
    };
  }
  const levels = Math.max(...meta.queues.map((q) => q.level));
  // Figure 7: rows are the level a task's true complexity belongs to, columns the level it ran at.
  const figure7: Record<string, Record<string, number>> = {};
  for (let b = 1; b <= levels; b++) {
    const row: Record<string, number> = {};
    for (let l = 1; l <= levels; l++) row[`ran-L${l}`] = c(`hierarchy.fig7.L${b}.L${l}`);
    figure7[`belongs-L${b}`] = row;
  }
  const migrations: Record<string, number> = {};
  for (const kind of ['migrate', 'reject', 'terminate'])
    for (const p of MIGRATION_POLICIES)
      if (c(`hierarchy.${kind}.${p}`) > 0) migrations[`${kind}.${p}`] = c(`hierarchy.${kind}.${p}`);
  return {
    hierarchy: {
      queues,
      grids,
      figure7,
      migrations,
      pushes: c('hierarchy.pushes'),
      pushes_declined: c('hierarchy.push.declined'),
      estimations: c('hierarchy.estimations'),
      evictions: c('hierarchy.evictions'),
      preemptions: c('hierarchy.preemptions'),
      jobs_abandoned: c('hierarchy.jobs_abandoned'),
      // Condor's side (grid-actor.ts): cycles run and what they matched, jobs handed back to flock on, outages.
      negotiation: {
        cycles: c('hierarchy.negotiation_cycles'),
        matches: c('hierarchy.negotiation_matches'),
        passed_over: c('hierarchy.negotiation_passed_over'),
        flocked: c('hierarchy.flocked'),
      },
      outages: c('hierarchy.outages'),
      outage_evictions: c('hierarchy.outage_evictions'),
    },
  };
}

export const HIERARCHY_METRICS: readonly SchemeMetric[] = [
  { path: 'hierarchy.pushes', column: 'pushes', compared: true },
  { path: 'hierarchy.evictions', column: 'evictions' },
  { path: 'hierarchy.jobs_abandoned', column: 'jobs_abandoned' },
];
