import type { ExperimentSpec } from '@gridemu/model';
import type { JobRecord, ProtocolTraceRow, RunSummaryInput } from '@gridemu/metrics';
import { medianRun_s } from '@gridemu/workload';
import { findSchemeModule, schemeModule } from './registry.js';
import type { SchemeMetric, TraceComparison } from './scheme-module.js';

/** The spec's scheme's part of summary.json. */
export function schemeSummary(
  spec: ExperimentSpec,
  counters: Readonly<Record<string, number>>,
  records: readonly JobRecord[],
): Record<string, unknown> {
  return schemeModule(spec.meta.scheme).summary?.(counters, spec, records) ?? {};
}

/** The processor-seconds each site was busy, where the scheme's module counts them (SchemeModule.busyProcessor_s). */
export function schemeBusyProcessor_s(
  spec: ExperimentSpec,
  counters: Readonly<Record<string, number>>,
): Readonly<Record<string, number>> | undefined {
  return schemeModule(spec.meta.scheme).busyProcessor_s?.(counters, spec);
}

/**
 * What the spec's scheme gives buildRunSummary, the same in both runtimes: its part of
 * summary.json and, where it counts them, its sites' busy processor-seconds. A new module hook that
 * feeds summary.json is wired here, not in each runtime's service.
 */
export function schemeSummaryInput(
  spec: ExperimentSpec,
  counters: Readonly<Record<string, number>>,
  records: readonly JobRecord[],
): Pick<RunSummaryInput, 'scheme' | 'busyProcessor_s'> {
  const busy = schemeBusyProcessor_s(spec, counters);
  return { scheme: schemeSummary(spec, counters, records), ...(busy ? { busyProcessor_s: busy } : {}) };
}

/** The figures of a scheme's own that compare and sweep know (none for a scheme no module owns). */
export function schemeMetrics(scheme: string): readonly SchemeMetric[] {
  return findSchemeModule(scheme)?.metrics ?? [];
}

/** The timescale that is the jobs' median run: the workload's own, which no setting lengthens. */
export const MEDIAN_RUN_TIMESCALE = 'median_run_s';

/**
 * What a live run's timing must stay small against (the fidelity guard): the scheme's
 * timeouts and periods, and the median run time of the jobs.
 */
export function schemeTimescales(
  spec: ExperimentSpec,
  jobs: readonly { readonly run_s: number }[],
): Record<string, number> {
  const own = schemeModule(spec.meta.scheme).timescales?.(spec) ?? {};
  const median = medianRun_s(jobs.map((j) => j.run_s));
  return median !== undefined ? { ...own, [MEDIAN_RUN_TIMESCALE]: median } : own;
}

/** The periods of the scheme's latest-value reports (load gossip), for the fidelity guard. */
export function schemeReportPeriods(spec: ExperimentSpec): Record<string, number> {
  return schemeModule(spec.meta.scheme).reportPeriods?.(spec) ?? {};
}

/** Two runs' protocol traces side by side, as the scheme's module reads them; undefined for a scheme that traces nothing. */
export function schemeTraceComparison(
  scheme: string,
  a: readonly ProtocolTraceRow[],
  b: readonly ProtocolTraceRow[],
): TraceComparison | undefined {
  return findSchemeModule(scheme)?.compareTraces?.(a, b);
}
