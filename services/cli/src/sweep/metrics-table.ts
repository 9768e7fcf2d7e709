import type { RunSummary } from '@gridemu/metrics';
import { schemeMetrics } from '@gridemu/schemes';
import { pick } from '../compare/compare-results.js';

/** The columns of a live run's summary.live, and where each is read. */
const LIVE_COLUMNS = [
  ['live_latency_mean_ms', 'live.latency_ms.mean_ms'],
  ['live_latency_p95_ms', 'live.latency_ms.p95_ms'],
  ['live_timer_lag_mean_ms', 'live.timer_lag_ms.mean_ms'],
  ['live_run_wall_s', 'live.run_wall_s'],
] as const;

/**
 * Whether a flattened summary's column says something of the run's outcome: not the wall clock's
 * time, nor a live run's measure of the emulation itself (delays, timer lag, the guard's
 * warnings), which a machine varies from run to run.
 */
export function isOutcomeColumn(column: string): boolean {
  return column !== 'wall_time_s' && !column.startsWith('live_');
}

/**
 * Whether a table of flattened summaries (sweep.csv, sweep-mean.csv) holds live runs: only their
 * summaries have summary.live, whose wall time every live run records.
 */
export function holdsLiveRuns(columns: readonly string[]): boolean {
  return columns.includes('live_run_wall_s');
}

/** The summary's numbers as flat columns, so one row of the sweep table holds a whole run. */
export function flattenSummary(s: RunSummary): Record<string, number> {
  const out: Record<string, number> = {
    jobs_submitted: s.jobs.submitted,
    jobs_completed: s.jobs.completed,
    jobs_rejected: s.jobs.rejected,
    jobs_failed: s.jobs.failed,
    mean_wait_s: s.mean_wait_s,
    max_wait_s: s.max_wait_s,
    mean_turnaround_s: s.mean_turnaround_s,
    mean_slowdown: s.mean_slowdown,
    mean_bounded_slowdown: s.mean_bounded_slowdown,
    makespan_s: s.makespan_s,
    flowtime_s: s.flowtime_s,
    utilization: s.utilization.overall,
    messages_total: s.messages.total,
    messages_per_job: s.messages.per_job,
  };
  // The scheme's own figures (paper 001: its claims), from the module that owns it.
  for (const m of schemeMetrics(s.scheme)) {
    const v = pick(s as unknown as Record<string, unknown>, m.path);
    if (v !== undefined) out[m.column] = v;
  }
  out['wall_time_s'] = s.wall_time_s;
  // A live run's own measure of itself: the one-way delay its messages felt and its timers' lag.
  for (const [column, path] of LIVE_COLUMNS) {
    const v = pick(s as unknown as Record<string, unknown>, path);
    if (v !== undefined) out[column] = v;
  }
  // How many warnings the fidelity guard gave the run when it ended: a mean over seeds may hold runs
  // whose numbers it says measured the emulator's backlog rather than the scheme.
  const warnings = (s.live as { fidelity?: { measured?: { warnings?: unknown } } } | undefined)?.fidelity?.measured
    ?.warnings;
  if (Array.isArray(warnings)) out['live_fidelity_warnings'] = warnings.length;
  for (const [site, u] of Object.entries(s.utilization.per_site)) out[`utilization_${site}`] = u;
  for (const [group, g] of [
    ...Object.entries(s.categories),
    ...Object.entries(s.by_origin_site).map(([k, v]) => [`from_${k}`, v] as const),
  ]) {
    out[`${group}_jobs`] = g.jobs;
    out[`${group}_mean_slowdown`] = g.mean_slowdown;
    out[`${group}_mean_bounded_slowdown`] = g.mean_bounded_slowdown;
    out[`${group}_mean_turnaround_s`] = g.mean_turnaround_s;
  }
  return out;
}
