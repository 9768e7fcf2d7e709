import { largest } from '@gridemu/model';
import type { Logger } from './actor.js';
import { JournalRefusedError, type Journal } from './journal.js';
import { decodeJournalBatch, encodeJournalBatch } from './journal-codec.js';
import type { JournalBatch, JournalEntry } from './journal-entry.js';
import type { RunCounters } from './run-counters.js';

/** A journal batch over this many bytes is split: JetStream's default message limit is 1 MiB. */
const MAX_JOURNAL_BATCH_BYTES = 512 * 1024;

/** Appends in flight at once (pipelined); turns committed beyond them gather into the next. */
const MAX_APPENDS_IN_FLIGHT = 4;

/**
 * How long (wall ms) deliveries that put nothing out may wait for an append: they are stored with
 * the next turn that does put something out, or after this long.
 */
const STORE_QUIET_TURNS_WITHIN_MS = 10;

/** One append: its batches, the output waiting for them, and whether they are stored. */
interface Append {
  readonly batches: readonly { readonly bytes: Uint8Array; readonly seq: number }[];
  readonly output: readonly Output[];
  stored: boolean;
}

/** Something a turn puts out once stored: a log line, or anything else (a publish). */
interface Output {
  readonly write: () => void;
  readonly log: boolean;
}

/**
 * Output commit for a journaled live process: the deliveries of a run-loop turn are appended to
 * the journal, and what they put on the bus (messages, acknowledgements, log lines) leaves only
 * once they are stored. Nothing the rest of the run has heard of can then be missing from the
 * journal after a crash.
 *
 * Kept in pace with the run (docs/faults.md, "The journal"; docs/performance.md): with a store over
 * the network (JetStream) the turns of one pass of the event loop go in one append (commit), with
 * a synchronous one (a local file) each turn's goes as it ends; up to four appends are in flight
 * at once, each turn's output leaving as soon as its own append and every earlier one are stored,
 * in order; turns that run while four are in flight gather into the next append. One append per
 * turn, each waiting for the last, fell further behind with every turn. A turn that puts nothing
 * out (a load report or a timer that changed only its actor's state) is not appended on its own:
 * nobody can have heard of it, so it goes with the next append that has output, or within
 * STORE_QUIET_TURNS_WITHIN_MS; a crash before then loses it as if its messages had been lost on
 * the way (a durable one is resent: its acknowledgement is output). This is rollback recovery's
 * output commit (Elnozahy et al., "A survey of rollback-recovery protocols in message-passing
 * systems", 2002): the log is forced before output, not after every delivery. In a saturated run
 * about 70% of the appends had no output (docs/performance.md). After a failed
 * append (the server restarting) the writer retries it alone before starting more, so the journal
 * stays in batch order; the replay also keeps only the unbroken run of batches from the first.
 * Each batch says the highest batch whose output had left when it was encoded (`released`): a
 * restart writes again the log lines of those after it, which a crash between a batch's store and
 * its release would otherwise lose (LiveRecovery).
 */
export class JournalWriter {
  private pendingEntries: JournalEntry[] = [];
  private pendingOutput: Output[] = [];
  /** Per link, the highest acknowledgement heard and not yet recorded (recordAck). */
  private readonly pendingAcks = new Map<string, number>();
  /** Turns committed while the pipeline was full: the next append's. */
  private gatheredEntries: JournalEntry[] = [];
  private gatheredOutput: Output[] = [];
  /** Appends started and not yet released, oldest first. */
  private readonly inFlight: Append[] = [];
  /** Appends being retried after a failure: no new one starts until they are stored. */
  private retrying = 0;
  private nextBatch = 1;
  /** The highest batch whose output has left (JournalBatch.released): every batch encoded says it. */
  private releasedThrough = 0;
  /** Stored batches read for the replay and not yet replayed: past a gap (storedBatches). */
  private readonly unreplayed = new Map<number, JournalBatch>();
  /** Records read for the replay so far (named in a decoding error). */
  private recordsRead = 0;
  private whenIdle: (() => void)[] = [];
  private commitQueued = false;
  private appendQueued = false;
  private stopping = false;
  private failed = false;
  private gathered = 0;
  /** Set while turns without output wait to be stored (STORE_QUIET_TURNS_WITHIN_MS). */
  private quietTurnsTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly store: Journal,
    private readonly tally: RunCounters,
    private readonly log: Logger,
    /** A delivery that cannot be journaled: no restart could replay it. */
    private readonly onUnjournalable: (err: Error) => void,
    /** The store refused an append for good (a newer incarnation of this process took the journal over). */
    private readonly onRefused: (err: Error) => void = onUnjournalable,
  ) {}

  /**
   * Numbers the output that will leave together: it changes when the current turn's output is
   * handed to an append, so output emitted under one number leaves after one append is stored.
   */
  get outputBatch(): number {
    return this.gathered;
  }

  /**
   * A delivery of the current turn, or something that happened between turns (an edge of the
   * bus connection: then queueCommit, so that it is stored without waiting for a turn).
   */
  record(entry: JournalEntry): void {
    this.pendingEntries.push(entry);
  }

  /**
   * An acknowledgement this process heard for the durable messages it sent on `link`, up to
   * `upto`. It rides with the next append a turn makes, the latest per link, and makes none of its
   * own: one lost with a crash only has the restart resend what its receiver has, which the
   * receiver answers as a duplicate. Appended on its own as it came, each made an append, a write
   * of a few bytes, of its own.
   */
  recordAck(link: string, upto: number): void {
    if (upto > (this.pendingAcks.get(link) ?? 0)) this.pendingAcks.set(link, upto);
  }

  /** Something to put out once the current turn's batch is stored: a log line (`log`), or a publish. */
  emit(write: () => void, log = false): void {
    this.pendingOutput.push({ write, log });
    this.queueCommit();
  }

  /** Something to store or send arrived outside a turn of the run loop (an acknowledgement): commit soon. */
  queueCommit(): void {
    if (this.commitQueued) return;
    this.commitQueued = true;
    setImmediate(() => {
      this.commitQueued = false;
      this.commit();
    });
  }

  /**
   * Hands what the turn just run recorded to the next append. With a store over the network it
   * starts once the event loop has run what else it has ready (other turns gather into it: one
   * append per loop pass, not per turn, a third of the appends of a saturated run), unless the
   * pipeline is full; with a synchronous store, at once.
   */
  commit(): void {
    this.gather();
    // A store that has stored a batch once its append returns: the turn's output need wait for
    // nothing else. Gathering a loop pass's turns would save writes and hold every turn's output
    // to the end of the pass (measured: 10 to 30% more felt delay, the same rate; docs/performance.md).
    if (this.store.synchronous === true) {
      this.startAppend();
      return;
    }
    if (this.appendQueued) return;
    this.appendQueued = true;
    setImmediate(() => {
      this.appendQueued = false;
      this.startAppend();
    });
  }

  private gather(): void {
    if (this.pendingEntries.length === 0 && this.pendingOutput.length === 0) return;
    this.gathered++;
    for (const [link, upto] of this.pendingAcks) this.pendingEntries.push({ k: 'ack', link, upto });
    this.pendingAcks.clear();
    // One by one: a turn's entries spread into push's arguments could overflow the call stack.
    for (const e of this.pendingEntries) this.gatheredEntries.push(e);
    for (const o of this.pendingOutput) this.gatheredOutput.push(o);
    this.pendingEntries = [];
    this.pendingOutput = [];
  }

  /** Starts an append of what is gathered; one without output waits (storeQuietTurns) unless `now`. */
  private startAppend(now = false): void {
    if (this.failed || this.retrying > 0 || this.inFlight.length >= MAX_APPENDS_IN_FLIGHT) return;
    if (this.gatheredEntries.length === 0 && this.gatheredOutput.length === 0) return;
    if (this.gatheredOutput.length === 0 && !now && !this.stopping) {
      this.storeQuietTurns();
      return;
    }
    if (this.quietTurnsTimer !== undefined) {
      clearTimeout(this.quietTurnsTimer);
      this.quietTurnsTimer = undefined;
    }
    const entries = this.gatheredEntries;
    const output = this.gatheredOutput;
    this.gatheredEntries = [];
    this.gatheredOutput = [];
    let batches: { bytes: Uint8Array; seq: number }[];
    try {
      batches = entries.length > 0 ? this.encodeBatches(entries) : [];
    } catch (err) {
      // A message msgpack cannot store (an actor put a Map or a class in one).
      this.fail(() => this.onUnjournalable(new Error(`cannot journal a delivery: ${(err as Error).message}`)));
      return;
    }
    const append: Append = { batches, output, stored: false };
    this.inFlight.push(append);
    if (batches.length > 0) this.tally.count('journal.appends');
    void this.storeAndRelease(append);
  }

  /** Stores the gathered turns that put nothing out within STORE_QUIET_TURNS_WITHIN_MS, if no turn with output takes them first. */
  private storeQuietTurns(): void {
    if (this.quietTurnsTimer !== undefined) return;
    this.quietTurnsTimer = setTimeout(() => {
      this.quietTurnsTimer = undefined;
      this.startAppend(true);
    }, STORE_QUIET_TURNS_WITHIN_MS);
    // stop() stores what is left: this timer need not keep the process alive.
    this.quietTurnsTimer.unref?.();
  }

  private async storeAndRelease(append: Append): Promise<void> {
    for (const b of append.batches)
      if (!(await this.appendDurably(b))) {
        // Refused, or given up on at stop(): whoever waits for the writer to be idle waits no more.
        for (const f of this.whenIdle.splice(0)) f();
        return;
      }
    append.stored = true;
    // In order: an append's output leaves once it and every earlier one are stored. Its log lines
    // first, written out at once, then its messages: nobody hears of a turn its log could lose.
    while (this.inFlight[0]?.stored) {
      const { output, batches } = this.inFlight.shift()!;
      if (output.some((o) => o.log)) {
        for (const o of output) if (o.log) o.write();
        this.log.flush?.();
      }
      for (const o of output) if (!o.log) o.write();
      this.releasedThrough = batches.at(-1)?.seq ?? this.releasedThrough;
    }
    this.startAppend();
    if (this.inFlight.length === 0) for (const f of this.whenIdle.splice(0)) f();
  }

  private fail(tell: () => void): void {
    this.failed = true;
    tell();
    for (const f of this.whenIdle.splice(0)) f();
  }

  /**
   * The stored batches to replay, in batch order, each once: an append retried after a lost
   * acknowledgement may be stored twice, and after a failed one a later batch may be stored
   * before it. Only the unbroken run from batch 1 is replayed: a batch after a gap had its output
   * held back (output leaves in order), so nobody heard of it. Later batches are numbered after it.
   *
   * `final` false: a restart standing by, reading what its predecessor stored since the last call
   * (Journal.follow); a batch past a gap waits for the next call, since the predecessor may still
   * store the one missing. `final` true (once, after the journal is taken over): the rest.
   */
  async *storedBatches(final = true): AsyncGenerator<JournalBatch> {
    const records = final ? await this.store.readAll() : (this.store.follow?.() ?? []);
    for (const r of records) {
      const batch = decodeJournalBatch(r, this.recordsRead++);
      if (batch.seq < this.nextBatch || this.unreplayed.has(batch.seq)) this.tally.count('journal.duplicate_batches');
      else this.unreplayed.set(batch.seq, batch);
    }
    for (;;) {
      const batch = this.unreplayed.get(this.nextBatch);
      if (!batch) break;
      this.unreplayed.delete(this.nextBatch);
      this.nextBatch++;
      yield batch;
    }
    if (final && this.unreplayed.size > 0) {
      this.tally.count('journal.batches_after_gap', this.unreplayed.size);
      // Numbered past them, so no batch of this incarnation shares a number with one left behind.
      this.nextBatch = Math.max(this.nextBatch, largest(this.unreplayed.keys())) + 1;
      this.unreplayed.clear();
    }
  }

  /**
   * The output of every batch up to `seq` is out: a restart's replay wrote again the log lines of
   * the batches its predecessor may not have released (LiveRecovery), and its own batches say so.
   */
  outputReleasedThrough(seq: number): void {
    this.log.flush?.();
    this.releasedThrough = Math.max(this.releasedThrough, seq);
  }

  /** Commits what is left and waits for it; a store that can no longer be written (the server is gone at the end) is not waited for. */
  async stop(): Promise<void> {
    this.gather();
    this.startAppend(true);
    this.stopping = true;
    if (this.inFlight.length === 0 || this.failed) return;
    await new Promise<void>((resolve) => this.whenIdle.push(resolve));
  }

  private encodeBatches(entries: JournalEntry[]): { bytes: Uint8Array; seq: number }[] {
    const bytes = encodeJournalBatch({ seq: this.nextBatch, released: this.releasedThrough, entries });
    if (bytes.byteLength <= MAX_JOURNAL_BATCH_BYTES || entries.length === 1) {
      return [{ bytes, seq: this.nextBatch++ }];
    }
    const half = Math.ceil(entries.length / 2);
    return [...this.encodeBatches(entries.slice(0, half)), ...this.encodeBatches(entries.slice(half))];
  }

  /**
   * Appends, retrying while the store is unreachable (a nats-server restart); false if the writer
   * failed or stop() gave up. While a retry is on, no new append starts.
   */
  private async appendDurably({ bytes, seq }: { bytes: Uint8Array; seq: number }): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      if (this.failed) return false;
      try {
        await this.store.append(bytes, seq);
        this.tally.count('journal.batches');
        this.tally.count('journal.bytes', bytes.byteLength);
        if (attempt > 0) this.retrying--;
        return true;
      } catch (err) {
        if (err instanceof JournalRefusedError) {
          // Another incarnation holds the journal now: nothing more from this one may count.
          if (!this.failed) this.fail(() => this.onRefused(err as Error));
          return false;
        }
        if (this.stopping) return false;
        if (attempt === 0) this.retrying++;
        this.tally.count('journal.append_retries');
        if (attempt === 0) this.log.warn({ err: (err as Error).message }, 'journal append failed: retrying');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }
}
