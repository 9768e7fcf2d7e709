import type { Address } from '@gridemu/protocol';
import { senderOf } from './subjects.js';
import type { BusSubscription, BusTarget, Transport } from './transport.js';

type Listener = (bytes: Uint8Array, subject: string, sender: string) => void;

/**
 * An in-memory message bus for tests of a live runtime where the server is not the subject (as
 * moleculer's fake transporter is): every Transport it makes shares its subscriptions, and a
 * publish reaches each subscriber of its target on a later turn of the event loop, as a message
 * over a socket would. It can lose what is in flight (`dropInFlight`), as a server restart does.
 */
export class MemoryBus {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly inFlight = new Set<() => void>();

  /** A transport on this bus: what one process would hold. */
  transport(): Transport {
    return {
      publish: (target, from, bytes) => this.publish(target, from, bytes),
      subscribe: (target, onBytes) => this.subscribe(target, onBytes),
      flush: () => new Promise<void>((resolve) => setImmediate(resolve)),
    };
  }

  /** Forgets every message published and not yet delivered. */
  dropInFlight(): void {
    this.inFlight.clear();
  }

  private publish(target: BusTarget, from: Address, bytes: Uint8Array): void {
    const key = keyOf(target);
    const sender = senderOf(from);
    const copy = bytes.slice();
    const deliver = (): void => {
      if (!this.inFlight.delete(deliver)) return;
      for (const listener of this.listeners.get(key) ?? []) {
        listener(copy, `${key}.${sender}`, sender);
      }
    };
    this.inFlight.add(deliver);
    setImmediate(deliver);
  }

  private subscribe(target: BusTarget, onBytes: Listener): BusSubscription {
    const key = keyOf(target);
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(onBytes);
    return { unsubscribe: () => void set.delete(onBytes) };
  }
}

function keyOf(target: BusTarget): string {
  return 'actor' in target ? `actor.${target.actor}` : `topic.${target.topic}`;
}
