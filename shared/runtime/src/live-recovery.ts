import type { Address, Message } from '@gridemu/protocol';
import type { DurableOutbox } from './durable-outbox.js';
import type { JournalEntry, TimerFired } from './journal-entry.js';
import type { JournalWriter } from './journal-writer.js';
import type { ActorOutput, HostedActor, LocalMessage, PendingTimer } from './live-delivery.js';
import type { RunCounters } from './run-counters.js';
import { siteOf } from './subjects.js';
import { linkOf, type LinkOrder } from './link-order.js';
import type { StoredThrough } from './stored-through.js';

/** What a replay needs of the runtime it rebuilds. */
export interface RecoveryHost {
  hostedAt(address: Address): HostedActor | undefined;
  readonly outbox: DurableOutbox;
  readonly linkOrder: LinkOrder;
  /** What this process may acknowledge of each link: a replayed delivery was stored. */
  readonly storedThrough: StoredThrough;
  readonly tally: RunCounters;
  /**
   * Hands a replayed message to its actor, counted as its first delivery was; `felt`, when the
   * message carried its sending time, is what its first delivery measured (ReplayedFelt).
   */
  redeliver(h: HostedActor, msg: Message, from: Address, felt?: ReplayedFelt): void;
  /**
   * A replayed timer of `h` whose entry kept when it was due, fired and was handled:
   * measured again as its first delivery measured it. `heldByCrash`: due before an earlier
   * restart of this process resumed, so late by that crash.
   */
  timerReplayed(h: HostedActor, fired: TimerFired, heldByCrash: boolean): void;
  /** An earlier life of this process was cut off from the bus (`cut`) or back on it (`back`) at `at_s`. */
  busOutageReplayed(edge: 'cut' | 'back', at_s: number): void;
  /** A stored bus message's envelope, decoded and checked as it was on arrival. */
  decodeStored(envelope: Uint8Array): {
    readonly from: Address;
    readonly msg: Message;
    readonly lseq?: number;
    readonly at_s?: number;
  };
}

/**
 * What a replayed delivery's first delivery measured: sent at `sent_s` (the sender's actor time)
 * and handled at the time its journal entry holds. `heldByCrash`: the process that handled it had
 * itself been restarted, and the message was sent before that restart resumed, so it waited for
 * the crash (LiveRecovery.heldByCrash), not on its link.
 */
export interface ReplayedFelt {
  readonly sent_s: number;
  readonly heldByCrash: boolean;
  /** When it reached the mailbox, for a message from another process whose entry kept it. */
  readonly posted_s?: number;
}

/** What a replay read from the journal. */
export interface ReplayCount {
  readonly batches: number;
  readonly entries: number;
  /** The last delivery the journal holds, emulated seconds (-Infinity: none). */
  readonly last_s: number;
}

/**
 * How a restarted process gets back the state it had: its journal is replayed through its fresh
 * actors, each handling what it handled before at the time it did. While that runs, what they do
 * goes nowhere (`output`): what they sent was sent the first time; a durable message is kept to be
 * resent unless the journal says it was acknowledged; timers are kept to arm once the clock runs
 * again; a message between two of its actors is kept for the delivery the journal names; log lines
 * were written the first time, but for the last batches', which may not have been
 * (writeUnreleasedLines). What the bus brings meanwhile waits (hold) until the replay is done,
 * and is judged then, once the messages already delivered are known again.
 */
export class LiveRecovery {
  private restoring = true;
  private replayed = false;
  /** The journal was replayed to its end (replay's `final`). */
  private replayDone = false;
  /** What the replay has applied so far. */
  private readonly count = { batches: 0, entries: 0, last_s: Number.NEGATIVE_INFINITY };
  private readonly held: (() => void)[] = [];
  private readonly unarmedTimers = new Map<number, PendingTimer>();
  private readonly undeliveredLocal = new Map<number, LocalMessage>();
  /** When each of those was sent, the sender's actor time. */
  private readonly localSent = new Map<number, number>();
  /** From the death to the resume of the process this one replaced (emulated seconds), once resumed. */
  private downWhile: readonly [number, number] | undefined;
  /** The latest resume the journal holds, of an earlier restart of this process (emulated s). */
  private journaledResume_s = Number.NEGATIVE_INFINITY;
  /** Actors whose start turn the journal held. */
  private readonly startedActors = new Set<Address>();
  /** The batch being replayed, and the highest batch whose output the journal says had left. */
  private readonly replaying = { seq: 0, released: 0 };
  /**
   * The log lines of the replayed batches past `replaying.released`, in order: the predecessor
   * stored them and may have died before its output left (between a JetStream append's store and
   * its answer). Written again, marked, once the journal is replayed to its end.
   */
  private unreleasedLines: { readonly seq: number; readonly write: (again: boolean) => void }[] = [];

  constructor(private readonly host: RecoveryHost) {}

  /** True until restored() runs: the process must resume, not start. */
  get recovering(): boolean {
    return this.restoring;
  }

  /** Where the actors' actions go during the replay. */
  readonly output: ActorOutput = {
    bus: (target, from, durable, bytes) => {
      // Sent before the crash, perhaps never received: resent on resume unless the journal says acknowledged.
      if (durable !== undefined && 'actor' in target)
        this.host.outbox.keep(durable.link, durable.n, target, from, bytes(), Number.NEGATIVE_INFINITY);
    },
    latestValue: () => {},
    local: (seq, m, sent_s) => {
      this.undeliveredLocal.set(seq, m);
      if (sent_s !== undefined) this.localSent.set(seq, sent_s);
    },
    timer: (t) => this.unarmedTimers.set(t.rid, t),
    cancelTimer: (rid) => this.cancelPending(rid),
    log: (write) => {
      if (this.replaying.seq > this.replaying.released) this.unreleasedLines.push({ seq: this.replaying.seq, write });
    },
  };

  /**
   * Cancels a timer the replay kept and that is not armed yet (an actor's recover hook may cancel
   * one before takePending); false if it is not one of those.
   */
  cancelPending(rid: number): boolean {
    return this.unarmedTimers.delete(rid);
  }

  /** Holds `handle` (something the bus brought) until the replay is done; false once restored. */
  hold(handle: () => void): boolean {
    if (!this.restoring) return false;
    this.held.push(handle);
    return true;
  }

  /**
   * Whether a message sent at emulated `sent_s`, and delivered to this process live (not replayed),
   * was held by its crash: sent before it resumed. Sent while it was down, or before it died and not
   * stored by it (lost with it, and sent again), it waited for the restart either way. Counting only
   * those sent while it was down left the others in their link's felt delay (up to 17,000 emulated s
   * at 20,000x), which the replay then drew for ordinary messages on that link.
   */
  heldByCrash(sent_s: number): boolean {
    return this.downWhile !== undefined && sent_s < this.downWhile[1];
  }

  /**
   * Claims the one replay, synchronously: a second resume, even while the first is still reading
   * the journal, is refused before it can touch the runtime's output.
   */
  begin(): void {
    if (this.replayed) throw new Error('only a runtime made to recover, and only once, resumes from its journal');
    this.replayed = true;
  }

  /**
   * Replays the stored batches not replayed yet into the actors (after begin()); the runtime routes
   * their actions to `output` meanwhile. `final` false: a restart standing by, following what its
   * predecessor stores (JournalWriter.storedBatches); true, once, after it took the journal over.
   * The count is of every call so far.
   */
  async replay(journal: JournalWriter, final = true): Promise<ReplayCount> {
    if (!this.replayed) throw new Error('assertion: replay() without begin()');
    if (this.replayDone) throw new Error('assertion: the journal was replayed to its end already');
    this.replayDone = final;
    let entries = 0;
    for await (const batch of journal.storedBatches(final)) {
      this.count.batches++;
      this.replaying.seq = batch.seq;
      if ((batch.released ?? 0) > this.replaying.released) {
        const released = (this.replaying.released = batch.released!);
        this.unreleasedLines = this.unreleasedLines.filter((l) => l.seq > released);
      }
      for (const e of batch.entries) {
        this.apply(e);
        if (e.k !== 'ack' && e.k !== 'bus_outage') this.count.last_s = Math.max(this.count.last_s, e.t);
        entries++;
      }
    }
    this.count.entries += entries;
    this.host.tally.count('journal.replayed_entries', entries);
    if (final) this.writeUnreleasedLines(journal);
    return { ...this.count };
  }

  /**
   * Output commit holds a turn's log lines until its batch is stored, and a crash can come after
   * the store and before they are written. Messages lost so are resent (the outbox keeps them until
   * acknowledged); log lines would be lost for good, and `gridemu check` would see a job's start
   * without the loss of that run, which the restart had reported (fuzz seed 14, JetStream journals:
   * docs/faults.md). So the lines of every batch past the last one the journal says was released
   * are written again, marked `replayed`; a reader drops those its predecessor did write
   * (ReplayedLineFilter). The restart's own batches then say they are out.
   */
  private writeUnreleasedLines(journal: JournalWriter): void {
    for (const l of this.unreleasedLines) l.write(true);
    this.host.tally.count('journal.log_lines_written_again', this.unreleasedLines.length);
    this.unreleasedLines = [];
    journal.outputReleasedThrough(this.replaying.seq);
  }

  /**
   * Once the clock runs again: the timers still pending (those due while the process was down fire
   * at once), and the messages between its actors that were sent and not delivered, each taken once.
   */
  takePending(): { timers: PendingTimer[]; locals: [number, LocalMessage][] } {
    const timers = [...this.unarmedTimers.values()];
    const locals = [...this.undeliveredLocal];
    this.unarmedTimers.clear();
    this.undeliveredLocal.clear();
    this.localSent.clear();
    return { timers, locals };
  }

  /** Whether the replay started actor `a`: its start turn was stored before the crash. */
  startedInJournal(a: Address): boolean {
    return this.startedActors.has(a);
  }

  /** The process is itself again: what the bus brought meanwhile goes in, in arrival order. */
  restored(died_s: number, resumed_s: number): void {
    this.downWhile = [died_s, resumed_s];
    this.restoring = false;
    for (const handle of this.held.splice(0)) handle();
  }

  /** One journal entry, again: the actor handles what it handled before, at the time it did. */
  private apply(e: JournalEntry): void {
    if (e.k === 'ack') {
      this.host.outbox.acknowledged(e.link, e.upto);
      return;
    }
    if (e.k === 'bus_outage') {
      this.host.busOutageReplayed(e.edge, e.at_s);
      return;
    }
    const h = this.host.hostedAt(e.a);
    if (!h) throw new Error(`the journal names actor ${e.a}, which this process does not host`);
    h.now_s = e.t;
    switch (e.k) {
      case 'start':
        this.startedActors.add(e.a);
        h.actor.start?.(h.ctx);
        return;
      case 'recover':
        this.journaledResume_s = Math.max(this.journaledResume_s, e.t);
        h.actor.recover?.(h.ctx, e.crashed_s);
        return;
      case 'timer':
        this.unarmedTimers.delete(e.id);
        this.host.redeliver(h, e.msg, e.a);
        if (e.fired !== undefined) this.host.timerReplayed(h, e.fired, this.heldByJournaledCrash(e.fired.due_s));
        return;
      case 'local': {
        const m = this.undeliveredLocal.get(e.seq);
        if (!m) throw new Error(`the journal delivers local message ${e.seq} to ${e.a}, which the replay did not send`);
        this.undeliveredLocal.delete(e.seq);
        const sent_s = this.localSent.get(e.seq);
        this.localSent.delete(e.seq);
        this.host.redeliver(h, m.msg, m.from, this.feltOf(sent_s));
        return;
      }
      case 'bus': {
        const { from, msg, lseq, at_s } = this.host.decodeStored(e.envelope);
        if (lseq !== undefined) {
          // Delivered and stored: a copy resent now is answered, not delivered again.
          const link = linkOf(from, e.a);
          this.host.linkOrder.replayed(link, lseq);
          this.host.storedThrough.settled(link, lseq);
        }
        if (e.topic === true) this.host.tally.sent(msg.type, siteOf(from), h.placement.location, e.t);
        this.host.redeliver(h, msg, from, this.feltOf(at_s, e.posted));
        return;
      }
    }
  }

  /**
   * Whether something sent or due at `t_s`, handled in this replay, waited for an earlier restart
   * of this process: it came before the latest resume the journal has shown so far.
   */
  private heldByJournaledCrash(t_s: number): boolean {
    return t_s < this.journaledResume_s;
  }

  private feltOf(sent_s: number | undefined, posted_s?: number): ReplayedFelt | undefined {
    if (sent_s === undefined) return undefined;
    const heldByCrash = this.heldByJournaledCrash(sent_s);
    return posted_s === undefined ? { sent_s, heldByCrash } : { sent_s, heldByCrash, posted_s };
  }
}
