import type { ExperimentSpec } from '@gridemu/model';
import type { JobRecord } from '@gridemu/metrics';
import { findSchemeModule, schemeModule } from './registry.js';
import type { SchemeMetric } from './scheme-module.js';

/** The spec's scheme's part of summary.json. */
export function schemeSummary(spec: ExperimentSpec, counters: Readonly<Record<string, number>>, records: readonly JobRecord[]): Record<string, unknown> {
  return schemeModule(spec.meta.scheme).summary?.(counters, spec, records) ?? {};
}

/** The figures of a scheme's own that compare and sweep know (none for a scheme no module owns). */
export function schemeMetrics(scheme: string): readonly SchemeMetric[] {
  return findSchemeModule(scheme)?.metrics ?? [];
}
