import type { TimeSeries } from './run-series.js';

/**
 * The x axis every chart over time in one run's report shares: from the first submission to the
 * last point any of them draws, so that a stretch in one chart lines up with the same hours in the
 * others and with the faults. Left to itself, Chart.js rounds each chart's end on its own (a
 * 105-hour run drawn to 120 h in one chart and to 105 h in the next).
 */
export class HoursAxis {
  /**
   * The scale every chart's config holds: one object, whose end grows with each chart's points.
   * The configs are written out after the last chart is made, so each carries the final end.
   */
  readonly scale = {
    type: 'linear',
    min: 0,
    max: 1,
    title: { display: true, text: 'emulated hours since the first submission' },
  };

  /** `span_h`: from the first submission to the last job's end. */
  constructor(span_h: number) {
    this.reach(span_h);
  }

  /** The scale, reaching past the last of these points too (a bin's middle may lie past the span). */
  covering(series: readonly TimeSeries[]): HoursAxis['scale'] {
    for (const s of series) for (const p of s.points) this.reach(p.x);
    return this.scale;
  }

  private reach(h: number): void {
    this.scale.max = Math.max(this.scale.max, Math.ceil(h));
  }
}
