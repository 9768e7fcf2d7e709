import { describe, expect, it } from 'vitest';
import { AckBatches, PeriodicFlush } from '../src/live.js';

describe('AckBatches', () => {
  it('gathers the answers of one batch into one per location, and starts afresh with the next batch', () => {
    let batch = 1;
    const sent: [string, readonly number[]][] = [];
    const receipts = new AckBatches(
      () => batch,
      (): number[] => [],
      (location, numbers) => sent.push([location, numbers]),
    );
    receipts.add('s1', (r) => r.push(1));
    receipts.add('s2', (r) => r.push(7));
    receipts.add('s1', (r) => r.push(2));
    batch = 2; // the first batch's output has left
    receipts.add('s1', (r) => r.push(3));
    expect(sent).toEqual([
      ['s1', [1, 2]],
      ['s2', [7]],
      ['s1', [3]],
    ]);
  });

  it("keeps one cumulative acknowledgement per location and batch, and does not change a batch's once the next is open", () => {
    let batch = 1;
    const sent: [string, { upto: number }][] = [];
    const acks = new AckBatches(
      () => batch,
      () => ({ upto: 0 }),
      (location, answer) => sent.push([location, answer]),
    );
    acks.add('s1', (a) => (a.upto = Math.max(a.upto, 4)));
    acks.add('s1', (a) => (a.upto = Math.max(a.upto, 9)));
    batch = 2;
    acks.add('s1', (a) => (a.upto = Math.max(a.upto, 12)));
    expect(sent).toEqual([
      ['s1', { upto: 9 }],
      ['s1', { upto: 12 }],
    ]);
  });
});

describe('PeriodicFlush', () => {
  it('writes what was given it once its period ends, and at once when flushed', async () => {
    const flush = new PeriodicFlush(5);
    const written: number[] = [];
    flush.later(() => written.push(1));
    flush.later(() => written.push(2));
    expect(written).toEqual([]);
    await new Promise((r) => setTimeout(r, 20));
    expect(written).toEqual([1, 2]);
    // Closed at once when the process stops.
    flush.later(() => written.push(3));
    flush.flush();
    expect(written).toEqual([1, 2, 3]);
  });
});
