import type { ExperimentSpec, Job } from '@gridemu/model';
import { schemeModule } from './registry.js';
import type { GridPlan } from './scheme-module.js';

/** The actors the spec's scheme needs, from the module that owns it. */
export function planGrid(spec: ExperimentSpec, jobs: readonly Job[]): GridPlan {
  return schemeModule(spec.meta.scheme).plan(spec, jobs);
}

/** The locations a live run needs a process for (besides the driver), and the process kind of each. */
export function liveLocations(spec: ExperimentSpec): { location: string; service: string }[] {
  const plan = planGrid(spec, []);
  const seen = new Set<string>();
  for (const p of plan.actors) if (p.location !== undefined) seen.add(p.location);
  return [...seen].map((location) => ({ location, service: plan.services[location] ?? 'site' }));
}
