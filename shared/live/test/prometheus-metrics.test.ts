import { describe, expect, it } from 'vitest';
import { type Message } from '@gridemu/protocol';
import { silentLogger, type Actor, type Transport } from '@gridemu/runtime';
import { LiveRuntime } from '@gridemu/runtime/live';
import { processRegistry, prometheusName } from '../src/prometheus-metrics.js';
import { Paper001MessageType } from '@gridemu/schemes';

const noBus: Transport = {
  publish: () => undefined,
  subscribe: () => ({ unsubscribe: () => undefined }),
  flush: () => Promise.resolve(),
};

describe("a process's Prometheus metrics (issue 12)", () => {
  it('names follow the conventions: gridemu_ prefix, base units spelt out, no dots', () => {
    expect(prometheusName('jobs.completed')).toBe('gridemu_jobs_completed');
    expect(prometheusName('jobs.lost_processor_s')).toBe('gridemu_jobs_lost_processor_seconds');
    expect(prometheusName('gruber.site_queue_s')).toBe('gridemu_gruber_site_queue_seconds');
    expect(prometheusName('jobs.rejected.wider_than_site')).toBe('gridemu_jobs_rejected_wider_than_site');
    expect(prometheusName('transfers.seconds')).toBe('gridemu_transfers_seconds');
  });

  it('exports what the actors count and set, with run, site and scheme on every series', async () => {
    const actor: Actor<Message> = {
      start(ctx) {
        ctx.metrics.count('claims.granted', 3);
        ctx.metrics.set('jobs.queued', 7);
        ctx.metrics.observe('jobs.wait_s', 30);
        ctx.metrics.observe('jobs.wait_s', 5000);
        // GRUBER's view age: a histogram live, and bucket counters for summary.json, which /metrics leaves out.
        ctx.metrics.observe('gruber.view_age_s', 2);
        ctx.metrics.count('gruber.view_age_s.le.2');
        ctx.send('s1/other', { type: Paper001MessageType.LoadTick });
      },
      receive: () => undefined,
    };
    const rt = new LiveRuntime({ transport: noBus, run: 'r1', seed: 1, log: silentLogger });
    rt.spawn({ address: 's1/a', location: 's1', actor });
    rt.spawn({ address: 's1/other', location: 's1', actor: { receive: () => undefined } });
    rt.start(0, 1000);
    await new Promise((r) => setTimeout(r, 20));
    await rt.stop();
    const { registry, sync, observeHandler, observeLatency, setNatsRoundTrip } = processRegistry(
      { run: 'r1', site: 's1' },
      { runtime: rt, scheme: 'k-distributed' },
    );
    observeHandler('scheduler', 0.002);
    observeLatency('s2', 0.012);
    setNatsRoundTrip(0.0004);
    sync();
    const text = await registry.metrics();
    expect(text).toContain('gridemu_claims_granted_total{run="r1",site="s1",scheme="k-distributed"} 3');
    expect(text).toContain('gridemu_jobs_queued{run="r1",site="s1",scheme="k-distributed"} 7');
    expect(text).toContain(
      'gridemu_messages_sent_total{type="timer.load-tick",run="r1",site="s1",scheme="k-distributed"} 1',
    );
    expect(text).toContain(
      'gridemu_messages_received_total{type="timer.load-tick",run="r1",site="s1",scheme="k-distributed"} 1',
    );
    expect(text).toMatch(/nodejs_eventloop_lag_seconds\{run="r1"/);
    expect(text).toContain(
      'gridemu_handler_duration_seconds_bucket{le="0.003",run="r1",site="s1",scheme="k-distributed",role="scheduler"} 1',
    );
    expect(text).toContain(
      'gridemu_message_latency_seconds_bucket{le="0.03",run="r1",site="s1",scheme="k-distributed",from="s2"} 1',
    );
    expect(text).toContain(
      'gridemu_message_latency_seconds_bucket{le="0.01",run="r1",site="s1",scheme="k-distributed",from="s2"} 0',
    );
    expect(text).toContain('gridemu_nats_round_trip_seconds{run="r1",site="s1",scheme="k-distributed"} 0.0004');
    expect(text).toContain('gridemu_jobs_wait_seconds_bucket{le="10",run="r1",site="s1",scheme="k-distributed"} 0');
    expect(text).toContain('gridemu_jobs_wait_seconds_bucket{le="60",run="r1",site="s1",scheme="k-distributed"} 1');
    expect(text).toContain('gridemu_jobs_wait_seconds_sum{run="r1",site="s1",scheme="k-distributed"} 5030');
    expect(text).toContain('gridemu_gruber_view_age_seconds_count{run="r1",site="s1",scheme="k-distributed"} 1');
    expect(text).not.toContain('gridemu_gruber_view_age_seconds_le_2');
    // A second scrape does not count the same observations again.
    sync();
    expect(await registry.metrics()).toContain(
      'gridemu_jobs_wait_seconds_count{run="r1",site="s1",scheme="k-distributed"} 2',
    );
    // Every gridemu counter ends in _total, and no name has a dot.
    for (const m of text.matchAll(/^# TYPE (gridemu_\S+) (\w+)$/gm)) {
      if (m[2] === 'counter') expect(m[1]).toMatch(/_total$/);
      expect(m[1]).not.toContain('.');
    }
  });
});
