import type { ExperimentSpec, Job, SiteSpec } from '@gridemu/model';
import type { SiteCapacity } from '@gridemu/metrics';
import { CENTRAL, CENTRAL_LOCATION, DRIVER, LOAD_TOPIC, siteAddress, type Message } from '@gridemu/protocol';
import type { ActorPlacement as RuntimePlacement } from '@gridemu/runtime';
import { createLocalPolicy } from '@gridemu/scheduling';
import { DriverActor } from './driver-actor.js';
import { ExecutorActor } from './executor-actor.js';
import { LocalSchedulerActor, type LocalSchedulerOptions } from './local-scheduler-actor.js';
import { MetaschedulerActor } from './metascheduler-actor.js';
import { CentralActor } from './central-actor.js';
import { HierarchicalActor } from './hierarchical-actor.js';

/** One actor and where it lives; a runtime (simulated or live) spawns these. */
export type ActorPlacement = RuntimePlacement<Message>;

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
 * `centralized`, `hierarchical`: one central metascheduler that users submit to (§2.1.1, §2.1.2).
 * `distributed`, `k-distributed`, `k-dual`: a metascheduler per site (paper 001 §2.1.3, §4).
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
    case 'centralized': {
      // Sites keep only an executor, which reports ends to the central metascheduler.
      const driver = new DriverActor(jobs, () => CENTRAL);
      const executors = spec.sites.map((s) => ({ address: siteAddress(s.id, 'executor'), location: s.id, actor: new ExecutorActor(s.id, s.cpus, { scheduler: CENTRAL, ...transferOf(spec) }) }));
      return { actors: [driverPlacement(driver), { address: CENTRAL, location: CENTRAL_LOCATION, actor: new CentralActor(spec.sites) }, ...executors], driver, execSites: spec.sites };
    }
    case 'hierarchical': {
      const driver = new DriverActor(jobs, () => CENTRAL);
      const sites = spec.sites.flatMap((s) => siteActors(spec, s, transferOf(spec)));
      return { actors: [driverPlacement(driver), { address: CENTRAL, location: CENTRAL_LOCATION, actor: new HierarchicalActor(spec.sites) }, ...sites], driver, execSites: spec.sites };
    }
    case 'distributed':
    case 'k-distributed':
    case 'k-dual': {
      // Every site has a metascheduler that users submit to; schedulers gossip their load to all of them.
      const scheme = spec.meta.scheme;
      const driver = new DriverActor(jobs, (job) => siteAddress(job.origin, 'meta'));
      const scheduling: LocalSchedulerOptions = {
        gossip: true,
        loadPeriod_s: spec.meta.load_period_s,
        gossipFrom_s: jobs[0]?.submit_s ?? 0,
        claimTimeout_s: spec.meta.claim_timeout_s,
        claimMode: spec.meta.claim,
        ...transferOf(spec),
      };
      const actors = spec.sites.flatMap((s) => [
        { address: siteAddress(s.id, 'meta'), location: s.id, topics: [LOAD_TOPIC], actor: new MetaschedulerActor(s.id, { scheme, k: spec.meta.k, sites: spec.sites }) },
        ...siteActors(spec, s, scheduling),
      ]);
      return { actors: [driverPlacement(driver), ...actors], driver, execSites: spec.sites };
    }
  }
}

function driverPlacement(driver: DriverActor): ActorPlacement {
  return { address: DRIVER, location: undefined, actor: driver };
}

/** A site's local scheduler and executor. */
export function siteActors(spec: ExperimentSpec, site: SiteSpec, options: LocalSchedulerOptions = {}): ActorPlacement[] {
  return [
    { address: siteAddress(site.id, 'scheduler'), location: site.id, actor: new LocalSchedulerActor(site.id, createLocalPolicy(spec.local.policy, site.cpus), options) },
    { address: siteAddress(site.id, 'executor'), location: site.id, actor: new ExecutorActor(site.id, site.cpus, transferOf(spec)) },
  ];
}

/** The transfer bandwidth, when the spec charges for moving jobs (paper 001 §7). */
function transferOf(spec: ExperimentSpec): { transferBandwidth_mbps?: number } {
  return spec.network.transfer ? { transferBandwidth_mbps: spec.network.transfer.bandwidth_mbps } : {};
}
