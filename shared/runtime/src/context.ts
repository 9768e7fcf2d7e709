import type { Address } from '@gridemu/protocol';
import type { ActorContext, ActorPlacement, JobTracer, Logger, MetricsSink, TimerId } from './actor.js';
import type { Rng } from './rng.js';

/** What a runtime does for an actor's context: the one place the two runtimes differ. */
export interface ContextHost<M extends { readonly type: string }> {
  /** The time of the delivery `self` is handling. */
  now(self: Address): number;
  send(from: ActorPlacement<M>, to: Address, msg: M): void;
  publish(from: ActorPlacement<M>, topic: string, msg: M): void;
  schedule(self: ActorPlacement<M>, delay_s: number, msg: M): TimerId;
  cancel(self: ActorPlacement<M>, timer: TimerId): void;
}

/**
 * The context an actor gets, built the same way by SimRuntime and LiveRuntime, so
 * location, timers and cancel behave alike in both; only the host's moves differ.
 */
export function makeContext<M extends { readonly type: string }>(
  host: ContextHost<M>,
  placement: ActorPlacement<M>,
  rng: Rng,
  log: Logger,
  metrics: MetricsSink,
  trace?: JobTracer,
): ActorContext<M> {
  const self = placement.address;
  return {
    self,
    location: placement.location,
    now: () => host.now(self),
    send: (to, msg) => host.send(placement, to, msg),
    publish: (topic, msg) => host.publish(placement, topic, msg),
    schedule: (delay_s, msg) => {
      if (!(delay_s >= 0)) throw new Error(`${self} scheduled ${msg.type} with delay ${delay_s}`);
      return host.schedule(placement, delay_s, msg);
    },
    cancel: (timer) => host.cancel(placement, timer),
    rng,
    log,
    metrics,
    ...(trace ? { trace } : {}),
  };
}
