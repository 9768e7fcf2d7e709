import type { NatsConnection } from '@nats-io/transport-node';
import { wallNow_ms } from '@gridemu/runtime/live';

/**
 * A short probe before a live run (the fidelity guard): what one trip through the server
 * costs now, and how late a short timer fires. The driver publishes to itself on its own control
 * subject, one message at a time; a trip from a process to itself crosses the server as one from a
 * process to another does. Medians of a few samples: the machine is shared and noisy.
 */
export interface BusProbe {
  readonly hop_ms: number;
  readonly timer_lag_ms: number;
  readonly samples: number;
}

export async function probeBus(nc: NatsConnection, run: string, samples = 20): Promise<BusProbe> {
  const subject = `gridemu-ctl.${run}.probe.driver`;
  const sub = nc.subscribe(subject);
  const hops: number[] = [];
  try {
    const it = sub[Symbol.asyncIterator]();
    for (let i = 0; i < samples; i++) {
      const sent = wallNow_ms();
      nc.publish(subject);
      const got = await it.next();
      if (got.done) break;
      hops.push(wallNow_ms() - sent);
    }
  } finally {
    sub.unsubscribe();
  }
  const lags: number[] = [];
  for (let i = 0; i < samples; i++) {
    const due = wallNow_ms() + 2;
    await new Promise((r) => setTimeout(r, 2));
    lags.push(Math.max(0, wallNow_ms() - due));
  }
  return { hop_ms: median(hops), timer_lag_ms: median(lags), samples: hops.length };
}

function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}
