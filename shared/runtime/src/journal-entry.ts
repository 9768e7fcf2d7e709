import type { Address, Message } from '@gridemu/protocol';

/**
 * One delivery, with the time its actor's clock read while handling it (`t`). A bus message carries
 * the envelope it arrived in, as it arrived (the replay decodes it again); a message between actors
 * of the process carries only its sequence number, since the replay sends it again. A timer
 * carries its message too: one cancelled after it fired is still delivered, and the replay must
 * deliver it the same. `ack` is an acknowledgement this process received for the durable messages it
 * sent on `link`, every one numbered up to `upto` (Envelope.lseq), so the replay does not resend them.
 * `bus_outage` is an edge of this process's connection to the bus (BusOutages).
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
      /**
       * The run's clock when it reached the mailbox, so that a restart measures its arrival and its
       * wait there again, as it measures its felt delay (network.json's mailbox split).
       */
      readonly posted?: number;
    }
  | { readonly k: 'local'; readonly a: Address; readonly t: number; readonly seq: number }
  | {
      readonly k: 'timer';
      readonly a: Address;
      readonly t: number;
      readonly id: number;
      readonly msg: Message;
      /**
       * When it was due, fired into the mailbox and was handled (the run's clock), so that a
       * restart measures its lateness again (network.json's timer timeline), as it measures a
       * message's felt delay: else a restarted process's report holds only the timers of its last life.
       */
      readonly fired?: TimerFired;
    }
  | { readonly k: 'recover'; readonly a: Address; readonly t: number; readonly crashed_s: number }
  | { readonly k: 'ack'; readonly link: string; readonly upto: number }
  /**
   * This process was cut off from the bus (`cut`) or back on it (`back`) at `at_s`, the run's
   * clock: a restart knows its earlier lives' outages, as it knows their deliveries, so that what
   * crossed one is counted as the fault's again, and the run's outages hold them.
   */
  | { readonly k: 'bus_outage'; readonly edge: 'cut' | 'back'; readonly at_s: number };

/** When a timer was due, fired into its actor's mailbox, and was handled: the run's clock, emulated s. */
export interface TimerFired {
  readonly due_s: number;
  readonly at_s: number;
  readonly handled_s: number;
}

/** What one append holds: the entries of one turn of the run loop, numbered from 1. */
export interface JournalBatch {
  readonly seq: number;
  /**
   * The highest batch whose output (messages and log lines) had left the process when this one
   * was encoded (0: none). A restart writes again the log lines of the batches after the highest it
   * reads, since a crash between a batch's store and its output's release took them (LiveRecovery).
   */
  readonly released?: number;
  readonly entries: readonly JournalEntry[];
}
