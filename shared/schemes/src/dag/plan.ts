import type { ExperimentSpec, Job } from '@gridemu/model';
import { DriverActor } from '@gridemu/actors';
import { DRIVER } from '@gridemu/protocol';
import type { GridActor, GridPlan } from '../scheme-module.js';
import { CheckpointServerActor } from './checkpoint-server-actor.js';
import { InformationServiceActor } from './information-service-actor.js';
import { dagGridOf, dagMeta } from './meta.js';
import { CHECKPOINT_SERVER, crsAddress, INFORMATION_SERVICE, SCHEDULER, SERVICES_LOCATION } from './names.js';
import { DagSchedulerActor } from './scheduler-actor.js';
import { DagSiteActor } from './site-actor.js';

/**
 * Paper 003's grid (§4, Figure 4): the general services, GSched with the IS and the CS, at a
 * location of their own; each site an actor for its CRs, as many as the site's `cpus`, with MIPS
 * drawn from the seed. Every task goes to GSched, which learns each DAG from its tasks as they are
 * submitted (a live process is planned without the workload).
 */
export function planDag(spec: ExperimentSpec, jobs: readonly Job[]): GridPlan {
  const meta = dagMeta(spec);
  const grid = dagGridOf(spec);
  const actors: GridActor[] = [
    {
      address: SCHEDULER,
      location: SERVICES_LOCATION,
      actor: new DagSchedulerActor({
        scheme: meta.scheme,
        grid,
        siteActor: crsAddress,
        informationService: INFORMATION_SERVICE,
        round_period_s: meta.round_period_s,
        min_improvement: meta.min_improvement,
        ...(meta.limit_basis === 'estimate' ? { limit_factor: 1 + meta.growth_limit } : {}),
      }),
    },
    { address: INFORMATION_SERVICE, location: SERVICES_LOCATION, actor: new InformationServiceActor() },
    { address: CHECKPOINT_SERVER, location: SERVICES_LOCATION, actor: new CheckpointServerActor(SCHEDULER) },
    ...spec.sites.map((s) => ({
      address: crsAddress(s.id),
      location: s.id,
      actor: new DagSiteActor({
        site: s.id,
        resources: grid.resources.filter((r) => r.site === s.id),
        model: meta.model,
        ...(meta.model_exponent === undefined ? {} : { model_exponent: meta.model_exponent }),
        progress_period_s: meta.progress_period_s,
        checkpoint_delay_s: meta.checkpoint_delay_s,
        checkpoint_bytes: grid.params.file_bytes,
        scheduler: SCHEDULER,
        informationService: INFORMATION_SERVICE,
        checkpointServer: CHECKPOINT_SERVER,
      }),
    })),
  ];
  const driver = new DriverActor(jobs, () => SCHEDULER);
  return {
    actors: [{ address: DRIVER, location: undefined, actor: driver }, ...actors],
    driver,
    execSites: spec.sites,
    services: { [SERVICES_LOCATION]: 'dag' },
  };
}
