/**
 * Emulated time in a live run: epoch + wall time elapsed × speed-up (DESIGN.md). Every process
 * of a run is given the same epoch, so their clocks agree up to the hosts' clock skew.
 */
export class EmulatedClock {
  constructor(
    /** Emulated seconds at the wall-clock epoch. */
    readonly epoch_s: number,
    /** Wall-clock milliseconds (Date.now()) at which emulated time is epoch_s. */
    readonly wallEpoch_ms: number,
    readonly speedup: number,
  ) {
    if (!(speedup > 0)) throw new Error(`speed-up must be positive, got ${speedup}`);
  }

  now_s(wall_ms = Date.now()): number {
    return this.epoch_s + ((wall_ms - this.wallEpoch_ms) / 1000) * this.speedup;
  }

  /** Wall milliseconds from `wall_ms` until emulated time `due_s` (0 if it has passed). */
  wallDelay_ms(due_s: number, wall_ms = Date.now()): number {
    const dueWall = this.wallEpoch_ms + ((due_s - this.epoch_s) / this.speedup) * 1000;
    return Math.max(0, dueWall - wall_ms);
  }
}
