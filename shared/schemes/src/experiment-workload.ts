import type { ExperimentSpec } from '@gridemu/model';
import { loadWorkload, type LoadWorkloadOptions, type Workload } from '@gridemu/workload';
import { FAMILY_SOURCES } from './registry.js';

/** An experiment's jobs, every family's kinds of source included: what a run submits. */
export function loadExperimentWorkload(
  spec: ExperimentSpec,
  options: Omit<LoadWorkloadOptions, 'familySources'> = {},
): Promise<Workload> {
  return loadWorkload(spec, { ...options, familySources: FAMILY_SOURCES });
}
