import { describe, expect, it } from 'vitest';
import { silentLogger } from '../src/actor.js';
import { decodeJournalBatch } from '../src/journal-codec.js';
import { MemoryJournal } from '../src/journal.js';
import { JournalWriter } from '../src/journal-writer.js';
import { RunCounters } from '../src/run-counters.js';

describe('JournalWriter', () => {
  it('records an acknowledgement with the next append a turn makes, the latest per link, and makes no append for it alone', async () => {
    const store = new MemoryJournal();
    const writer = new JournalWriter(store, new RunCounters(), silentLogger, (err) => {
      throw err;
    });
    writer.recordAck('a>b', 3);
    writer.recordAck('a>b', 5);
    writer.recordAck('a>c', 1);
    writer.recordAck('a>b', 4); // an older answer, heard late
    writer.commit();
    await new Promise((r) => setImmediate(r));
    expect(store.batches).toEqual([]);
    writer.record({ k: 'start', a: 'a/x', t: 0 });
    writer.commit();
    writer.recordAck('a>b', 6);
    await writer.stop();
    expect(store.batches.map((b, i) => decodeJournalBatch(b, i).entries)).toEqual([
      [
        { k: 'start', a: 'a/x', t: 0 },
        { k: 'ack', link: 'a>b', upto: 5 },
        { k: 'ack', link: 'a>c', upto: 1 },
      ],
    ]);
  });
});
