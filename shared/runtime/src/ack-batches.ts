/**
 * Acknowledgements of durable messages, gathered into one per sending location and batch of
 * output instead of one each: the highest number stored (BusAck.upto), which a journaled process
 * may say once the batch's append is stored. At saturation an acknowledgement per message was a
 * third of all envelopes a journaled run decoded (docs/performance.md).
 *
 * A batch is whatever leaves the process together: with a journal, the output of one append
 * (JournalWriter.outputBatch), since an acknowledgement must not leave before its delivery is
 * stored. An answer is handed to `emit` when opened, and filled until its batch closes; `emit`
 * must not read it before then.
 */
export class AckBatches<T> {
  private open = new Map<string, T>();
  private openBatch: number | undefined;

  constructor(
    /** The number of the batch now open: it changes once the output emitted under it has left. */
    private readonly currentBatch: () => number,
    /** A new, empty answer. */
    private readonly fresh: () => T,
    /** Puts the answer to `location` out with the current batch. */
    private readonly emit: (location: string, answer: T) => void,
  ) {}

  /** Adds to this batch's answer to the runtime at `location`. */
  add(location: string, fold: (answer: T) => void): void {
    const batch = this.currentBatch();
    if (batch !== this.openBatch) {
      this.open = new Map();
      this.openBatch = batch;
    }
    let answer = this.open.get(location);
    if (answer === undefined) {
      answer = this.fresh();
      this.open.set(location, answer);
      this.emit(location, answer);
    }
    fold(answer);
  }
}

/** Output gathered for `period_ms` wall ms (0: one pass of the event loop), then written together. */
export class PeriodicFlush {
  private waiting: (() => void)[] = [];
  /** Cancels the pending close, if one is pending. */
  private cancel: (() => void) | undefined;

  constructor(private readonly period_ms: number) {}

  /** Writes `write` when the open batch closes. */
  later(write: () => void): void {
    this.waiting.push(write);
    if (this.cancel !== undefined) return;
    const close = () => this.flush();
    if (this.period_ms > 0) {
      const t = setTimeout(close, this.period_ms);
      this.cancel = () => clearTimeout(t);
    } else {
      const t = setImmediate(close);
      this.cancel = () => clearImmediate(t);
    }
  }

  /** Closes the open batch now (the process is stopping). */
  flush(): void {
    this.cancel?.();
    this.cancel = undefined;
    const writes = this.waiting;
    this.waiting = [];
    for (const w of writes) w();
  }
}
