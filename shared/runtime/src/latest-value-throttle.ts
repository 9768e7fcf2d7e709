import { wallNow_ms } from './wall-clock.js';

/** The wall clock and timers a throttle uses; a test gives its own. */
export interface ThrottleClock {
  now_ms(): number;
  after(ms: number, f: () => void): { cancel(): void };
}

const WALL: ThrottleClock = {
  now_ms: wallNow_ms,
  after: (ms, f) => {
    const t = setTimeout(f, ms);
    return { cancel: () => clearTimeout(t) };
  },
};

interface Slot {
  last_ms: number;
  pending: ((deferred: boolean) => void) | undefined;
  timer: { cancel(): void } | undefined;
}

/**
 * A bound, in wall time, on how often one sender puts a latest-value message on the bus:
 * a report whose newest copy makes the older ones moot, as load gossip is. A load period of 60
 * emulated seconds is 3 wall ms at speed-up 20,000; four sites gossiping that often flood the bus
 * and every metascheduler's mailbox with reports nobody reads before the next arrives. Per key
 * (sender and topic), the first offer goes at once; one within `interval_ms` of the last that went
 * waits for the interval to end, and a later one replaces it.
 */
export class LatestValueThrottle {
  private readonly slots = new Map<string, Slot>();
  constructor(
    readonly interval_ms: number,
    /** Called for each offer replaced by a newer one before it went: a report the bus never carried. */
    private readonly onSuperseded: () => void = () => {},
    private readonly clock: ThrottleClock = WALL,
  ) {}

  /**
   * Runs `send(false)` now, or keeps it for the end of the key's interval in place of what was
   * kept, and then runs it as `send(true)`.
   */
  offer(key: string, send: (deferred: boolean) => void): void {
    const now = this.clock.now_ms();
    let slot = this.slots.get(key);
    if (!slot)
      this.slots.set(key, (slot = { last_ms: Number.NEGATIVE_INFINITY, pending: undefined, timer: undefined }));
    if (slot.pending === undefined && now - slot.last_ms >= this.interval_ms) {
      slot.last_ms = now;
      send(false);
      return;
    }
    if (slot.pending !== undefined) this.onSuperseded();
    slot.pending = send;
    const s = slot;
    s.timer ??= this.clock.after(Math.max(0, s.last_ms + this.interval_ms - now), () => {
      const go = s.pending!;
      s.pending = undefined;
      s.timer = undefined;
      s.last_ms = this.clock.now_ms();
      go(true);
    });
  }

  /** Drops whatever is waiting (the run is stopping). */
  clear(): void {
    for (const s of this.slots.values()) {
      s.timer?.cancel();
      s.timer = undefined;
      s.pending = undefined;
    }
  }
}
