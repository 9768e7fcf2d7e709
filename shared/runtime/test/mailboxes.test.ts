import { describe, expect, it } from 'vitest';
import { Mailboxes } from '../src/mailboxes.js';
import { TimerQueue } from '../src/timer-queue.js';
import { wallNow_ms } from '../src/wall-clock.js';

describe('mailboxes and the run loop', () => {
  it('delivers nothing before start, then each inbox in order, one message at a time, round robin', async () => {
    const m = new Mailboxes<string>();
    const seen: string[] = [];
    let busy = false;
    const deliver = (d: string) => {
      expect(busy, 'two deliveries at once').toBe(false);
      busy = true;
      seen.push(d);
      busy = false;
    };
    const a = m.inbox(deliver);
    const b = m.inbox(deliver);
    m.post(a, 'a1');
    m.post(a, 'a2');
    m.post(b, 'b1');
    m.post(a, 'a3');
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual([]);
    m.start(() => seen.push('start'));
    await m.idle();
    expect(seen).toEqual(['start', 'a1', 'b1', 'a2', 'a3']);
  });

  it('handles what a delivery posts in the same turn, and loses nothing from an inbox that never catches up', async () => {
    const m = new Mailboxes<number>();
    const got: number[] = [];
    const box = m.inbox((n) => {
      got.push(n);
      if (n < 5000) m.post(box, n + 1); // always one more waiting: the inbox is never empty
    });
    m.start(() => undefined);
    m.post(box, 0);
    m.post(box, 10_000);
    await m.idle();
    expect(got.filter((n) => n <= 5000)).toEqual(Array.from({ length: 5001 }, (_, i) => i));
    expect(got).toContain(10_000);
    expect(got).toHaveLength(5002);
  });
});

describe('timer queue', () => {
  it('fires in deadline order, ties in the order they were set, and skips cancelled timers', async () => {
    const fired: string[] = [];
    const q = new TimerQueue<string>((item) => fired.push(item), 0);
    const t0 = wallNow_ms();
    q.set(t0 + 30, 'late');
    q.set(t0 + 10, 'first');
    const gone = q.set(t0 + 10, 'cancelled');
    q.set(t0 + 10, 'second');
    q.cancel(gone);
    expect(q.size).toBe(3);
    // Until all have fired (a busy machine may wake the queue late, never out of order).
    const deadline = Date.now() + 30_000;
    while (q.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(fired).toEqual(['first', 'second', 'late']);
    expect(q.size).toBe(0);
    q.cancel(gone); // already gone: ignored
    q.clear();
  });
});
