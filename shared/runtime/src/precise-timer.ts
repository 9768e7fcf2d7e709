import { wallNow_ms } from './wall-clock.js';

/** The default: the last 2 ms before a deadline are spent turn by turn. */
export const DEFAULT_TIMER_SPIN_MS = 2;

/**
 * A one-shot timer that fires at a wall-clock deadline to within an event-loop turn. setTimeout has
 * a 1 ms granularity and runs off the loop's cached time, which at speed-up 100,000 is 100 emulated
 * seconds; so it sleeps until `spin_ms` before the deadline, then re-checks with setImmediate. That
 * spinning costs CPU: where more processes than cores share a machine it starves the others and
 * makes every timer later, so a run turns it off there (spin_ms 0: sleep to the deadline, about a
 * millisecond late).
 */
export class PreciseTimer {
  private handle: NodeJS.Timeout | NodeJS.Immediate | undefined;
  private cancelled = false;

  constructor(
    private readonly due_ms: number,
    private readonly fire: (late_ms: number) => void,
    private readonly spin_ms = DEFAULT_TIMER_SPIN_MS,
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
    } else if (this.spin_ms <= 0) {
      this.handle = setTimeout(this.arm, Math.ceil(left));
    } else if (left > this.spin_ms) {
      this.handle = setTimeout(this.arm, Math.floor(left - this.spin_ms / 2));
    } else {
      this.handle = setImmediate(this.arm);
    }
  };
}
