import type { ControlBus } from '@gridemu/live';
import { EmulatedClock, wallNow_ms } from '@gridemu/runtime/live';

/**
 * The run's clock in this process: built once from the driver's `start`, and shared by everything
 * here that acts at an emulated time (the fault injector, the delay proxies, the progress line).
 */
export class RunClockWatch {
  private clock: EmulatedClock | undefined;
  private readonly waiting: ((clock: EmulatedClock) => void)[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  /** What until() waits on, told when the clock stops. */
  private readonly onStop = new Set<() => void>();
  private stopped = false;

  constructor(bus: ControlBus) {
    bus.on('start', (m) => {
      // One clock per run: the driver starts it once, and nothing may move it afterwards.
      if (this.clock || this.stopped) return;
      this.clock = new EmulatedClock(m.epoch_s, m.wallEpoch_ms, m.speedup);
      for (const f of this.waiting.splice(0)) f(this.clock);
    });
  }

  /** The clock once the run has started. */
  get current(): EmulatedClock | undefined {
    return this.clock;
  }

  /** Calls `f` with the clock when the run starts (at once if it has). */
  onStart(f: (clock: EmulatedClock) => void): void {
    if (this.stopped) return;
    if (this.clock) f(this.clock);
    else this.waiting.push(f);
  }

  /** Calls `f` when the run's clock reaches `at_s` (emulated seconds; at once if already past). */
  at(at_s: number, f: (clock: EmulatedClock) => void): void {
    this.onStart((clock) => {
      const timer = setTimeout(
        () => {
          this.timers.delete(timer);
          if (!this.stopped) f(clock);
        },
        Math.max(0, clock.wall_ms(at_s) - wallNow_ms()),
      );
      this.timers.add(timer);
    });
  }

  /** Resolves true when the run's clock reaches `at_s`, or false as soon as the clock is stopped. */
  until(at_s: number): Promise<boolean> {
    if (this.stopped) return Promise.resolve(false);
    return new Promise((resolve) => {
      const stopped = () => resolve(false);
      this.onStop.add(stopped);
      this.at(at_s, () => {
        this.onStop.delete(stopped);
        resolve(true);
      });
    });
  }

  /** The run is over (its `end`, or this process leaving): nothing scheduled on the clock runs after this. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.waiting.length = 0;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const f of this.onStop) f();
    this.onStop.clear();
  }
}
