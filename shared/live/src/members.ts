import type { ExperimentSpec, Job } from '@gridemu/model';
import { liveLocations, planGrid, type GridActor } from '@gridemu/schemes';

export { liveLocations };

/**
 * The processes a live run needs besides the driver: one per location that hosts actors (every
 * site, and a scheme's own services such as `central`), named by the location, with the process
 * kind that hosts it (services/<kind>).
 */
export function liveMembers(spec: ExperimentSpec): string[] {
  return liveLocations(spec).map((l) => l.location);
}

/**
 * The actors one member process hosts. Built from the spec alone (no jobs): its actors start, and
 * start their periods, when the clock starts, at the run's first submission, as in SimRuntime.
 */
export function memberActors(spec: ExperimentSpec, member: string): GridActor[] {
  const actors = planGrid(spec, []).actors.filter((p) => p.location === member);
  if (actors.length === 0) {
    throw new Error(
      `"${member}" hosts no actors under scheme ${spec.meta.scheme}; the run's processes are ${liveMembers(spec).join(', ')}`,
    );
  }
  return actors;
}

/** The driver's side of the plan: the same grid, of which the driver process hosts only the driver. */
export function driverPlan(spec: ExperimentSpec, jobs: readonly Job[]) {
  const plan = planGrid(spec, jobs);
  const driver = plan.actors.find((p) => p.location === undefined);
  if (!driver) throw new Error('assertion: every plan has a driver');
  return { plan, driver };
}
