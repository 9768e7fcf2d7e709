import { wallNow_ms } from './wall-clock.js';

/** Below this many ms before the deadline, a timer stops sleeping and yields turn by turn instead. */
const FINE_MS = 2;

/**
 * A one-shot timer that fires at a wall-clock deadline to within an event-loop turn. setTimeout has
 * a 1 ms granularity and runs off the loop's cached time, which at speed-up 100,000 is 100 emulated
 * seconds; so it sleeps until just before the deadline, then re-checks with setImmediate.
 */
export class PreciseTimer {
  private handle: NodeJS.Timeout | NodeJS.Immediate | undefined;
  private cancelled = false;

  constructor(
    private readonly due_ms: number,
    private readonly fire: (late_ms: number) => void,
  ) {
    // Never fire inside the constructor: the caller has not yet recorded the timer.
    this.handle = setImmediate(this.arm);
  }

  cancel(): void {
    this.cancelled = true;
    if (this.handle === undefined) return;
    clearTimeout(this.handle as NodeJS.Timeout);
    clearImmediate(this.handle as NodeJS.Immediate);
  }

  private arm = (): void => {
    if (this.cancelled) return;
    const left = this.due_ms - wallNow_ms();
    if (left <= 0) {
      this.handle = undefined;
      this.fire(-left);
    } else if (left > FINE_MS) {
      this.handle = setTimeout(this.arm, Math.floor(left - FINE_MS / 2));
    } else {
      this.handle = setImmediate(this.arm);
    }
  };
}
