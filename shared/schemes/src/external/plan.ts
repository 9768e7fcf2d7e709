import type { ExperimentSpec, Job } from '@gridemu/model';
import { DriverActor } from '@gridemu/actors';
import { DRIVER, siteAddress } from '@gridemu/protocol';
import { PolicyProcess } from '@gridemu/runtime';
import type { GridPlan } from '../scheme-module.js';
import { CENTRAL_LOCATION, LOAD_TOPIC } from '../paper-001/names.js';
import { siteActors, transferOf } from '../paper-001/site-actors.js';
import { ExternalMetaschedulerActor } from './external-meta-actor.js';
import { externalMeta } from './meta.js';

/**
 * The `external` scheme's grid: paper 001's distributed set-up (a metascheduler per site that users
 * submit to, local schedulers gossiping their load), with each metascheduler's choices made by the
 * user's policy process beside it. The process starts at its actor's first request, so a live
 * process starts only the policies of the actors it hosts.
 */
export function planExternal(spec: ExperimentSpec, jobs: readonly Job[]): GridPlan {
  const meta = externalMeta(spec);
  const driver = new DriverActor(jobs, (job) =>
    siteAddress(meta.locations === 'central' ? CENTRAL_LOCATION : job.origin, 'meta'),
  );
  const policies: PolicyProcess[] = [];
  const policyAt = (site: string) => {
    const p = new PolicyProcess(
      meta.command,
      `the external policy at ${site}`,
      meta.answer_timeout_s * 1000,
      meta.startup_timeout_s * 1000,
    );
    policies.push(p);
    return p;
  };
  const central = meta.locations === 'central';
  const scheduling = {
    gossip: true,
    loadPeriod_s: meta.load_period_s,
    claimTimeout_s: meta.claim_timeout_s,
    claimMode: 'hold' as const,
    ...transferOf(spec),
  };
  const metaAt = (location: string) => ({
    address: siteAddress(location, 'meta'),
    location,
    topics: [LOAD_TOPIC],
    actor: new ExternalMetaschedulerActor(location, spec.sites, policyAt(location), meta.claims),
  });
  const actors = [
    ...(central ? [metaAt(CENTRAL_LOCATION)] : []),
    ...spec.sites.flatMap((s) => [...(central ? [] : [metaAt(s.id)]), ...siteActors(spec, s, scheduling)]),
  ];
  return {
    services: central ? { [CENTRAL_LOCATION]: 'central' } : {},
    execSites: spec.sites,
    actors: [{ address: DRIVER, location: undefined, actor: driver }, ...actors],
    driver,
    close: () => {
      for (const p of policies) p.close();
    },
  };
}
