import type { NatsConnection } from '@nats-io/transport-node';
import {
  jetstream,
  jetstreamManager,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { checkRunId, type Journal } from '@gridemu/runtime';

/** The JetStream stream holding one location's journal in a run: one stream each, so permissions can name it. */
export function journalStream(run: string, location: string): string {
  return `GRIDEMU_JOURNAL_${checkRunId(run)}_${location.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** The subject its batches are published on (outside `gridemu.<run>.>`: no delay proxy touches it). */
export function journalSubject(run: string, location: string): string {
  return `gridemu-journal.${checkRunId(run)}.${location}`;
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
    `$JS.API.STREAM.*.${stream}`,
    `$JS.API.CONSUMER.*.${stream}`,
    `$JS.API.CONSUMER.*.${stream}.>`,
    `$JS.API.CONSUMER.MSG.NEXT.${stream}.>`,
  ];
}

/**
 * A process's journal in a JetStream stream with file storage, in the server's store (`gridemu
 * run`: DIR/nats/jetstream). An append returns once the server has stored the batch; a retry of the
 * same batch is stored once (its message id). The server writes to disk on its own schedule
 * (`sync_interval`, 2 minutes by default), so what is stored survives the process, which is what we
 * crash, but not the machine losing power: docs/faults.md.
 */
export class JetStreamJournal implements Journal {
  private constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly stream: string,
    private readonly subject: string,
  ) {}

  /**
   * Opens `location`'s journal in `run`. `fresh`: a process starting the run, whose journal must be
   * empty (a run id reused on a long-lived server must not replay an old run); otherwise a
   * restarted process, which reads what its predecessor stored.
   */
  static async open(nc: NatsConnection, run: string, location: string, fresh: boolean): Promise<JetStreamJournal> {
    const stream = journalStream(run, location);
    const subject = journalSubject(run, location);
    let jsm: JetStreamManager;
    try {
      jsm = await jetstreamManager(nc, { checkAPI: false, timeout: 10_000 });
      if (fresh) await jsm.streams.delete(stream).catch(() => false);
      await jsm.streams.add({ name: stream, subjects: [subject], storage: StorageType.File });
    } catch (err) {
      throw new Error(
        `cannot keep ${location}'s journal in JetStream stream ${stream} (does the server run with JetStream, -js?): ${(err as Error).message}`,
        { cause: err },
      );
    }
    return new JetStreamJournal(jetstream(nc, { timeout: 5000 }), jsm, stream, subject);
  }

  async append(batch: Uint8Array, seq: number): Promise<void> {
    await this.js.publish(this.subject, batch, { msgID: String(seq) });
  }

  async readAll(): Promise<Uint8Array[]> {
    const info = await this.jsm.streams.info(this.stream);
    if (info.state.messages === 0) return [];
    const last = info.state.last_seq;
    const consumer = await this.js.consumers.get(this.stream, { filter_subjects: this.subject });
    const out: Uint8Array[] = [];
    const messages = await consumer.consume({ max_messages: 512 });
    for await (const m of messages) {
      out.push(m.data);
      if (m.seq >= last) break;
    }
    await messages.close();
    return out;
  }
}
