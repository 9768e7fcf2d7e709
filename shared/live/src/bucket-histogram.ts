import type { Metric, Registry } from 'prom-client';

/** One label value's series: a count per bucket (the last is +Inf), their sum and count. */
interface Series {
  readonly counts: number[];
  sum: number;
  count: number;
}

/** A sample as prom-client's registry formats it: `labels` first, then the default labels, then `sharedLabels`. */
interface Sample {
  readonly metricName: string;
  readonly labels: Record<string, string | number>;
  readonly sharedLabels: Record<string, string>;
  readonly value: number;
}

/**
 * A Prometheus histogram with one label, for the observations a live process makes on every
 * delivery (each handler's wall time, each message's latency). prom-client's `Histogram.observe`
 * checks and hashes the labels and builds a closure on every call: at saturation about 3.5% of a
 * site's CPU (docs/performance.md). Here an observation finds its label's series in a map and adds
 * to one bucket; the exposition is prom-client's own (`_bucket{le}` cumulative, `+Inf`, `_sum`,
 * `_count`), built only when scraped.
 */
export class BucketHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelName: string,
    private readonly buckets: readonly number[],
    registry: Registry,
  ) {
    for (let i = 1; i < buckets.length; i++)
      if (!(buckets[i]! > buckets[i - 1]!)) throw new Error(`${name}: buckets must rise (${buckets.join(', ')})`);
    // The registry reads a metric through get/getForPromString, name and type, as for its own.
    registry.registerMetric(this as unknown as Metric);
  }

  observe(labelValue: string, value: number): void {
    if (!Number.isFinite(value))
      throw new TypeError(`${this.name}: ${value} observed (${this.labelName}=${labelValue})`);
    let s = this.series.get(labelValue);
    if (s === undefined) {
      s = { counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0, count: 0 };
      this.series.set(labelValue, s);
    }
    let i = 0;
    while (i < this.buckets.length && value > this.buckets[i]!) i++;
    s.counts[i]!++;
    s.sum += value;
    s.count++;
  }

  reset(): void {
    this.series.clear();
  }

  /** What the registry formats as text: the series in the order they were first observed. */
  async getForPromString(): Promise<{
    name: string;
    help: string;
    type: 'histogram';
    values: Sample[];
    aggregator: 'sum';
  }> {
    const values: Sample[] = [];
    for (const [labelValue, s] of this.series) {
      const sharedLabels = { [this.labelName]: labelValue };
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += s.counts[i]!;
        values.push({ metricName: `${this.name}_bucket`, labels: { le }, sharedLabels, value: cumulative });
      });
      values.push(
        { metricName: `${this.name}_bucket`, labels: { le: '+Inf' }, sharedLabels, value: s.count },
        { metricName: `${this.name}_sum`, labels: {}, sharedLabels, value: s.sum },
        { metricName: `${this.name}_count`, labels: {}, sharedLabels, value: s.count },
      );
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The same, each sample's labels in one object (the registry's JSON form). */
  async get(): Promise<{
    name: string;
    help: string;
    type: 'histogram';
    values: { metricName: string; labels: Record<string, string | number>; value: number }[];
    aggregator: 'sum';
  }> {
    const data = await this.getForPromString();
    return {
      ...data,
      values: data.values.map(({ metricName, labels, sharedLabels, value }) => ({
        metricName,
        labels: { ...labels, ...sharedLabels },
        value,
      })),
    };
  }
}
