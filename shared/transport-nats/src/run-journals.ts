import type { NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { journalSubject } from './jetstream-journal.js';

/**
 * The JetStream streams that hold run `run`'s journals (JetStreamJournal: one a location, on
 * `gridemu-journal.<run>.<location>`), by the subjects they take.
 */
export async function runJournalStreams(nc: NatsConnection, run: string): Promise<string[]> {
  const jsm = await jetstreamManager(nc, { checkAPI: false });
  const names: string[] = [];
  for await (const name of jsm.streams.names(journalSubject(run, '>'))) names.push(name);
  return names.sort();
}

/**
 * Deletes run `run`'s journal streams from the server and returns their names. For a run that
 * has ended: a journal is how a process restarted during the run rejoins it, and nothing reads it
 * after. On a server that outlives its runs (`gridemu run --nats`), each run's streams would
 * otherwise stay, and fill its JetStream store run after run.
 */
export async function removeRunJournals(nc: NatsConnection, run: string): Promise<string[]> {
  const jsm = await jetstreamManager(nc, { checkAPI: false });
  const names = await runJournalStreams(nc, run);
  for (const name of names) await jsm.streams.delete(name);
  return names;
}
