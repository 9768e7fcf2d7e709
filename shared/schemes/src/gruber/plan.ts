import type { ExperimentSpec, Job } from '@gridemu/model';
import { DriverActor } from '@gridemu/actors';
import { DRIVER, type Address } from '@gridemu/protocol';
import { Rng } from '@gridemu/runtime';
import type { GridActor, GridPlan } from '../scheme-module.js';
import { couldEverOffer } from './availability.js';
import { isBlastSource } from './blast-source.js';
import { EngineActor } from './engine-actor.js';
import { gruberMeta, groupCap } from './meta.js';
import { drawnSites } from './drawn-sites.js';
import { proneSites } from './misbehaviour.js';
import { MonitorActor } from './monitor-actor.js';
import {
  DECISIONS_TOPIC,
  engineAddress,
  engineLocation,
  lrmAddress,
  monitorAddress,
  SUBMIT_LOCATION,
  submitHostAddress,
  USAGE_TOPIC,
} from './names.js';
import { SiteSelector } from './selector.js';
import { GruberSiteActor } from './site-actor.js';
import { SubmitHostActor } from './submit-host-actor.js';

/**
 * GRUBER's grid (§2, Figure 1): each site runs its resource manager and a monitor; the engine, or
 * `decision_points` of them (DI-GRUBER), run as `gruber` services; so do the submit hosts, one
 * per BLAST submitter, at a location of their own; the driver hands each its group's jobs. Jobs of other sources are
 * local users' load, submitted straight to their site's resource manager.
 */
export function planGruber(spec: ExperimentSpec, jobs: readonly Job[]): GridPlan {
  const meta = gruberMeta(spec);
  const siteIds = spec.sites.map((s) => s.id);
  const actors: GridActor[] = [];
  const prone = meta.misbehaving ? proneSites(meta.misbehaving, siteIds, spec.seed) : new Set<string>();
  const misconfigured = drawnSites(meta.failures.misconfigured, siteIds, spec.seed, 'gruber/misconfigured-sites');
  for (const s of spec.sites) {
    actors.push({
      address: lrmAddress(s.id),
      location: s.id,
      actor: new GruberSiteActor(s, meta, spec.seed, {
        prone: prone.has(s.id),
        misconfigured: misconfigured.has(s.id),
      }),
    });
    actors.push({
      address: monitorAddress(s.id),
      location: s.id,
      actor: new MonitorActor(lrmAddress(s.id), meta.monitor_period_s),
    });
  }
  const services: Record<string, string> = {};
  for (let n = 1; n <= meta.decision_points; n++) {
    services[engineLocation(n)] = 'gruber';
    actors.push({
      address: engineAddress(n),
      location: engineLocation(n),
      topics: [USAGE_TOPIC, DECISIONS_TOPIC],
      actor: new EngineActor(n, spec.sites, meta),
    });
  }
  // One submit host per submitting group, each served by a decision point in turn.
  const hostOf = new Map<string, Address>();
  const brokered = new Set<string>();
  let n = 0;
  for (const source of spec.workload) {
    if (!isBlastSource(source)) continue;
    brokered.add(source.name);
    for (const group of source.blast.groups) {
      n++;
      const address = submitHostAddress(n);
      hostOf.set(group, address);
      const selector = new SiteSelector(meta.selector, siteIds, new Rng(spec.seed, `selector/${n}`));
      const host = new SubmitHostActor(selector, {
        group,
        cap: groupCap(meta, spec.sites, source.blast.vo, group),
        engine: engineAddress(((n - 1) % meta.decision_points) + 1),
        sites: siteIds,
        offerable: (vo, cpus) => spec.sites.filter((s) => couldEverOffer(meta, s, vo, cpus)).map((s) => s.id),
        starvation_timeout_s: meta.starvation_timeout_s,
        retries: meta.retries,
        retry_wait_s: meta.retry_wait_s,
        query_timeout_s: meta.query_timeout_s,
      });
      actors.push({ address, location: SUBMIT_LOCATION, actor: host });
      services[SUBMIT_LOCATION] = 'gruber';
    }
  }
  const driver = new DriverActor(jobs, (job) =>
    brokered.has(job.workload) ? hostOf.get(String(job.group))! : lrmAddress(job.origin),
  );
  return {
    actors: [{ address: DRIVER, location: undefined, actor: driver }, ...actors],
    driver,
    execSites: spec.sites,
    services,
  };
}
