import { onItsWayDuring } from './fault-schedule.js';

/** A span of emulated time during which a process was cut off from the bus. */
export interface OutageSpan {
  readonly from_s: number;
  readonly to_s: number;
}

/**
 * When this process was cut off from the bus (a nats-server restart), in emulated seconds: from
 * its client's disconnection to its reconnection. A message between processes that was on its
 * way across such a span waited for the server, not for the link, so its felt delay is the
 * fault's (docs/faults.md); and the spans, merged over the run's processes, are the outages a
 * replay of the run applies.
 */
export class BusOutages {
  private readonly closed: OutageSpan[] = [];
  private openFrom_s: number | undefined;

  disconnected(now_s: number): void {
    this.openFrom_s ??= now_s;
  }

  reconnected(now_s: number): void {
    if (this.openFrom_s === undefined) return;
    this.closed.push({ from_s: this.openFrom_s, to_s: Math.max(now_s, this.openFrom_s) });
    this.openFrom_s = undefined;
  }

  /** Whether a message sent at `sent_s` and handled at `handled_s` was on its way while this process was cut off. */
  crossed(sent_s: number, handled_s: number): boolean {
    if (this.openFrom_s !== undefined && handled_s >= this.openFrom_s) return true;
    return this.closed.some((s) => onItsWayDuring(s, sent_s, handled_s));
  }

  /** The spans so far; one still open ends at `now_s`. */
  spans(now_s: number): OutageSpan[] {
    const open = this.openFrom_s;
    return open === undefined ? [...this.closed] : [...this.closed, { from_s: open, to_s: Math.max(now_s, open) }];
  }
}

/**
 * Spans of several processes as the run's outages: sorted, those that overlap or touch merged into
 * one, and none before `epoch_s`, where the run's clock starts. A process reads earlier times
 * during the start margin, and a server lost then (a run stopped as it began) made an outage
 * before the first submission, which a replay refuses as a fault time.
 */
export function mergeOutages(spans: Iterable<OutageSpan>, epoch_s = -Infinity): OutageSpan[] {
  const merged: { from_s: number; to_s: number }[] = [];
  const onTheClock = [...spans]
    .filter((s) => s.to_s > epoch_s)
    .map((s) => ({ from_s: Math.max(s.from_s, epoch_s), to_s: s.to_s }));
  for (const s of onTheClock.sort((a, b) => a.from_s - b.from_s)) {
    const last = merged[merged.length - 1];
    if (last && s.from_s <= last.to_s) last.to_s = Math.max(last.to_s, s.to_s);
    else merged.push({ from_s: s.from_s, to_s: s.to_s });
  }
  return merged;
}
