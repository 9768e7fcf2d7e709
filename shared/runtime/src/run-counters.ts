import type { MetricsSink } from './actor.js';

/**
 * What a runtime counts for summary.json, the same way in simulation and live: messages sent by
 * type (all, and those crossing between two sites) and the counters actors bump.
 */
export class RunCounters {
  readonly messages = { all: new Map<string, number>(), crossSite: new Map<string, number>() };
  readonly counters = new Map<string, number>();
  /** The last value of each gauge the actors set, summed over the actors that set it. */
  private readonly gaugeParts = new Map<string, Map<MetricsSink, number>>();
  /** Counters only: a simulation reports no gauges. */
  readonly sink: MetricsSink = { count: (name, by = 1) => this.count(name, by), set: () => undefined, observe: () => undefined };
  /** What live actors observed, in order, by name (the /metrics exporter reads on from where it stopped). */
  readonly observations = new Map<string, number[]>();

  /** A sink of its own for one live actor, keeping gauges too; two actors setting one gauge (two sites in one process) add up. */
  sinkFor(): MetricsSink {
    const sink: MetricsSink = {
      count: (name, by = 1) => this.count(name, by),
      set: (name, value) => {
        let parts = this.gaugeParts.get(name);
        if (!parts) this.gaugeParts.set(name, (parts = new Map()));
        parts.set(sink, value);
      },
      observe: (name, value) => {
        let list = this.observations.get(name);
        if (!list) this.observations.set(name, (list = []));
        list.push(value);
      },
    };
    return sink;
  }

  /** Each gauge's current value. */
  gauges(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [name, parts] of this.gaugeParts) out.set(name, [...parts.values()].reduce((a, b) => a + b, 0));
    return out;
  }

  count(name: string, by = 1): void {
    this.counters.set(name, (this.counters.get(name) ?? 0) + by);
  }

  /** A message of `type` sent from `fromSite` to `toSite` (undefined: a run-wide actor). */
  sent(type: string, fromSite: string | undefined, toSite: string | undefined): void {
    this.messages.all.set(type, (this.messages.all.get(type) ?? 0) + 1);
    if (fromSite !== undefined && toSite !== undefined && fromSite !== toSite) {
      this.messages.crossSite.set(type, (this.messages.crossSite.get(type) ?? 0) + 1);
    }
  }
}
