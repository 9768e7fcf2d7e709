import { Rng } from '@gridemu/runtime';

/**
 * A scheduler that acts only on a periodic cycle's ticks (a Condor negotiator, an LSF mbatchd):
 * ticks every `cycle_s`, at a phase drawn from the seed and a label, so schedulers of one kind do
 * not tick together. A cycle of 0 acts at once.
 */
export class CycleTicks {
  private readonly phase_s: number;

  constructor(
    readonly cycle_s: number,
    seed: number,
    label: string,
  ) {
    this.phase_s = cycle_s > 0 ? new Rng(seed, label).next() * cycle_s : 0;
  }

  /** The first tick at or after `t`; `t` itself without a cycle. */
  nextTick(t: number): number {
    if (this.cycle_s <= 0) return t;
    const k = Math.ceil((t - this.phase_s) / this.cycle_s - 1e-9);
    return Math.max(t, this.phase_s + k * this.cycle_s);
  }
}
