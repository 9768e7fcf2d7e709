import type { NetworkSpec } from '@gridemu/model';
import type { Rng } from './rng.js';

/**
 * One-way latency of a message between two sites: constant plus uniform jitter, per link
 * (network.matrix overrides the constant). Messages that do not cross sites take no time.
 */
export class LinkModel {
  constructor(private readonly spec: NetworkSpec) {}

  /** Seconds; `undefined` site means a run-wide actor, which sits next to every site. */
  delay_s(from: string | undefined, to: string | undefined, rng: Rng): number {
    if (from === undefined || to === undefined || from === to) return 0;
    const base_ms = this.spec.matrix?.[from]?.[to] ?? this.spec.latency_ms;
    const jitter_ms = this.spec.jitter_ms > 0 ? rng.uniform(-this.spec.jitter_ms, this.spec.jitter_ms) : 0;
    return Math.max(0, base_ms + jitter_ms) / 1000;
  }
}
