import type { ExperimentSpec } from '@gridemu/model';
import { DURABLE_MESSAGES } from '@gridemu/schemes';

/**
 * Whether a live run's runtimes resend durable messages until acknowledged: when its
 * spec restarts the nats-server, which loses every message in flight, or kills a process, which
 * hears nothing while it is down and loses what it had not yet journaled. The wait before a resend is
 * a few round trips of the spec's slowest link, in wall milliseconds, and never under 100.
 */
export function reliableDelivery(spec: ExperimentSpec): {
  reliable?: { types: ReadonlySet<string>; resend_ms: number };
} {
  if (spec.faults.nats_restart.length === 0 && spec.faults.crash.length === 0 && spec.live.journal !== true) return {};
  const links = [
    spec.network.latency_ms,
    ...Object.values(spec.network.matrix ?? {}).flatMap((row) => Object.values(row)),
  ];
  const slowest_ms = Math.max(...links) + spec.network.jitter_ms;
  return { reliable: { types: DURABLE_MESSAGES, resend_ms: Math.max(100, 4 * slowest_ms) } };
}
