import type { Address, Message } from '@gridemu/protocol';
import { JournalBatchWriter, decodeJournalBatch } from './journal-codec.js';

/**
 * A process's journal (docs/faults.md "Live crashes"): the deliveries its actors handled,
 * in order, so that a restarted process can replay them through fresh actors and come back with the
 * state it had. The runtime only appends and reads; where it lives (a JetStream stream in a live
 * run, memory in tests) is the implementation's business.
 */
export interface Journal {
  /**
   * Appends batch number `seq` (its bytes); resolves once it is stored and would be read back after
   * a crash. A retry of one seq must not store it twice where the store can tell (JetStream's
   * message id); where it cannot, the replay skips a repeated seq.
   */
  append(batch: Uint8Array, seq: number): Promise<void>;
  /** Every batch stored before this incarnation of the process began (what a restart replays), in append order. */
  readAll(): Promise<Uint8Array[]>;
  /** Which start of the process this is, where the store numbers them (1 for the first). */
  readonly incarnation?: number;
  /**
   * True where an append has stored its batch by the time it returns (a local file's write(2),
   * memory): the writer then appends each turn as it ends, and its output leaves at once, rather
   * than gathering a loop pass's turns into one append as it does for a store over the network.
   */
  readonly synchronous?: boolean;
}

/**
 * An append the store refused for good: a newer incarnation of the process has taken the journal
 * over (fenced it). The refused incarnation must stop; retrying cannot help.
 */
export class JournalRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JournalRefusedError';
  }
}

/**
 * One delivery, with the time its actor's clock read while handling it (`t`). A bus message carries
 * the envelope it arrived in, as it arrived (the replay decodes it again); a message between actors
 * of the process carries only its sequence number, since the replay sends it again. A timer
 * carries its message too: one cancelled after it fired is still delivered, and the replay must
 * deliver it the same. `ack` is an acknowledgement this process received for a durable message it
 * sent, so the replay does not resend it.
 */
export type JournalEntry =
  | { readonly k: 'start'; readonly a: Address; readonly t: number }
  | {
      readonly k: 'bus';
      readonly a: Address;
      readonly t: number;
      /** The envelope's bytes (@gridemu/protocol's wire format): sender, message and durable id. */
      readonly envelope: Uint8Array;
      readonly topic?: true;
    }
  | { readonly k: 'local'; readonly a: Address; readonly t: number; readonly seq: number }
  | { readonly k: 'timer'; readonly a: Address; readonly t: number; readonly id: number; readonly msg: Message }
  | { readonly k: 'recover'; readonly a: Address; readonly t: number; readonly crashed_s: number }
  | { readonly k: 'ack'; readonly mid: string };

/** What one append holds: the entries of one turn of the run loop, numbered from 1. */
export interface JournalBatch {
  readonly seq: number;
  readonly entries: readonly JournalEntry[];
}

const writer = new JournalBatchWriter();

/** Encodes a batch for the store (JournalBatchWriter's layout); decodeJournalBatch reads it back. */
export function encodeJournalBatch(batch: JournalBatch): Uint8Array {
  return writer.encode(batch);
}

export { decodeJournalBatch };

/** A journal in memory: for tests, and for a process that is restarted within itself. */
export class MemoryJournal implements Journal {
  readonly batches: Uint8Array[] = [];
  readonly synchronous = true;

  append(batch: Uint8Array, _seq: number): Promise<void> {
    this.batches.push(batch.slice());
    return Promise.resolve();
  }

  readAll(): Promise<Uint8Array[]> {
    return Promise.resolve([...this.batches]);
  }
}
