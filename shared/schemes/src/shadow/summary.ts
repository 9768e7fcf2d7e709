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
  return {
    routing: {
      router: meta.scheme,
      eta: meta.eta,
      errors: meta.errors,
      speeds: speedsOf(spec),
      flowtime_mean_s: round(completion.reduce((a, b) => a + b, 0) / Math.max(1, completion.length), 3),
      state_messages: c('routing.state_messages'),
      state_messages_per_task: round(c('routing.state_messages') / Math.max(1, records.length)),
      decisions: c('routing.decisions'),
      normalizations: c('routing.normalizations'),
      timeouts: c('routing.timeouts'),
    },
  };
}

export const SHADOW_METRICS: readonly SchemeMetric[] = [
  { path: 'routing.flowtime_mean_s', column: 'flowtime_mean_s', compared: true },
  { path: 'routing.state_messages_per_task', column: 'state_messages_per_task', compared: true },
];
