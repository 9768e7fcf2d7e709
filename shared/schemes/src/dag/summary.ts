import type { ExperimentSpec } from '@gridemu/model';
import type { JobRecord } from '@gridemu/metrics';
import type { SchemeMetric } from '../scheme-module.js';
import { dagMeta } from './meta.js';
import { REFERENCE_MIPS } from './site-actor.js';

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * summary.json's `dag` block, the figures paper 003 reports (§4): the useful workload (the work in
 * tasks of DAG jobs whose final task finished, MI), the network load by kind (MB), the migrations,
 * and the DAG jobs' turnaround (submission to the end of their last task).
 */
export function dagSummary(counters: Readonly<Record<string, number>>, spec: ExperimentSpec, records: readonly JobRecord[]): Record<string, unknown> {
  const meta = dagMeta(spec);
  const byDag = new Map<string, JobRecord[]>();
  for (const r of records) {
    const list = byDag.get(r.job.dag ?? r.job.id) ?? [];
    list.push(r);
    byDag.set(r.job.dag ?? r.job.id, list);
  }
  const turnaround: number[] = [];
  let useful = 0;
  for (const tasks of byDag.values()) {
    if (!tasks.every((t) => t.finish_s !== undefined)) continue;
    useful += tasks.reduce((a, t) => a + t.job.run_s * REFERENCE_MIPS, 0);
    turnaround.push(Math.max(...tasks.map((t) => t.finish_s!)) - Math.min(...tasks.map((t) => t.job.submit_s)));
  }
  const c = (k: string) => counters[k] ?? 0;
  const input = c('dag.bytes.input') / 1e6;
  const checkpoint = c('dag.bytes.checkpoint') / 1e6;
  return {
    dag: {
      scheduler: meta.scheme,
      model: meta.model,
      min_improvement: meta.min_improvement,
      jobs: byDag.size,
      jobs_completed: turnaround.length,
      useful_work_mi: round(useful, 0),
      mean_turnaround_s: round(turnaround.reduce((a, b) => a + b, 0) / Math.max(1, turnaround.length)),
      migrations: c('dag.migrations'),
      stops_too_late: c('dag.stops_too_late'),
      rounds: c('dag.rounds'),
      network_mb: { input: round(input), checkpoint: round(checkpoint), total: round(input + checkpoint) },
    },
  };
}

export const DAG_METRICS: readonly SchemeMetric[] = [
  { path: 'dag.mean_turnaround_s', column: 'dag_turnaround_s', compared: true },
  { path: 'dag.useful_work_mi', column: 'useful_work_mi', compared: true },
  { path: 'dag.migrations', column: 'dag_migrations', compared: true },
  { path: 'dag.network_mb.total', column: 'network_mb', compared: true },
];
