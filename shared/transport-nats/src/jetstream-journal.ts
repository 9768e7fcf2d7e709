import type { NatsConnection } from '@nats-io/transport-node';
import {
  jetstream,
  jetstreamManager,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { decode, encode } from '@msgpack/msgpack';
import { checkRunId, JournalRefusedError, type Journal } from '@gridemu/runtime';

/** How long opening a journal keeps asking a server that does not answer (it is restarting). */
const OPEN_BUDGET_MS = 30_000;
const OPEN_RETRY_MS = 250;
/** One request's timeout while opening (a stream's creation on a loaded server can take seconds). */
const OPEN_REQUEST_TIMEOUT_MS = 10_000;

/** The JetStream stream holding one location's journal in a run: one stream each, so permissions can name it. */
export function journalStream(run: string, location: string): string {
  return `GRIDEMU_JOURNAL_${checkRunId(run)}_${location.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** The subject its batches are published on (outside `gridemu.<run>.>`: no delay proxy touches it). */
export function journalSubject(run: string, location: string): string {
  return `gridemu-journal.${checkRunId(run)}.${location}`;
}

/** The subject of its fences, one per incarnation of the process (JetStreamJournal). */
export function fenceSubject(run: string, location: string): string {
  return `${journalSubject(run, location)}.fence`;
}

/**
 * What the process hosting `location` may publish to keep its journal: its own subject, and the
 * JetStream API for its own stream only (create, delete, info; an ordered consumer to read it
 * back). Nobody else's journal can be read, written or deleted.
 */
export function journalPermissions(run: string, location: string): string[] {
  const stream = journalStream(run, location);
  return [
    journalSubject(run, location),
    fenceSubject(run, location),
    `$JS.API.STREAM.*.${stream}`,
    `$JS.API.STREAM.MSG.GET.${stream}`,
    `$JS.API.CONSUMER.*.${stream}`,
    `$JS.API.CONSUMER.*.${stream}.>`,
    `$JS.API.CONSUMER.MSG.NEXT.${stream}.>`,
  ];
}

/** What a fence record holds: the incarnation that wrote it (msgpack, told apart from a batch by `fence`). */
const FENCE_MARK = 0xfe;

/**
 * A process's journal in a JetStream stream with file storage, in the server's store (`gridemu
 * run`: DIR/nats/jetstream). An append returns once the server has stored the batch; a retry of the
 * same batch is stored once (its message id). The server writes to disk on its own schedule
 * (`sync_interval`, 2 minutes by default), so what is stored survives the process, which is what we
 * crash, but not the machine losing power: docs/faults.md.
 *
 * One incarnation at a time. Each start of the process appends a fence record first, and every
 * append states the stream's last sequence it expects (JetStream's expected last sequence). Once a
 * newer incarnation's fence is stored, an older one's next append is refused (JournalRefusedError)
 * and that process stops: a replaced pod or container that still runs cannot add to the journal
 * the new one replays, nor, since its output waits for its appends, say anything more to the run.
 */
export class JetStreamJournal implements Journal {
  /**
   * The stream's last sequence once every append made so far is stored: what the next append
   * expects (appends are pipelined, one message each, in call order). Unknown after a failure,
   * until read from the stream again.
   */
  private expected: number | undefined;
  /**
   * The requests of appends waiting for their answer, each with a way to give it up. When the
   * connection to the server is lost, or made again, the server may never answer what was sent
   * before (it restarted), nor, with nats.js 3.4 and nats-server 2.9, what the client kept while
   * disconnected and sent once connected again: they fail then and the writer sends them again,
   * rather than each waiting out its timeout (5 s for a publish, 10 s for the stream's info).
   * Waiting them out held journaled processes' output for 5 to 10 wall s after a server restart
   * (10,000 to 20,000 emulated s at speed-up 2,000): a paper-003 run stopped two to three times as
   * many jobs at their growth limit as the same run journaled in files (docs/faults.md).
   */
  private readonly unanswered = new Set<(err: Error) => void>();

  private constructor(
    nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly stream: string,
    private readonly subject: string,
    private readonly fences: string,
    /** This incarnation's number: 1 for the process that started the run, then one more per restart. */
    readonly incarnation: number,
    /** The sequence of this incarnation's fence: what it replays ends before it. */
    private readonly fenceSeq: number,
  ) {
    this.expected = fenceSeq;
    void this.giveUpOnConnectionChange(nc);
  }

  /** `request`'s answer, or an error if the connection is lost or made again before it comes (unanswered). */
  private answered<T>(request: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.unanswered.add(reject);
      request()
        .then(resolve, reject)
        .finally(() => this.unanswered.delete(reject));
    });
  }

  private async giveUpOnConnectionChange(nc: NatsConnection): Promise<void> {
    // Ends when the connection closes.
    for await (const s of nc.status()) {
      if (s.type !== 'disconnect' && s.type !== 'reconnect') continue;
      const lost = new Error(
        s.type === 'disconnect'
          ? 'the connection to the server was lost before it answered this append'
          : 'the connection to the server was made again before it answered this append',
      );
      for (const giveUp of this.unanswered) giveUp(lost);
      this.unanswered.clear();
    }
  }

  /**
   * Opens `location`'s journal in `run` and fences it. `fresh`: a process starting the run, whose
   * journal must be empty (a run id reused on a long-lived server must not replay an old run);
   * otherwise a restarted process, which reads what its predecessors stored.
   */
  static async open(
    nc: NatsConnection,
    run: string,
    location: string,
    fresh: boolean,
    budget_ms = OPEN_BUDGET_MS,
  ): Promise<JetStreamJournal> {
    // A process restarted while the server restarts opens its journal through the server's absence
    // and JetStream's recovery after it: each request then times out or finds no responder. Asked
    // again until the budget is spent; refused at once for anything else (a permission, a fence),
    // and by a server that has no JetStream at all.
    const deadline = Date.now() + budget_ms;
    for (let tries = 1; ; tries++) {
      try {
        // No one request may outlast the budget by much: one asked while the server was away waits
        // out its whole timeout even once the server is back.
        const timeout_ms = Math.max(1000, Math.min(OPEN_REQUEST_TIMEOUT_MS, deadline - Date.now()));
        return await JetStreamJournal.openOnce(nc, run, location, fresh, timeout_ms);
      } catch (err) {
        // Nobody serves JetStream's API, and the server said in its greeting that it has none.
        if (causedBy(err, 'NoResponders') && nc.info?.jetstream !== true)
          throw new Error(
            `cannot keep ${location}'s journal in JetStream: the server at ${nc.getServer()} runs without JetStream (start it with -js)`,
            { cause: err },
          );
        if (!isTransient(err) || nc.isClosed()) throw err;
        if (Date.now() >= deadline)
          throw new Error(`${(err as Error).message} (tried ${tries} times over ${budget_ms / 1000} s)`, {
            cause: err,
          });
        await new Promise((r) => setTimeout(r, OPEN_RETRY_MS));
      }
    }
  }

  private static async openOnce(
    nc: NatsConnection,
    run: string,
    location: string,
    fresh: boolean,
    timeout_ms: number,
  ): Promise<JetStreamJournal> {
    const stream = journalStream(run, location);
    const subject = journalSubject(run, location);
    const fences = fenceSubject(run, location);
    let jsm: JetStreamManager;
    try {
      jsm = await jetstreamManager(nc, { checkAPI: false, timeout: timeout_ms });
      if (fresh) await jsm.streams.delete(stream).catch(() => false);
      await jsm.streams.add({ name: stream, subjects: [subject, fences], storage: StorageType.File });
    } catch (err) {
      throw new Error(
        `cannot keep ${location}'s journal in JetStream stream ${stream} (does the server run with JetStream, -js?): ${(err as Error).message}`,
        { cause: err },
      );
    }
    const js = jetstream(nc, { timeout: 5000 });
    // The fence goes in after whatever is there; an older incarnation appending meanwhile moves the
    // last sequence, so look again and retry until ours is the record that lands.
    for (let attempt = 0; ; attempt++) {
      const info = await jsm.streams.info(stream);
      const incarnation = (await lastIncarnation(jsm, stream, fences)) + 1;
      try {
        const ack = await js.publish(fences, encodeFence(incarnation), {
          msgID: `fence-${incarnation}`,
          expect: { lastSequence: info.state.last_seq },
        });
        return new JetStreamJournal(nc, js, jsm, stream, subject, fences, incarnation, ack.seq);
      } catch (err) {
        if (!isWrongLastSequence(err) || attempt >= 20) throw err;
      }
    }
  }

  async append(batch: Uint8Array, seq: number): Promise<void> {
    const expect = this.expected ?? (await this.answered(() => this.jsm.streams.info(this.stream))).state.last_seq;
    this.expected = expect + 1;
    try {
      // The message id names the incarnation: a batch number it shares with an older incarnation's
      // refused append must not be taken for that append's duplicate. A retry of a stored append
      // is a duplicate, which the server answers before it checks the expected sequence.
      const ack = await this.answered(() =>
        this.js.publish(this.subject, batch, { msgID: `${this.incarnation}-${seq}`, expect: { lastSequence: expect } }),
      );
      // A duplicate (a retry of a stored append) did not add to the stream.
      if (ack.duplicate) this.expected = this.expected === expect + 1 ? expect : undefined;
    } catch (err) {
      this.expected = undefined;
      // Refused for the expected sequence: either a newer incarnation's fence, or an earlier append
      // of ours that failed (a server restart), which the writer retries.
      if (isWrongLastSequence(err)) {
        const newest = await this.answered(() => lastIncarnation(this.jsm, this.stream, this.fences));
        if (newest > this.incarnation)
          throw new JournalRefusedError(
            `incarnation ${this.incarnation}'s journal append was refused: incarnation ${newest} of this process has fenced the journal`,
          );
      }
      throw err;
    }
  }

  /**
   * The batches stored before this incarnation's fence, in append order. Nothing of an older
   * incarnation can follow the fence (its appends are refused), and this one has appended nothing yet.
   * Read again from the start while the server is away (a restart), as open() asks again: a
   * process restarted just before a server restart read its journal through it, and failed on the
   * first timeout.
   */
  async readAll(budget_ms = OPEN_BUDGET_MS): Promise<Uint8Array[]> {
    const deadline = Date.now() + budget_ms;
    for (let tries = 1; ; tries++) {
      try {
        return await this.readOnce();
      } catch (err) {
        if (!isTransient(err)) throw err;
        if (Date.now() >= deadline)
          throw new Error(
            `reading the journal: ${(err as Error).message} (tried ${tries} times over ${budget_ms / 1000} s)`,
            {
              cause: err,
            },
          );
        await new Promise((r) => setTimeout(r, OPEN_RETRY_MS));
      }
    }
  }

  private async readOnce(): Promise<Uint8Array[]> {
    const info = await this.jsm.streams.info(this.stream, { subjects_filter: this.subject });
    if ((info.state.subjects?.[this.subject] ?? 0) === 0) return [];
    const consumer = await this.js.consumers.get(this.stream, { filter_subjects: this.subject });
    const out: Uint8Array[] = [];
    const messages = await consumer.consume({ max_messages: 512 });
    try {
      for await (const m of messages) {
        if (m.seq < this.fenceSeq) out.push(m.data);
        if (m.info.pending === 0) break;
      }
    } finally {
      await messages.close();
    }
    return out;
  }
}

function encodeFence(incarnation: number): Uint8Array {
  return encode({ fence: FENCE_MARK, incarnation });
}

function isWrongLastSequence(err: unknown): boolean {
  return err instanceof Error && /wrong last sequence/i.test(err.message);
}

/** The incarnation of the latest fence stored on `fences` (0: none yet). */
async function lastIncarnation(jsm: JetStreamManager, stream: string, fences: string): Promise<number> {
  try {
    const m = await jsm.streams.getMessage(stream, { last_by_subj: fences });
    if (!m) return 0;
    const d = decode(m.data) as { fence?: unknown; incarnation?: unknown } | null;
    return d && d.fence === FENCE_MARK && typeof d.incarnation === 'number' ? d.incarnation : 0;
  } catch (err) {
    if (/no message found|not found/i.test((err as Error).message)) return 0;
    throw err;
  }
}

/**
 * The NATS client's names (Error.name) of a server that is away or recovering (isTransient): a
 * timeout, a lost connection, and no responder on JetStream's API yet, which the client also
 * reports as JetStreamNotEnabled.
 */
const TRANSIENT_ERRORS = new Set(['TimeoutError', 'ConnectionError', 'NoResponders', 'JetStreamNotEnabled']);

/**
 * Whether `err` (or what caused it) says the server did not answer, rather than refused: see
 * TRANSIENT_ERRORS, or JetStream saying it is not ready (503). A refused permission is an answer.
 */
function isTransient(err: unknown): boolean {
  for (const e of causeChain(err)) {
    if (e.name === 'PermissionViolationError' || e.name === 'AuthorizationError' || e instanceof JournalRefusedError)
      return false;
    if (TRANSIENT_ERRORS.has(e.name) || /\b503\b|temporarily unavailable/i.test(e.message)) return true;
  }
  return false;
}

/** Whether an error named `name` is `err` or among its causes. */
function causedBy(err: unknown, name: string): boolean {
  return causeChain(err).some((e) => e.name === name);
}

/** `err` and what caused it, outermost first. */
function causeChain(err: unknown): Error[] {
  const chain: Error[] = [];
  for (let e: unknown = err; e instanceof Error && !chain.includes(e); e = e.cause) chain.push(e);
  return chain;
}
