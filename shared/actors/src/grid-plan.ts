import type { ExperimentSpec, Job, SiteSpec } from '@gridemu/model';
import type { SiteCapacity } from '@gridemu/metrics';
import { DRIVER, siteAddress, type Address, type Message } from '@gridemu/protocol';
import type { Actor } from '@gridemu/runtime';
import { createLocalPolicy } from '@gridemu/scheduling';
import { DriverActor } from './driver-actor.js';
import { ExecutorActor } from './executor-actor.js';
import { LocalSchedulerActor } from './local-scheduler-actor.js';

/** One actor and where it lives; a runtime (simulated or live) spawns these. */
export interface ActorPlacement {
  readonly address: Address;
  /** The grid site the actor belongs to (link latency applies between sites), or undefined. */
  readonly site: string | undefined;
  readonly actor: Actor<Message>;
}

export interface GridPlan {
  readonly actors: readonly ActorPlacement[];
  readonly driver: DriverActor;
  /** The sites that execute jobs, for utilization. */
  readonly execSites: readonly SiteCapacity[];
}

/** The site that stands for the whole grid under `unified` (paper 001 §3: all streams, all CPUs). */
export const UNIFIED_SITE = 'unified';

/**
 * The actors a scheme needs. `independent`: every site schedules only its own stream.
 * `unified`: one site with every site's processors takes every stream (paper 001, Figure 6).
 */
export function planGrid(spec: ExperimentSpec, jobs: readonly Job[]): GridPlan {
  switch (spec.meta.scheme) {
    case 'independent': {
      const driver = new DriverActor(jobs, (job) => siteAddress(job.origin, 'scheduler'));
      return { actors: [driverPlacement(driver), ...spec.sites.flatMap((s) => siteActors(spec, s))], driver, execSites: spec.sites };
    }
    case 'unified': {
      const whole: SiteSpec = { id: UNIFIED_SITE, cpus: spec.sites.reduce((n, s) => n + s.cpus, 0) };
      const driver = new DriverActor(jobs, () => siteAddress(UNIFIED_SITE, 'scheduler'));
      return { actors: [driverPlacement(driver), ...siteActors(spec, whole)], driver, execSites: [whole] };
    }
  }
}

function driverPlacement(driver: DriverActor): ActorPlacement {
  return { address: DRIVER, site: undefined, actor: driver };
}

/** A site's local scheduler and executor. */
export function siteActors(spec: ExperimentSpec, site: SiteSpec): ActorPlacement[] {
  return [
    { address: siteAddress(site.id, 'scheduler'), site: site.id, actor: new LocalSchedulerActor(site.id, createLocalPolicy(spec.local.policy, site.cpus)) },
    { address: siteAddress(site.id, 'executor'), site: site.id, actor: new ExecutorActor(site.id, site.cpus) },
  ];
}
