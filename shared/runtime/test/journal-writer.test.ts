import { describe, expect, it, vi } from 'vitest';
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

  it('stores a turn that put nothing out with the next turn that does, ahead of it, or on its own within 10 ms', async () => {
    // The 10 ms are the writer's own timer, advanced by the test: on a busy machine a real
    // setImmediate can come after 10 ms, and the quiet turn would be stored before the test looked.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const store = new MemoryJournal();
      const writer = new JournalWriter(store, new RunCounters(), silentLogger, (err) => {
        throw err;
      });
      const stored = () =>
        store.batches.map((b, i) => decodeJournalBatch(b, i).entries.map((e) => ('a' in e ? e.a : e.k)));
      const loopPass = () => new Promise((r) => setImmediate(r));
      writer.record({ k: 'start', a: 'a/quiet', t: 0 });
      writer.commit();
      await loopPass();
      await vi.advanceTimersByTimeAsync(9);
      // Nobody has heard of it: it waits.
      expect(store.batches).toEqual([]);
      writer.record({ k: 'start', a: 'a/loud', t: 1 });
      const storedWhenSent: number[] = [];
      writer.emit(() => storedWhenSent.push(store.batches.length));
      writer.commit();
      await loopPass();
      // One append, the quiet turn first, and the output after it.
      expect(stored()).toEqual([['a/quiet', 'a/loud']]);
      expect(storedWhenSent).toEqual([1]);
      // A quiet turn with no turn after it is stored all the same once its 10 ms are up (else this
      // loop never ends), and not before.
      writer.record({ k: 'start', a: 'a/last', t: 2 });
      writer.commit();
      await loopPass();
      await vi.advanceTimersByTimeAsync(9);
      expect(stored()).toEqual([['a/quiet', 'a/loud']]);
      await vi.advanceTimersByTimeAsync(1);
      await loopPass();
      expect(stored()).toEqual([['a/quiet', 'a/loud'], ['a/last']]);
      // stop() stores what waits at once.
      writer.record({ k: 'start', a: 'a/stopped', t: 3 });
      writer.commit();
      await writer.stop();
      expect(stored().at(-1)).toEqual(['a/stopped']);
    } finally {
      vi.useRealTimers();
    }
  });
});
