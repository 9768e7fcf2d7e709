import type { ExperimentSpec } from '@gridemu/model';
import type { JobRecord } from '@gridemu/metrics';
import type { SchemeMetric } from '../scheme-module.js';
import { shadowMeta, speedsOf } from './meta.js';

const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * summary.json's `routing` block: paper 004's flowtime as it defines it (§4: the *mean* completion
 * time, counted from the first arrival; its makespan, the largest, is summary.json's own
 * makespan_s), the state messages each task cost, and the router's own counts.
 */
export function shadowSummary(
  counters: Readonly<Record<string, number>>,
  spec: ExperimentSpec,
  records: readonly JobRecord[],
): Record<string, unknown> {
  const meta = shadowMeta(spec);
  const done = records.filter((r) => r.finish_s !== undefined);
  const first = records.reduce((a, r) => Math.min(a, r.job.submit_s), Infinity);
  const completion = done.map((r) => r.finish_s! - first);
  const c = (k: string) => counters[k] ?? 0;
  // Where the tasks went: the share routed to the fastest tenth of the resources, against the share
  // of the grid's speed they hold (η too small for the workload sends nearly everything there).
  const speeds = speedsOf(spec);
  const bySpeed = spec.sites.map((site, i) => ({ id: site.id, speed: speeds[i]! })).sort((a, b) => b.speed - a.speed);
  const fastest = new Set(bySpeed.slice(0, Math.max(1, Math.round(bySpeed.length / 10))).map((r) => r.id));
  const totalSpeed = speeds.reduce((a, b) => a + b, 0);
  const fastestSpeed = bySpeed.filter((r) => fastest.has(r.id)).reduce((a, r) => a + r.speed, 0);
  const routed = records.filter((r) => r.execSite !== undefined);
  const meanLength = records.reduce((a, r) => a + r.job.run_s, 0) / Math.max(1, records.length);
  return {
    routing: {
      router: meta.scheme,
      eta: meta.eta,
      errors: meta.errors,
      speeds: speedsOf(spec),
      // A task's result is the user's when its output is in at the scheduler: each task's wait for
      // that after its end (0 without output) is added to its completion time.
      flowtime_mean_s: round(
        (completion.reduce((a, b) => a + b, 0) + c('routing.output_return_s')) / Math.max(1, completion.length),
        3,
      ),
      output_return_mean_s: round(c('routing.output_return_s') / Math.max(1, c('routing.outputs')), 3),
      state_messages: c('routing.state_messages'),
      state_messages_per_task: round(c('routing.state_messages') / Math.max(1, records.length)),
      decisions: c('routing.decisions'),
      normalizations: c('routing.normalizations'),
      normalizations_per_task: round(c('routing.normalizations') / Math.max(1, records.length)),
      /** A task's mean length over the resources' mean speed: the seconds of virtual queue a task adds, on average. */
      mean_task_time_s: round(meanLength / Math.max(1e-9, totalSpeed / Math.max(1, speeds.length)), 1),
      fastest_tenth: {
        resources: fastest.size,
        task_share: round(routed.filter((r) => fastest.has(r.execSite!)).length / Math.max(1, routed.length)),
        speed_share: round(fastestSpeed / Math.max(1e-9, totalSpeed)),
      },
      timeouts: c('routing.timeouts'),
    },
  };
}

export const SHADOW_METRICS: readonly SchemeMetric[] = [
  { path: 'routing.flowtime_mean_s', column: 'flowtime_mean_s', compared: true },
  { path: 'routing.state_messages_per_task', column: 'state_messages_per_task', compared: true },
  { path: 'routing.normalizations_per_task', column: 'normalizations_per_task' },
  { path: 'routing.fastest_tenth.task_share', column: 'fastest_tenth_task_share' },
  { path: 'routing.fastest_tenth.speed_share', column: 'fastest_tenth_speed_share' },
  { path: 'routing.mean_task_time_s', column: 'mean_task_time_s' },
];
