import { describe, expect, it } from 'vitest';
import { AnswersDue } from '../src/answers-due.js';

describe('AnswersDue', () => {
  it('without a journal says each link its highest acknowledgement alone, once, and forgets it once taken', () => {
    const due = new AnswersDue(false);
    due.owe('s1', 'driver', 4);
    due.owe('s1', 'driver', 9);
    due.owe('s1', 's2', 3);
    due.owe('s2', 's1', 5);
    expect(due.take()).toEqual([
      { at: 's1', to: 'driver', upto: 9, more: false },
      { at: 's1', to: 's2', upto: 3, more: false },
      { at: 's2', to: 's1', upto: 5, more: false },
    ]);
    expect(due.take()).toEqual([]);
  });

  it('with a journal says the acknowledgement and the receipts in one answer per link, the covered receipts left out', () => {
    const due = new AnswersDue(true);
    // 1 and 2 arrived and were stored before the flush: the acknowledgement says them. 3 waits.
    due.received('s1', 'driver', 1);
    due.received('s1', 'driver', 2);
    due.received('s1', 'driver', 3);
    due.owe('s1', 'driver', 2);
    // Another link: arrived, not stored.
    due.received('s1', 's2', 7);
    expect(due.take()).toEqual([
      { at: 's1', to: 'driver', upto: 2, received: [3], more: false },
      { at: 's1', to: 's2', received: [7], more: false },
    ]);
    // A copy of 2 arriving again is covered by the acknowledgement already sent: nothing new to say.
    due.received('s1', 'driver', 2);
    expect(due.take()).toEqual([]);
    // Everything that arrived since is stored: the acknowledgement says so with an empty list of
    // receipts, so that the sender counts it as a whole answer.
    due.received('s1', 'driver', 4);
    due.owe('s1', 'driver', 4);
    expect(due.take()).toEqual([{ at: 's1', to: 'driver', upto: 4, received: [], more: false }]);
  });

  it('splits receipts into lists a receiver decodes, each part but the last marked as going on, the acknowledgement in the last', () => {
    const due = new AnswersDue(true, 2);
    for (const n of [1, 2, 3, 4, 5, 6]) due.received('s1', 'driver', n);
    due.owe('s1', 'driver', 1);
    expect(due.take()).toEqual([
      { at: 's1', to: 'driver', received: [2, 3], more: true },
      { at: 's1', to: 'driver', received: [4, 5], more: true },
      { at: 's1', to: 'driver', upto: 1, received: [6], more: false },
    ]);
    for (const n of [7, 8]) due.received('s1', 'driver', n);
    expect(due.take()).toEqual([{ at: 's1', to: 'driver', received: [7, 8], more: false }]);
  });
});
