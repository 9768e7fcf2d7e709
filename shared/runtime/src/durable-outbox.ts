import type { Address } from '@gridemu/protocol';
import type { BusTarget } from './transport.js';
import { RoundTripEstimate } from './round-trip-estimate.js';
import { senderOf } from './subjects.js';
import { wallNow_ms } from './wall-clock.js';

/** The most a message's wait for its acknowledgement grows by, resend after resend. */
const MAX_BACKOFF = 8;

/** A durable message sent and not yet acknowledged. */
interface Unacknowledged {
  readonly target: { readonly actor: Address };
  readonly from: Address;
  readonly bytes: Uint8Array;
  sent_ms: number;
  /** Times resent: its acknowledgement then cannot tell which copy it answers (Karn's rule). */
  resends: number;
}

/** Where a process's runtime hears acknowledgements for what its actors at `location` sent. */
export function runtimeAddress(location: string): Address {
  return `${location}/runtime`;
}

/**
 * Exactly-once delivery of durable messages over a bus that may lose what is in flight (a
 * nats-server restart): each is sent with an id and kept until the receiving runtime acknowledges
 * it, and resent meanwhile; a receiver delivers each id once and acknowledges every copy.
 *
 * When to resend. A fixed wait of 100 ms resent a third of all messages of a saturated run, whose
 * round trips then exceeded it (every copy a duplicate). So the wait adapts to the round trips
 * measured (RoundTripEstimate), and doubles with each resend of one message up to MAX_BACKOFF times,
 * as TCP's retransmission timer does. A receiver that rejoins after a crash gets what waits for it
 * at once (resendTo), not at its next resend.
 */
export class DurableOutbox {
  private readonly unacknowledged = new Map<string, Unacknowledged>();
  /** Ids of the durable messages delivered here (a resent one is acknowledged again, not delivered). */
  private readonly seen = new Set<string>();
  private nextMid = 1;
  private resender: NodeJS.Timeout | undefined;
  private readonly roundTrips = new RoundTripEstimate();

  constructor(private readonly publish: (target: BusTarget, from: Address, bytes: Uint8Array) => void) {}

  /** A new message id, unique to the sending location within the run. */
  nextId(sender: string): string {
    return `${sender}-${this.nextMid++}`;
  }

  /** Keeps a message until it is acknowledged; `sent_ms` -Infinity: resend at the first chance. */
  keep(mid: string, target: { readonly actor: Address }, from: Address, bytes: Uint8Array, sent_ms: number): void {
    this.unacknowledged.set(mid, { target, from, bytes, sent_ms, resends: 0 });
  }

  /** The receiver has it; true if it was still waiting here. */
  acknowledged(mid: string): boolean {
    const u = this.unacknowledged.get(mid);
    if (!u) return false;
    this.unacknowledged.delete(mid);
    const now = wallNow_ms();
    if (u.resends === 0 && Number.isFinite(u.sent_ms)) this.roundTrips.measured(now - u.sent_ms);
    return true;
  }

  /** Whether `mid` is delivered here for the first time; it is remembered either way. */
  firstDelivery(mid: string): boolean {
    if (this.seen.has(mid)) return false;
    this.seen.add(mid);
    return true;
  }

  /**
   * Resends what has waited over `after_ms` for its acknowledgement (0: everything), doubled for
   * each time the message was resent already, up to MAX_BACKOFF times; returns how many went.
   */
  resend(after_ms: number): number {
    return this.resendWhere((u, now) => now - u.sent_ms >= after_ms * Math.min(MAX_BACKOFF, 2 ** u.resends));
  }

  /** Resends at once everything waiting for `location`'s acknowledgement (it has just rejoined the run). */
  resendTo(location: string): number {
    return this.resendWhere((u) => senderOf(u.target.actor) === location);
  }

  private resendWhere(due: (u: Unacknowledged, now_ms: number) => boolean): number {
    const now = wallNow_ms();
    let n = 0;
    for (const u of this.unacknowledged.values()) {
      if (!due(u, now)) continue;
      u.sent_ms = now;
      u.resends++;
      n++;
      this.publish(u.target, u.from, u.bytes);
    }
    return n;
  }

  /**
   * Every half `floor_ms`, resends what has waited longer than the adaptive timeout (never under
   * `floor_ms`), calling `onResent` with each round's count.
   */
  startResending(floor_ms: number, onResent: (n: number) => void): void {
    this.resender = setInterval(
      () => onResent(this.resend(this.roundTrips.timeout_ms(floor_ms))),
      Math.max(1, floor_ms / 2),
    );
  }

  stop(): void {
    clearInterval(this.resender);
  }
}
