import { wallNow_ms } from './wall-clock.js';

/**
 * Emulated time in a live run: epoch + wall time elapsed × speed-up (DESIGN.md). Every process
 * of a run is given the same epoch, so their clocks agree up to the hosts' clock skew.
 */
export class EmulatedClock {
  constructor(
    /** Emulated seconds at the wall-clock epoch. */
    readonly epoch_s: number,
    /** Wall-clock milliseconds (Unix epoch, sub-ms) at which emulated time is epoch_s. */
    readonly wallEpoch_ms: number,
    readonly speedup: number,
  ) {
    if (!(speedup > 0)) throw new Error(`speed-up must be positive, got ${speedup}`);
  }

  // Sub-millisecond wall time: with Date.now(), emulated time would move in steps of speed-up/1000 s.
  now_s(wall_ms = wallNow_ms()): number {
    return this.epoch_s + ((wall_ms - this.wallEpoch_ms) / 1000) * this.speedup;
  }

  /** The wall-clock time (ms) at which emulated time reaches `due_s`. */
  wall_ms(due_s: number): number {
    return this.wallEpoch_ms + ((due_s - this.epoch_s) / this.speedup) * 1000;
  }
}
