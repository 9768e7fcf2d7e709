import type { Address } from '@gridemu/protocol';
import type { BusTarget } from './transport.js';
import { wallNow_ms } from './wall-clock.js';

/** A durable message sent and not yet acknowledged. */
interface Unacknowledged {
  readonly target: { readonly actor: Address };
  readonly from: Address;
  readonly bytes: Uint8Array;
  sent_ms: number;
}

/** Where a process's runtime hears acknowledgements for what its actors at `location` sent. */
export function runtimeAddress(location: string): Address {
  return `${location}/runtime`;
}

/**
 * Exactly-once delivery of durable messages over a bus that may lose what is in flight (a
 * nats-server restart): each is sent with an id and kept until the receiving runtime acknowledges
 * it, and resent meanwhile; a receiver delivers each id once and acknowledges every copy.
 */
export class DurableOutbox {
  private readonly unacknowledged = new Map<string, Unacknowledged>();
  /** Ids of the durable messages delivered here (a resent one is acknowledged again, not delivered). */
  private readonly seen = new Set<string>();
  private nextMid = 1;
  private resender: NodeJS.Timeout | undefined;

  constructor(private readonly publish: (target: BusTarget, from: Address, bytes: Uint8Array) => void) {}

  /** A new message id, unique to the sending location within the run. */
  nextId(sender: string): string {
    return `${sender}-${this.nextMid++}`;
  }

  /** Keeps a message until it is acknowledged; `sent_ms` -Infinity: resend at the first chance. */
  keep(mid: string, target: { readonly actor: Address }, from: Address, bytes: Uint8Array, sent_ms: number): void {
    this.unacknowledged.set(mid, { target, from, bytes, sent_ms });
  }

  /** The receiver has it; true if it was still waiting here. */
  acknowledged(mid: string): boolean {
    return this.unacknowledged.delete(mid);
  }

  /** Whether `mid` is delivered here for the first time; it is remembered either way. */
  firstDelivery(mid: string): boolean {
    if (this.seen.has(mid)) return false;
    this.seen.add(mid);
    return true;
  }

  /** Resends what has waited over `after_ms` for its acknowledgement; returns how many went. */
  resend(after_ms: number): number {
    const now = wallNow_ms();
    let n = 0;
    for (const u of this.unacknowledged.values()) {
      if (now - u.sent_ms < after_ms) continue;
      u.sent_ms = now;
      n++;
      this.publish(u.target, u.from, u.bytes);
    }
    return n;
  }

  /** Resends on a period of half `resend_ms`, calling `onResent` with each round's count. */
  startResending(resend_ms: number, onResent: (n: number) => void): void {
    this.resender = setInterval(() => onResent(this.resend(resend_ms)), Math.max(1, resend_ms / 2));
  }

  stop(): void {
    clearInterval(this.resender);
  }
}
