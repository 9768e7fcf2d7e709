import type { TimerId } from './actor.js';
import { EventHeap } from './event-heap.js';
import { PreciseTimer } from './precise-timer.js';
import { wallNow_ms } from './wall-clock.js';

interface Due<T> {
  /** Wall-clock deadline, ms. */
  readonly time: number;
  readonly seq: number;
  readonly id: TimerId;
  readonly item: T;
}

/**
 * A live process's timers: one heap of wall-clock deadlines and one precise wake-up for the
 * earliest, rather than a timer handle per actor timer. Deadlines that come due together fire in
 * the order they were set (STYLE.md 4).
 */
export class TimerQueue<T> {
  private readonly heap = new EventHeap<Due<T>>();
  /** Timers set and neither fired nor cancelled. */
  private readonly pending = new Set<TimerId>();
  private readonly cancelled = new Set<TimerId>();
  private wake: PreciseTimer | undefined;
  private wakeAt = Number.POSITIVE_INFINITY;
  private seq = 0;
  private nextId = 1;

  constructor(
    private readonly fire: (item: T, late_ms: number) => void,
    /** How long before a deadline the wake-up stops sleeping and spins (PreciseTimer). */
    private readonly spin_ms?: number,
  ) {}

  get size(): number {
    return this.pending.size;
  }

  set(due_ms: number, item: T): TimerId {
    const id = this.nextId++;
    this.pending.add(id);
    this.heap.push({ time: due_ms, seq: this.seq++, id, item });
    if (due_ms < this.wakeAt) this.arm(due_ms);
    return id;
  }

  /** Cancels a timer that has not fired; one that has, or an unknown id, is ignored. */
  cancel(id: TimerId): void {
    if (this.pending.delete(id)) this.cancelled.add(id);
  }

  /** Drops every timer. */
  clear(): void {
    this.wake?.cancel();
    this.wake = undefined;
    this.wakeAt = Number.POSITIVE_INFINITY;
    while (this.heap.pop()) {
      // drain
    }
    this.pending.clear();
    this.cancelled.clear();
  }

  private arm(due_ms: number): void {
    this.wake?.cancel();
    this.wakeAt = due_ms;
    this.wake = new PreciseTimer(due_ms, () => this.fireDue(), this.spin_ms);
  }

  private fireDue(): void {
    this.wake = undefined;
    this.wakeAt = Number.POSITIVE_INFINITY;
    const now = wallNow_ms();
    for (let next = this.heap.peek(); next !== undefined && next.time <= now; next = this.heap.peek()) {
      this.heap.pop();
      if (this.cancelled.delete(next.id)) continue;
      this.pending.delete(next.id);
      this.fire(next.item, now - next.time);
    }
    const next = this.heap.peek();
    if (next !== undefined) this.arm(next.time);
  }
}
