import { Rng } from '@gridemu/runtime';

/**
 * Periods of something going wrong that come and go: an alternating renewal process, exponential
 * with mean `mean_between_s` between periods and `mean_period_s` within one, drawn from the seed and
 * a label alone, so every policy under test meets the same periods at the same times, in both
 * runtimes. It starts outside a period. Queried at non-decreasing times. Paper 002's misbehaving
 * resource managers and paper 000's pool outages are such periods.
 */
export class AlternatingPeriods {
  private readonly rng: Rng;
  /** The current or next period: [start, end). */
  private start_s: number;
  private end_s: number;

  constructor(
    private readonly mean_period_s: number,
    private readonly mean_between_s: number,
    seed: number,
    label: string,
  ) {
    this.rng = new Rng(seed, label);
    this.start_s = this.exponential(mean_between_s);
    this.end_s = this.start_s + this.exponential(mean_period_s);
  }

  /** Whether `t` (emulated seconds) falls in a period. */
  inPeriodAt(t: number): boolean {
    this.advance(t);
    return t >= this.start_s && t < this.end_s;
  }

  /** When the state at `t` next changes. */
  nextChange(t: number): number {
    this.advance(t);
    return t < this.start_s ? this.start_s : this.end_s;
  }

  private advance(t: number): void {
    while (t >= this.end_s) {
      this.start_s = this.end_s + this.exponential(this.mean_between_s);
      this.end_s = this.start_s + this.exponential(this.mean_period_s);
    }
  }

  private exponential(mean: number): number {
    return -mean * Math.log(1 - this.rng.next());
  }
}
