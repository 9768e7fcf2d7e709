import { describe, expect, it } from 'vitest';
import { MessageType } from '@gridemu/protocol';
import { decodeEnvelope, encodeEnvelope } from '@gridemu/protocol/wire';
import { decodeJournalBatch, encodeJournalBatch, type JournalBatch } from '../src/live.js';

const envelope = encodeEnvelope({
  run: 'r',
  from: 's2/meta',
  to: 's1/meta',
  lseq: 7,
  msg: { type: MessageType.JobCompleted, jobId: 'j1', site: 's2', time_s: 5 },
});

const batch: JournalBatch = {
  seq: 42,
  released: 39,
  entries: [
    { k: 'start', a: 's1/meta', t: 0 },
    { k: 'bus', a: 's1/meta', t: 1.25, envelope },
    { k: 'bus', a: 's1/scheduler', t: 1.5, envelope, topic: true },
    { k: 'bus', a: 's1/meta', t: 1.75, envelope, posted: 1.625 },
    { k: 'bus', a: 's1/scheduler', t: 1.875, envelope, topic: true, posted: 1.5 },
    { k: 'local', a: 's1/scheduler', t: 2, seq: 9 },
    {
      k: 'timer',
      a: 's1/meta',
      t: 3.75,
      id: 4,
      msg: { type: MessageType.JobCompleted, jobId: 'j2 é/ü', site: 's1', time_s: 3 },
    },
    {
      k: 'timer',
      a: 's1/meta',
      t: 4.5,
      id: 5,
      msg: { type: MessageType.JobEnds, jobId: 'j3' },
      fired: { due_s: 4, at_s: 4.25, handled_s: 4.375 },
    },
    { k: 'recover', a: 's1/executor', t: 10, crashed_s: 8.5 },
    { k: 'ack', link: 's1>s2', upto: 12 },
    { k: 'bus_outage', edge: 'cut', at_s: 660_375.5 },
    { k: 'bus_outage', edge: 'back', at_s: 665_767.25 },
  ],
};

describe('journal batches', () => {
  it('read back every kind of entry as written, the envelope byte for byte', () => {
    const back = decodeJournalBatch(encodeJournalBatch(batch), 0);
    expect(back).toEqual(batch);
    const bus = back.entries[1]!;
    if (bus.k !== 'bus') throw new Error('not a bus entry');
    const d = decodeEnvelope(bus.envelope, 'r');
    expect(d.ok && d.envelope.lseq).toBe(7);
  });

  it('grow past the writer buffer, and each encoding is a copy of its own', () => {
    const big = new Uint8Array(200 * 1024).fill(7);
    const a = encodeJournalBatch({ seq: 1, entries: [{ k: 'bus', a: 'x/y', t: 0, envelope: big }] });
    const b = encodeJournalBatch({ seq: 2, entries: [{ k: 'ack', link: 'a>b', upto: 3 }] });
    const back = decodeJournalBatch(a, 0);
    expect(back.seq).toBe(1);
    expect(back.entries[0]).toEqual({ k: 'bus', a: 'x/y', t: 0, envelope: big });
    expect(decodeJournalBatch(b, 1).entries).toEqual([{ k: 'ack', link: 'a>b', upto: 3 }]);
  });

  it('refuse a record that is not a whole batch, naming its place', () => {
    const bytes = encodeJournalBatch(batch);
    expect(() => decodeJournalBatch(bytes.subarray(0, bytes.byteLength - 3), 4)).toThrow(
      /journal record 5 is not a batch of deliveries: it ends inside an entry/,
    );
    expect(() => decodeJournalBatch(new Uint8Array([0x82, 1, 2]), 0)).toThrow(/record 1 .* does not start as one/);
    const extra = new Uint8Array(bytes.byteLength + 1);
    extra.set(bytes);
    expect(() => decodeJournalBatch(extra, 2)).toThrow(/1 bytes follow its last entry/);
    // The last entry is a bus outage's: its edge byte sits 9 bytes from the end.
    const badEdge = new Uint8Array(bytes);
    badEdge[badEdge.byteLength - 9] = 3;
    expect(() => decodeJournalBatch(badEdge, 0)).toThrow(/entry 12 has an unknown edge 3/);
  });
});
