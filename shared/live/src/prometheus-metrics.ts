import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { LiveRuntime } from '@gridemu/runtime/live';
import { BucketHistogram } from './bucket-histogram.js';

/** Buckets for a histogram of emulated seconds: a second to a week, about a factor of three apart. */
const SECONDS_BUCKETS = [1, 10, 60, 300, 900, 3600, 3 * 3600, 12 * 3600, 86_400, 3 * 86_400, 7 * 86_400];

/** What a process's /metrics reads, each time it is scraped. */
export interface MetricsSource {
  readonly runtime: LiveRuntime | undefined;
  /** The run's scheme, once the process has the plan. */
  readonly scheme: string | undefined;
}

/**
 * A Prometheus name for one of the runtime's counter or gauge names: the `gridemu_`
 * prefix, dots as underscores, and seconds spelt out (`jobs.lost_processor_s` →
 * `gridemu_jobs_lost_processor_seconds`). Counters get `_total` on top.
 */
export function prometheusName(name: string): string {
  const tokens = name.split('.').map((t) => t.replace(/(^|_)s$/, '$1seconds'));
  return `gridemu_${tokens.join('_').replace(/[^a-zA-Z0-9_]/g, '_')}`;
}

/**
 * One process's metrics, named by Prometheus' conventions, with the labels `run`, `site` (the
 * location the process hosts) and `scheme` on every series and never a job id:
 *
 * - `gridemu_messages_sent_total{type}` and `gridemu_messages_received_total{type}`;
 * - every counter the runtime and its actors keep, as `gridemu_<name>_total`: jobs started,
 *   completed and rejected, claims granted, denied and timed out, lost runs, journal appends, …;
 * - every gauge the actors set, as `gridemu_<name>`: jobs queued and running, processors busy and
 *   in all;
 * - every distribution they observe, as a histogram: `gridemu_jobs_wait_seconds`;
 * - `gridemu_emulated_time_seconds`, and `gridemu_emulated_lag_seconds`, how far the process runs
 *   behind the emulated clock;
 * - `gridemu_handler_duration_seconds{role}`, each handler's wall time (role="scheduler": a
 *   scheduling pass), and `gridemu_nats_round_trip_seconds`;
 * - prom-client's default process metrics (event-loop lag among them).
 *
 * Counters and gauges appear as the actors first use them, so a scheme's own (GRUBER's, the
 * hierarchy's) need nothing here.
 */
export function processRegistry(
  labels: { readonly run: string; readonly site: string },
  source: MetricsSource,
): {
  registry: Registry;
  sync: () => void;
  observeHandler: (role: string, wall_s: number) => void;
  observeLatency: (from: string, wall_s: number) => void;
  setNatsRoundTrip: (wall_s: number) => void;
} {
  const registry = new Registry();
  const base = { run: labels.run, site: labels.site };
  registry.setDefaultLabels({ ...base, scheme: '' });
  collectDefaultMetrics({ register: registry });
  const byType = (name: string, help: string, read: (rt: LiveRuntime) => ReadonlyMap<string, number>) =>
    new Counter({
      name,
      help,
      labelNames: ['type'],
      registers: [registry],
      collect() {
        this.reset();
        const rt = source.runtime;
        if (rt) for (const [type, n] of read(rt)) this.inc({ type }, n);
      },
    });
  byType('gridemu_messages_sent_total', 'Actor messages sent by this process, by type', (rt) => rt.messages.all);
  byType(
    'gridemu_messages_received_total',
    "Messages and timers delivered to this process's actors, by type",
    (rt) => rt.received,
  );
  new Gauge({
    name: 'gridemu_emulated_time_seconds',
    help: "Emulated time of this process's clock (0 before the run starts)",
    registers: [registry],
    collect() {
      let now = 0;
      try {
        now = source.runtime?.now() ?? 0;
      } catch {
        now = 0; // the clock has not started
      }
      this.set(now);
    },
  });
  new Gauge({
    name: 'gridemu_emulated_lag_seconds',
    help: 'How late the last timer fired, in emulated seconds: growing, the speed-up is too high for this machine',
    registers: [registry],
    collect() {
      this.set(source.runtime?.emulatedLag_s() ?? 0);
    },
  });

  // Observed on every delivery, so not prom-client's Histogram (bucket-histogram.ts).
  const handler = new BucketHistogram(
    'gridemu_handler_duration_seconds',
    'Wall time of one delivery\'s handler, by actor role: for role="scheduler", a scheduling pass',
    'role',
    [1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3, 1],
    registry,
  );
  // Per link: the receiver is this process's `site` label, the sender `from` (a location, never a job).
  const latency = new BucketHistogram(
    'gridemu_message_latency_seconds',
    'One-way wall latency of messages from another location, by sender: the link `from` -> site',
    'from',
    [1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3, 1, 3, 10],
    registry,
  );
  const natsRoundTrip = new Gauge({
    name: 'gridemu_nats_round_trip_seconds',
    help: "The last round trip to the NATS server (the client's ping), in wall seconds",
    registers: [registry],
  });

  const registered = new Set<string>();
  const histograms = new Map<string, { histogram: Histogram; seen: number }>();
  /** Registers the counters and gauges the actors have started to use since the last scrape. */
  const sync = () => {
    if (source.scheme !== undefined) registry.setDefaultLabels({ ...base, scheme: source.scheme });
    const rt = source.runtime;
    if (!rt) return;
    const observed = [...rt.observations.keys()].map((o) => `${o}.`);
    for (const counter of rt.counters.keys()) {
      const name = `${prometheusName(counter)}_total`;
      if (registered.has(name)) continue;
      // Counters that break an observed distribution down (gruber.view_age_s.le.…, for summary.json)
      // are left out: the distribution's histogram says the same.
      if (observed.some((prefix) => counter.startsWith(prefix))) continue;
      registered.add(name);
      new Counter({
        name,
        help: `The runtime's counter ${counter}`,
        registers: [registry],
        collect() {
          this.reset();
          this.inc(source.runtime?.counters.get(counter) ?? 0);
        },
      });
    }
    for (const [observed, values] of rt.observations) {
      let h = histograms.get(observed);
      if (!h) {
        const name = prometheusName(observed);
        registered.add(name);
        h = {
          histogram: new Histogram({
            name,
            help: `The actors' observations of ${observed}`,
            buckets: SECONDS_BUCKETS,
            registers: [registry],
          }),
          seen: 0,
        };
        histograms.set(observed, h);
      }
      for (; h.seen < values.length; h.seen++) h.histogram.observe(values[h.seen]!);
    }
    for (const gauge of rt.gauges().keys()) {
      const name = prometheusName(gauge);
      if (registered.has(name)) continue;
      registered.add(name);
      new Gauge({
        name,
        help: `The actors' gauge ${gauge}`,
        registers: [registry],
        collect() {
          this.set(source.runtime?.gauges().get(gauge) ?? 0);
        },
      });
    }
  };
  return {
    registry,
    sync,
    observeHandler: (role, wall_s) => handler.observe(role, wall_s),
    observeLatency: (from, wall_s) => latency.observe(from, wall_s),
    setNatsRoundTrip: (wall_s) => natsRoundTrip.set(wall_s),
  };
}
