import type { Logger } from './actor.js';
import {
  decodeJournalBatch,
  encodeJournalBatch,
  type Journal,
  type JournalBatch,
  type JournalEntry,
} from './journal.js';
import type { RunCounters } from './run-counters.js';

/** A journal batch over this many bytes is split: JetStream's default message limit is 1 MiB. */
const MAX_JOURNAL_BATCH_BYTES = 512 * 1024;

/**
 * Output commit for a journaled live process: the deliveries of a run-loop turn are appended to
 * the journal as one batch, and what they put on the bus (messages, acknowledgements, log lines)
 * leaves only once that batch is stored. Nothing the rest of the run has heard of can then be
 * missing from the journal after a crash. Batches are stored, and their output sent, in order.
 */
export class JournalWriter {
  private pendingEntries: JournalEntry[] = [];
  private pendingOutput: (() => void)[] = [];
  private nextBatch = 1;
  private committing: Promise<void> = Promise.resolve();
  private commitQueued = false;
  private stopping = false;

  constructor(
    private readonly store: Journal,
    private readonly tally: RunCounters,
    private readonly log: Logger,
    /** A delivery that cannot be journaled: no restart could replay it. */
    private readonly onUnjournalable: (err: Error) => void,
  ) {}

  /** A delivery of the current turn. */
  record(entry: JournalEntry): void {
    this.pendingEntries.push(entry);
  }

  /** Something to put on the bus once the current turn's batch is stored. */
  emit(publish: () => void): void {
    this.pendingOutput.push(publish);
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

  /** Appends what the turn just run recorded, then lets its output go. */
  commit(): void {
    if (this.pendingEntries.length === 0 && this.pendingOutput.length === 0) return;
    const entries = this.pendingEntries;
    const output = this.pendingOutput;
    this.pendingEntries = [];
    this.pendingOutput = [];
    let batches: { bytes: Uint8Array; seq: number }[];
    try {
      batches = entries.length > 0 ? this.encodeBatches(entries) : [];
    } catch (err) {
      // A message msgpack cannot store (an actor put a Map or a class in one).
      this.onUnjournalable(new Error(`cannot journal a delivery: ${(err as Error).message}`));
      return;
    }
    this.committing = this.committing.then(async () => {
      for (const b of batches) if (!(await this.appendDurably(b))) return;
      for (const publish of output) publish();
    });
  }

  /**
   * The stored batches to replay, in order, each once: an append retried after a lost
   * acknowledgement may be stored twice. Later batches are numbered after the last one read.
   */
  async *storedBatches(): AsyncGenerator<JournalBatch> {
    const records = await this.store.readAll();
    for (let i = 0; i < records.length; i++) {
      const batch = decodeJournalBatch(records[i]!, i);
      if (batch.seq < this.nextBatch) {
        this.tally.count('journal.duplicate_batches');
        continue;
      }
      this.nextBatch = batch.seq + 1;
      yield batch;
    }
  }

  /** Commits what is left and waits for it; a store that can no longer be written (the server is gone at the end) is not waited for. */
  async stop(): Promise<void> {
    this.commit();
    this.stopping = true;
    await this.committing;
  }

  private encodeBatches(entries: JournalEntry[]): { bytes: Uint8Array; seq: number }[] {
    const bytes = encodeJournalBatch({ seq: this.nextBatch, entries });
    if (bytes.byteLength <= MAX_JOURNAL_BATCH_BYTES || entries.length === 1) {
      return [{ bytes, seq: this.nextBatch++ }];
    }
    const half = Math.ceil(entries.length / 2);
    return [...this.encodeBatches(entries.slice(0, half)), ...this.encodeBatches(entries.slice(half))];
  }

  /** Appends, retrying while the store is unreachable (a nats-server restart); false if stop() gave up. */
  private async appendDurably({ bytes, seq }: { bytes: Uint8Array; seq: number }): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.store.append(bytes, seq);
        this.tally.count('journal.batches');
        this.tally.count('journal.bytes', bytes.byteLength);
        return true;
      } catch (err) {
        if (this.stopping) return false;
        this.tally.count('journal.append_retries');
        if (attempt === 0) this.log.warn({ err: (err as Error).message }, 'journal append failed: retrying');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }
}
