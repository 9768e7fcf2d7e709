import type { Address } from '@gridemu/protocol';

/** Where bytes go on a bus: one actor's inbox, or a topic every interested process hears. */
export type BusTarget = { readonly actor: Address } | { readonly topic: string };

export interface BusSubscription {
  unsubscribe(): void;
}

/**
 * What LiveRuntime needs from a message bus (STYLE.md 1: the core never sees sockets). It moves
 * bytes only: the codec (shared/protocol) makes and checks them. The NATS implementation is the
 * package @gridemu/transport-nats; a runtime never sends through it to an actor it hosts itself.
 */
export interface Transport {
  /** Bytes from the actor `from` (the bus names its sender, so it may hold a process to its own name). */
  publish(target: BusTarget, from: Address, bytes: Uint8Array): void;
  /** `sender` is who the bus says sent it (senderOf of the sending actor's address). */
  subscribe(target: BusTarget, onBytes: (bytes: Uint8Array, subject: string, sender: string) => void): BusSubscription;
  /** Resolves once the bus has every subscription made so far, and what was published is sent. */
  flush(): Promise<void>;
  /** The transport's own counters for summary.json (the NATS transport: messages that crossed the server, several payloads to one subject going as one). */
  counts?(): Iterable<readonly [string, number]>;
  /**
   * Calls `listener` each time the connection to the bus is made again after it was lost: what was
   * in flight may be lost. Returns what stops the calls: a runtime that has stopped must hear
   * nothing more of a connection it shared (a warm-up's heard the run's server restart and wrote
   * into the run's journal: LiveRuntime.stop).
   */
  onReconnect?(listener: () => void): () => void;
  /** Calls `listener` each time the connection to the bus is lost (a server restart): until the reconnect, nothing crosses. Returns what stops the calls. */
  onDisconnect?(listener: () => void): () => void;
}

/** The envelope's `to` for a topic message (an actor address never starts with `#`). */
export function topicRecipient(topic: string): string {
  return `#${topic}`;
}
