import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { startLocalNatsServer } from '@gridemu/testkit';
import { JetStreamJournal, journalStream, removeRunJournals, runJournalStreams } from '../src/index.js';

describe("a run's journal streams on a server that outlives the run", () => {
  it("lists and deletes one run's streams, and leaves another run's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gridemu-js-'));
    const server = await startLocalNatsServer({ dir });
    const nc = await connect({ servers: server.url });
    try {
      for (const [run, location] of [
        ['ended', 's1'],
        ['ended', 's2'],
        ['ended', 'central'],
        ['other', 's1'],
      ] as const) {
        const journal = await JetStreamJournal.open(nc, run, location, true);
        await journal.append(new TextEncoder().encode(`${run} ${location}`), 1);
      }
      const ended = ['central', 's1', 's2'].map((l) => journalStream('ended', l));
      expect(await runJournalStreams(nc, 'ended')).toEqual(ended);
      // A run id that is another's prefix names none of its streams.
      expect(await runJournalStreams(nc, 'end')).toEqual([]);
      expect(await removeRunJournals(nc, 'ended')).toEqual(ended);
      expect(await runJournalStreams(nc, 'ended')).toEqual([]);
      expect(await runJournalStreams(nc, 'other')).toEqual([journalStream('other', 's1')]);
      // The other run's journal is whole.
      const reopened = await JetStreamJournal.open(nc, 'other', 's1', false);
      expect((await reopened.readAll()).map((b) => new TextDecoder().decode(b))).toEqual(['other s1']);
    } finally {
      await nc.close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
