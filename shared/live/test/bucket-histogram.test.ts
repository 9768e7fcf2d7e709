import { describe, expect, it } from 'vitest';
import { Histogram, Registry } from 'prom-client';
import { BucketHistogram } from '../src/bucket-histogram.js';

const BUCKETS = [1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3, 1, 3, 10];

/** A registry with the default labels a process's has. */
function registry(): Registry {
  const r = new Registry();
  r.setDefaultLabels({ run: 'r1', site: 's1', scheme: 'k-distributed' });
  return r;
}

describe('BucketHistogram: the per-delivery histograms without prom-client’s per-call label work', () => {
  it('exposes what prom-client’s Histogram exposes for the same observations, as text and as JSON', async () => {
    // Values on bucket bounds, between them, below the first and past the last (counted only in
    // +Inf), under three label values first seen in an interleaved order.
    let x = 12345;
    const next = () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 20;
    const observations: [string, number][] = [
      ['s2', 1e-3],
      ['s3', 0],
      ['s2', 10],
      ['s4', 25],
      ['s3', 3e-4],
    ];
    for (let i = 0; i < 500; i++) observations.push([`s${2 + (i % 3)}`, next() ** 3 / 400]);
    const ours = registry();
    const theirs = registry();
    const b = new BucketHistogram('gridemu_message_latency_seconds', 'latency', 'from', BUCKETS, ours);
    const h = new Histogram({
      name: 'gridemu_message_latency_seconds',
      help: 'latency',
      labelNames: ['from'],
      buckets: BUCKETS,
      registers: [theirs],
    });
    for (const [from, v] of observations) {
      b.observe(from, v);
      h.observe({ from }, v);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    // prom-client's JSON also carries each sample's exemplar, null without exemplars.
    const withoutExemplars = (metrics: Awaited<ReturnType<Registry['getMetricsAsJSON']>>) =>
      metrics.map((m) => ({
        ...m,
        values: m.values.map((v) => Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'exemplar'))),
      }));
    expect(await ours.getMetricsAsJSON()).toEqual(withoutExemplars(await theirs.getMetricsAsJSON()));
    expect(await ours.metrics()).toContain(
      'gridemu_message_latency_seconds_bucket{le="+Inf",run="r1",site="s1",scheme="k-distributed",from="s4"} ',
    );
  });

  it('counts a value on a bound in that bound’s bucket, and refuses what is not a number', async () => {
    const r = registry();
    const b = new BucketHistogram('gridemu_handler_duration_seconds', 'handlers', 'role', [0.1, 1], r);
    b.observe('scheduler', 0.1);
    b.observe('scheduler', 1.5);
    const text = await r.metrics();
    expect(text).toContain(
      'gridemu_handler_duration_seconds_bucket{le="0.1",run="r1",site="s1",scheme="k-distributed",role="scheduler"} 1',
    );
    expect(text).toContain(
      'gridemu_handler_duration_seconds_bucket{le="1",run="r1",site="s1",scheme="k-distributed",role="scheduler"} 1',
    );
    expect(text).toContain(
      'gridemu_handler_duration_seconds_count{run="r1",site="s1",scheme="k-distributed",role="scheduler"} 2',
    );
    expect(() => b.observe('scheduler', Number.NaN)).toThrow(
      /gridemu_handler_duration_seconds: NaN observed \(role=scheduler\)/,
    );
    expect(() => new BucketHistogram('x_seconds', 'x', 'role', [1, 1], registry())).toThrow(/buckets must rise/);
  });
});
