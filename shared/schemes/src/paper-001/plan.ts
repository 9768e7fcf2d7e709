import type { ExperimentSpec, Job, SiteSpec } from '@gridemu/model';
import { DriverActor } from '@gridemu/actors';
import { ExecutorActor } from './executor-actor.js';
import type { LocalSchedulerOptions } from './local-scheduler-actor.js';
import { siteActors, transferOf } from './site-actors.js';
import { DRIVER, siteAddress } from '@gridemu/protocol';
import type { GridActor, GridPlan } from '../scheme-module.js';
import { CentralActor } from './central-actor.js';
import { HierarchicalActor } from './hierarchical-actor.js';
import { paper001Meta } from './meta.js';
import { MetaschedulerActor } from './metascheduler-actor.js';
import { CENTRAL, CENTRAL_LOCATION, LOAD_TOPIC, UNIFIED_SITE } from './names.js';

/**
 * The actors each of paper 001's schemes needs. `independent`: every site schedules only its own
 * stream. `unified`: one site with every site's processors takes every stream (Figure 6).
 * `centralized`, `hierarchical`: one central metascheduler that users submit to (§2.1.1, §2.1.2),
 * in a process of its own. `distributed`, `k-distributed`, `k-dual`: a metascheduler per site
 * (§2.1.3, §4), which hears the sites' load on the load topic.
 */
export function planPaper001(spec: ExperimentSpec, jobs: readonly Job[]): GridPlan {
  const meta = paper001Meta(spec);
  const sites = { services: {}, execSites: spec.sites };
  switch (meta.scheme) {
    case 'independent': {
      const driver = new DriverActor(jobs, (job) => siteAddress(job.origin, 'scheduler'));
      return { ...sites, actors: [driverPlacement(driver), ...spec.sites.flatMap((s) => siteActors(spec, s))], driver };
    }
    case 'unified': {
      const whole: SiteSpec = { id: UNIFIED_SITE, cpus: spec.sites.reduce((n, s) => n + s.cpus, 0) };
      const driver = new DriverActor(jobs, () => siteAddress(UNIFIED_SITE, 'scheduler'));
      return {
        services: {},
        actors: [driverPlacement(driver), ...siteActors(spec, whole)],
        driver,
        execSites: [whole],
      };
    }
    case 'centralized': {
      // Sites keep only an executor, which reports ends to the central metascheduler.
      const driver = new DriverActor(jobs, () => CENTRAL);
      const executors = spec.sites.map((s) => ({
        address: siteAddress(s.id, 'executor'),
        location: s.id,
        actor: new ExecutorActor(s.id, s.cpus, { scheduler: CENTRAL, ...transferOf(spec) }),
      }));
      return {
        ...sites,
        services: { [CENTRAL_LOCATION]: 'central' },
        actors: [
          driverPlacement(driver),
          { address: CENTRAL, location: CENTRAL_LOCATION, actor: new CentralActor(spec.sites) },
          ...executors,
        ],
        driver,
      };
    }
    case 'hierarchical': {
      const driver = new DriverActor(jobs, () => CENTRAL);
      const siteList = spec.sites.flatMap((s) => siteActors(spec, s, transferOf(spec)));
      const central = {
        address: CENTRAL,
        location: CENTRAL_LOCATION,
        actor: new HierarchicalActor(spec.sites, meta.query_timeout_s),
      };
      return {
        ...sites,
        services: { [CENTRAL_LOCATION]: 'central' },
        actors: [driverPlacement(driver), central, ...siteList],
        driver,
      };
    }
    case 'distributed':
    case 'k-distributed':
    case 'k-dual': {
      // Every site has a metascheduler that users submit to; schedulers publish their load to all of them.
      const scheme = meta.scheme;
      const driver = new DriverActor(jobs, (job) => siteAddress(job.origin, 'meta'));
      const scheduling: LocalSchedulerOptions = {
        gossip: true,
        loadPeriod_s: meta.load_period_s,
        claimTimeout_s: meta.claim_timeout_s,
        claimMode: meta.claim,
        ...transferOf(spec),
      };
      const actors = spec.sites.flatMap((s) => [
        {
          address: siteAddress(s.id, 'meta'),
          location: s.id,
          topics: [LOAD_TOPIC],
          actor: new MetaschedulerActor(s.id, { scheme, k: meta.k, sites: spec.sites }),
        },
        ...siteActors(spec, s, scheduling),
      ]);
      return { ...sites, actors: [driverPlacement(driver), ...actors], driver };
    }
  }
}

function driverPlacement(driver: DriverActor): GridActor {
  return { address: DRIVER, location: undefined, actor: driver };
}
