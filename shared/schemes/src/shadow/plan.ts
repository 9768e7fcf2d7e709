import type { ExperimentSpec, Job } from '@gridemu/model';
import { DriverActor } from '@gridemu/actors';
import { DRIVER } from '@gridemu/protocol';
import type { GridActor, GridPlan } from '../scheme-module.js';
import { estimatedRate } from './estimates.js';
import { shadowMeta, speedsOf } from './meta.js';
import { ROUTER, ROUTER_LOCATION, resourceAddress } from './names.js';
import { ResourceActor } from './resource-actor.js';
import { RouterActor } from './router-actor.js';

/**
 * Paper 004's grid (§4): one scheduler, far from every resource, routes each arriving task to a
 * resource; each site is a resource with its own rate and FIFO queue. Every task goes through the
 * scheduler, whatever site its trace line names.
 */
export function planShadow(spec: ExperimentSpec, jobs: readonly Job[]): GridPlan {
  const meta = shadowMeta(spec);
  const mu = speedsOf(spec);
  const muHat = spec.sites.map((s, i) => estimatedRate(mu[i]!, s.id, meta.errors, spec.seed));
  const data = { input_bytes: meta.task_bytes, output_bytes: meta.task_output_bytes, spread: meta.task_size_spread };
  const actors: GridActor[] = spec.sites.map((s, i) => ({
    address: resourceAddress(s.id),
    location: s.id,
    actor: new ResourceActor(s.id, s.cpus, mu[i]!, muHat[i]!, {
      link_mbps: meta.link_mbps,
      state_message_bytes: meta.state_message_bytes,
      data,
      seed: spec.seed,
    }),
  }));
  const router = new RouterActor({
    scheme: meta.scheme,
    sites: spec.sites.map((s) => s.id),
    muHat,
    eta: meta.eta,
    errors: meta.errors,
    seed: spec.seed,
    link_mbps: meta.link_mbps,
    state_message_bytes: meta.state_message_bytes,
    data,
    away: spec.sites.map((site) => meta.away[site.id] ?? []),
    query_timeout_s: meta.query_timeout_s,
    class_lengths_s: meta.class_lengths_s,
  });
  actors.push({ address: ROUTER, location: ROUTER_LOCATION, actor: router });
  const driver = new DriverActor(jobs, () => ROUTER);
  return {
    actors: [{ address: DRIVER, location: undefined, actor: driver }, ...actors],
    driver,
    execSites: spec.sites,
    services: { [ROUTER_LOCATION]: 'router' },
  };
}
