import type { ExperimentSpec, SiteSpec } from '@gridemu/model';
import { siteAddress, type Message } from '@gridemu/protocol';
import type { ActorPlacement } from '@gridemu/runtime';
import { createLocalPolicy } from '@gridemu/scheduling';
import { ExecutorActor } from './executor-actor.js';
import { LocalSchedulerActor, type LocalSchedulerOptions } from './local-scheduler-actor.js';

/** A site's local scheduler and executor, placed at the site, with the spec's local policy. */
export function siteActors(
  spec: ExperimentSpec,
  site: SiteSpec,
  options: LocalSchedulerOptions = {},
): ActorPlacement<Message>[] {
  return [
    {
      address: siteAddress(site.id, 'scheduler'),
      location: site.id,
      actor: new LocalSchedulerActor(site.id, createLocalPolicy(spec.local.policy, site.cpus), options),
    },
    {
      address: siteAddress(site.id, 'executor'),
      location: site.id,
      actor: new ExecutorActor(site.id, site.cpus, transferOf(spec)),
    },
  ];
}

/** The transfer bandwidth, when the spec charges for moving jobs (paper 001 §7). */
export function transferOf(spec: ExperimentSpec): { transferBandwidth_mbps?: number } {
  return spec.network.transfer ? { transferBandwidth_mbps: spec.network.transfer.bandwidth_mbps } : {};
}
