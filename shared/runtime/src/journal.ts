/**
 * A process's journal (docs/faults.md "Live crashes"): the deliveries its actors handled,
 * in order, so that a restarted process can replay them through fresh actors and come back with the
 * state it had. The runtime only appends and reads; where it lives (a local file or a JetStream
 * stream in a live run, memory in tests) is the implementation's business. What a delivery's
 * record holds is journal-entry.ts; how a batch of them is laid out in bytes, journal-codec.ts.
 */
export interface Journal {
  /**
   * Appends batch number `seq` (its bytes); resolves once it is stored and would be read back after
   * a crash. A retry of one seq must not store it twice where the store can tell (JetStream's
   * message id); where it cannot, the replay skips a repeated seq.
   */
  append(batch: Uint8Array, seq: number): Promise<void>;
  /**
   * Every batch stored before this incarnation of the process began (what a restart replays), in
   * append order, but for those follow() returned.
   */
  readAll(): Promise<Uint8Array[]>;
  /**
   * Where a store can be read while an earlier incarnation still writes it (a local file): a
   * restart standing by reads what was stored since its last call, so that it replays most of the
   * journal before it takes over (FileJournal).
   */
  follow?(): Uint8Array[];
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
