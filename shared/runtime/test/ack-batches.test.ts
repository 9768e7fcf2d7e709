import { describe, expect, it } from 'vitest';
import { AckBatches, PeriodicFlush } from '../src/live.js';

describe('AckBatches', () => {
  it('gathers the ids of one batch into one acknowledgement per location, and starts afresh with the next batch', () => {
    let batch = 1;
    const sent: [string, readonly string[]][] = [];
    const acks = new AckBatches(
      () => batch,
      (location, mids) => sent.push([location, mids]),
    );
    acks.add('s1', 's1-1');
    acks.add('s2', 's2-7');
    acks.add('s1', 's1-2');
    batch = 2; // the first batch's output has left
    acks.add('s1', 's1-3');
    expect(sent).toEqual([
      ['s1', ['s1-1', 's1-2']],
      ['s2', ['s2-7']],
      ['s1', ['s1-3']],
    ]);
  });
});

describe('PeriodicFlush', () => {
  it('writes what was given it once its batch closes, and numbers the next batch', async () => {
    const flush = new PeriodicFlush(5);
    const written: number[] = [];
    const first = flush.current;
    flush.later(() => written.push(1));
    flush.later(() => written.push(2));
    expect(written).toEqual([]);
    await new Promise((r) => setTimeout(r, 20));
    expect(written).toEqual([1, 2]);
    expect(flush.current).toBe(first + 1);
    // Closed at once when the process stops.
    flush.later(() => written.push(3));
    flush.flush();
    expect(written).toEqual([1, 2, 3]);
  });
});
