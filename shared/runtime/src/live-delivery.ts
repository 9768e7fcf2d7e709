import type { Address, Message } from '@gridemu/protocol';
import type { Actor, ActorContext, ActorPlacement } from './actor.js';
import type { JournalEntry } from './journal-entry.js';
import type { Inbox } from './mailboxes.js';
import type { OwedAck } from './owed-acks.js';
import type { BusTarget } from './transport.js';

/** A durable message's id: its link (linkOf) and its number on it (Envelope.lseq). */
export interface DurableId {
  readonly link: string;
  readonly n: number;
}

/** How a delivery reached its mailbox: what the journal records to replay it. */
export type DeliverySource =
  | {
      readonly k: 'bus';
      readonly topic: boolean;
      /** The envelope as it arrived: what the journal stores of it. */
      readonly envelope: Uint8Array;
      /** A journaled process's acknowledgement of it, sent once this delivery is recorded (not journaled). */
      readonly ack?: OwedAck;
    }
  | { readonly k: 'local'; readonly seq: number }
  | {
      readonly k: 'timer';
      readonly id: number;
      /** The run's clock when it fired into the mailbox (its due time is the delivery's `at_s`). */
      readonly fired_s?: number;
    };

/** A message (or a timer, with its due time) waiting for its actor. */
export interface Delivery {
  readonly msg: Message;
  readonly from: Address;
  readonly at_s: number | undefined;
  readonly src: DeliverySource;
  /** A message's sender's actor time when it sent: what its felt delay is measured from. */
  readonly sent_s?: number;
  /** The run's clock when a message from another process reached the mailbox. */
  readonly posted_s?: number;
}

/** An actor a live process hosts, with its mailbox and clock. */
export interface HostedActor {
  readonly placement: ActorPlacement<Message>;
  readonly actor: Actor<Message>;
  readonly ctx: ActorContext<Message>;
  /** One message at a time, in arrival order (DESIGN.md: a mailbox per actor). */
  readonly inbox: Inbox<Delivery>;
  /** Its address after the location (`s1/scheduler` → `scheduler`): a label with few values. */
  readonly role: string;
  /**
   * The actor's clock: the emulated time of the delivery it is handling, read once when the delivery
   * starts, never earlier than its previous delivery's (LiveRuntime.guard).
   */
  now_s: number;
}

/** A timer an actor set: its runtime id (the actor's TimerId) travels with it to the mailbox. */
export interface PendingTimer {
  readonly h: HostedActor;
  readonly msg: Message;
  readonly due_s: number;
  readonly rid: number;
}

/** A message between two actors of one process, numbered in send order (the journal names it so). */
export interface LocalMessage {
  readonly h: HostedActor;
  readonly msg: Message;
  readonly from: Address;
}

/**
 * Where what the actors do goes. Running, it leaves: onto the bus, into mailboxes, onto the timer
 * queue, into the log. While a restarted process replays its journal, it goes back into the state
 * the replay rebuilds instead (LiveRecovery), so the send path asks no "are we replaying?".
 */
export interface ActorOutput {
  /**
   * A message to an actor elsewhere, or a topic's subscribers elsewhere. `durable`: a durable
   * message's link and number on it (kept until acknowledged). `bytes` encodes it, called only if
   * it is sent or kept.
   */
  bus(target: BusTarget, from: Address, durable: DurableId | undefined, bytes: () => Uint8Array): void;
  /** A message on a latest-value topic (load gossip): at most one per sender per interval leaves. */
  latestValue(key: string, send: (deferred: boolean) => void): void;
  /** A message to an actor of this process. */
  local(seq: number, m: LocalMessage, sent_s: number | undefined): void;
  timer(t: PendingTimer): void;
  /** Cancels a timer the actor holds; false if this output knows no such timer. */
  cancelTimer(rid: number): boolean;
  /**
   * A log line: `write` writes it, marked `"replayed":true` when `again` (a restart writes a line
   * again that its predecessor may not have written: LiveRecovery).
   */
  log(write: (again: boolean) => void): void;
}

/**
 * The journal's record of a delivery to `a` at actor time `t`; a timer's, with when the run's clock
 * read `handled_s` as its actor got to it (its actor's time is its due time).
 */
export function journalEntryOf(d: Delivery, a: Address, t: number, handled_s?: number): JournalEntry {
  switch (d.src.k) {
    case 'bus':
      return {
        k: 'bus',
        a,
        t,
        envelope: d.src.envelope,
        ...(d.src.topic ? { topic: true } : {}),
        ...(d.posted_s !== undefined ? { posted: d.posted_s } : {}),
      };
    case 'local':
      return { k: 'local', a, t, seq: d.src.seq };
    case 'timer':
      return {
        k: 'timer',
        a,
        t,
        id: d.src.id,
        msg: d.msg,
        ...(d.src.fired_s !== undefined && d.at_s !== undefined && handled_s !== undefined
          ? { fired: { due_s: d.at_s, at_s: d.src.fired_s, handled_s } }
          : {}),
      };
  }
}
