import { LatencyHistogram, histogramOf, nestedHistogramOf } from './latency-histogram.js';

/**
 * What a live process measures of its links and its own timeliness: one-way wall latency per link,
 * the delay each delivery's schedule felt (per link, and per message type on each link), and how
 * late timers fire. `gridemu run` reports them, and `simulate --network-from` replays the felt delays.
 */
export class LinkMeter {
  /** One-way wall latency of messages received from another location, per link `from->to`. */
  readonly latency = new Map<string, LatencyHistogram>();
  /**
   * How late timers were handled against their wall deadline: timer granularity, event-loop lag,
   * and the wait in the actor's mailbox behind what arrived first (as a felt delay ends at handling).
   */
  readonly timerLag = new LatencyHistogram();
  /** Felt delay per link, wall ms. */
  readonly felt = new Map<string, LatencyHistogram>();
  /** The same per message type, then per link: what one kind of message felt on a link. */
  readonly feltByType = new Map<string, Map<string, LatencyHistogram>>();
  private lastTimerLate_ms = 0;

  /** A message from location `from` reached location `to` `ms` wall ms after it was sent. */
  recordLatency(from: string, to: string, ms: number): void {
    histogramOf(this.latency, `${from}->${to}`).record(ms);
  }

  recordTimerLag(late_ms: number): void {
    this.timerLag.record(late_ms);
    this.lastTimerLate_ms = late_ms;
  }

  /**
   * The delay a delivery's schedule felt, from the sender's actor time to the receiver's handling
   * time (hop, timer lag, encoding, queues), in emulated seconds, recorded as wall ms.
   */
  recordFelt(link: string, type: string, felt_s: number, speedup: number): void {
    const ms = (Math.max(0, felt_s) / speedup) * 1000;
    histogramOf(this.felt, link).record(ms);
    nestedHistogramOf(this.feltByType, type, link).record(ms);
  }

  /** The lateness of the last timer handled, in emulated seconds at `speedup`. */
  emulatedLag_s(speedup: number): number {
    return (this.lastTimerLate_ms / 1000) * speedup;
  }
}
