import type { MetricsSink } from './actor.js';

/** The bin of summary.json's messages over time: an emulated hour. */
export const HOUR_S = 3600;

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
  readonly sink: MetricsSink = {
    count: (name, by = 1) => this.count(name, by),
    set: () => undefined,
    observe: () => undefined,
  };
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

  /** Messages sent in each emulated hour that saw any: hour number (time_s / 3600, rounded down) → count. */
  messagesPerHour(): Map<number, number> {
    this.closeHour();
    return new Map([...this.hours].sort(([a], [b]) => a - b));
  }

  private closeHour(): void {
    if (this.inHour > 0) this.hours.set(this.hour, (this.hours.get(this.hour) ?? 0) + this.inHour);
    this.inHour = 0;
  }

  /** Each gauge's current value. */
  gauges(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [name, parts] of this.gaugeParts)
      out.set(
        name,
        [...parts.values()].reduce((a, b) => a + b, 0),
      );
    return out;
  }

  count(name: string, by = 1): void {
    this.counters.set(name, (this.counters.get(name) ?? 0) + by);
  }

  /** Messages sent per emulated hour (HOUR_S), by the hour's number; the current hour is counted apart (cheap). */
  private readonly hours = new Map<number, number>();
  private hour = Number.NaN;
  private inHour = 0;

  /** A message of `type` sent from `fromSite` to `toSite` (undefined: a run-wide actor), at emulated `time_s`. */
  sent(type: string, fromSite: string | undefined, toSite: string | undefined, time_s?: number): void {
    this.messages.all.set(type, (this.messages.all.get(type) ?? 0) + 1);
    if (time_s !== undefined && Number.isFinite(time_s)) {
      const hour = Math.floor(time_s / HOUR_S);
      if (hour !== this.hour) {
        this.closeHour();
        this.hour = hour;
      }
      this.inHour++;
    }
    if (fromSite !== undefined && toSite !== undefined && fromSite !== toSite) {
      this.messages.crossSite.set(type, (this.messages.crossSite.get(type) ?? 0) + 1);
    }
  }
}
