import type { MetricsSink } from './actor.js';

/**
 * What a runtime counts for summary.json, the same way in simulation and live: messages sent by
 * type (all, and those crossing between two sites) and the counters actors bump.
 */
export class RunCounters {
  readonly messages = { all: new Map<string, number>(), crossSite: new Map<string, number>() };
  readonly counters = new Map<string, number>();
  readonly sink: MetricsSink = { count: (name, by = 1) => this.count(name, by) };

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
