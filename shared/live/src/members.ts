import type { ExperimentSpec, Job } from '@gridemu/model';
import { planGrid, type ActorPlacement } from '@gridemu/actors';
import { CENTRAL_LOCATION } from '@gridemu/protocol';

/**
 * The processes a live run needs besides the driver: one per location that hosts actors, that is
 * one per site (`unified`: one site with every processor) and `central` under the centralized and
 * hierarchical schemes. Their names are the location ids.
 */
export function liveMembers(spec: ExperimentSpec): string[] {
  const seen = new Set<string>();
  for (const p of planGrid(spec, []).actors) if (p.location !== undefined) seen.add(p.location);
  return [...seen];
}

export function isCentral(member: string): boolean {
  return member === CENTRAL_LOCATION;
}

/**
 * The actors one member process hosts. Built from the spec alone (no jobs): sites start gossiping
 * when the clock starts, which the driver sets to the first submission, as in SimRuntime.
 */
export function memberActors(spec: ExperimentSpec, member: string): ActorPlacement[] {
  const actors = planGrid(spec, []).actors.filter((p) => p.location === member);
  if (actors.length === 0) {
    throw new Error(`"${member}" hosts no actors under scheme ${spec.meta.scheme}; the run's processes are ${liveMembers(spec).join(', ')}`);
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
