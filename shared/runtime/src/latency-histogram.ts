import type { LatencyState } from '@gridemu/protocol';

/** Buckets are log-spaced, 16 per doubling (about 4.4% wide), from 1 µs up. */
const PER_DOUBLING = 16;
const FLOOR_MS = 0.001;

/** The range of milliseconds bucket `b` holds: (lo, hi], bucket 0 being [0, 1 µs]. */
export function bucketBounds_ms(b: number): readonly [number, number] {
  return b <= 0 ? [0, FLOOR_MS] : [FLOOR_MS * 2 ** ((b - 1) / PER_DOUBLING), FLOOR_MS * 2 ** (b / PER_DOUBLING)];
}

export interface LatencyStats {
  readonly count: number;
  readonly mean_ms: number;
  readonly min_ms: number;
  readonly p50_ms: number;
  readonly p95_ms: number;
  readonly p99_ms: number;
  readonly max_ms: number;
}

/**
 * Latency samples in milliseconds, mergeable across processes: count, sum, min and max are exact;
 * percentiles come from log-spaced buckets and are within about 2% of the true value.
 */
export class LatencyHistogram {
  private count = 0;
  private sum = 0;
  private min = Infinity;
  private max = -Infinity;
  /**
   * Counts of buckets `lo`, `lo + 1`, …, dense: a delay lands in a few dozen neighbouring buckets,
   * and a live process records several a delivery (a Map of them was 2% of a site's CPU at saturation).
   */
  private lo = 0;
  private counts: number[] = [];

  static from(state: LatencyState): LatencyHistogram {
    const h = new LatencyHistogram();
    h.merge(state);
    return h;
  }

  record(ms: number): void {
    const v = Math.max(0, ms);
    this.count++;
    this.sum += v;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
    this.add(v <= FLOOR_MS ? 0 : Math.ceil(Math.log2(v / FLOOR_MS) * PER_DOUBLING), 1);
  }

  private add(b: number, n: number): void {
    const counts = this.counts;
    if (counts.length === 0) this.lo = b;
    else if (b < this.lo) {
      this.counts = [...new Array<number>(this.lo - b).fill(0), ...counts];
      this.lo = b;
    }
    const i = b - this.lo;
    while (this.counts.length <= i) this.counts.push(0);
    this.counts[i]! += n;
  }

  /** The buckets with a count, in increasing order. */
  private *filled(): IterableIterator<[number, number]> {
    for (let i = 0; i < this.counts.length; i++) if (this.counts[i]! > 0) yield [this.lo + i, this.counts[i]!];
  }

  merge(state: LatencyState): void {
    if (state.count === 0) return;
    this.count += state.count;
    this.sum += state.sum_ms;
    this.min = Math.min(this.min, state.min_ms);
    this.max = Math.max(this.max, state.max_ms);
    for (const [b, n] of Object.entries(state.buckets)) this.add(Number(b), n);
  }

  state(): LatencyState {
    return {
      count: this.count,
      sum_ms: this.sum,
      min_ms: this.count > 0 ? this.min : 0,
      max_ms: this.count > 0 ? this.max : 0,
      buckets: Object.fromEntries([...this.filled()].map(([b, n]) => [String(b), n])),
    };
  }

  stats(): LatencyStats {
    if (this.count === 0) return { count: 0, mean_ms: 0, min_ms: 0, p50_ms: 0, p95_ms: 0, p99_ms: 0, max_ms: 0 };
    const round = (x: number) => Math.round(x * 1000) / 1000;
    return {
      count: this.count,
      mean_ms: round(this.sum / this.count),
      min_ms: round(this.min),
      p50_ms: round(this.quantile(0.5)),
      p95_ms: round(this.quantile(0.95)),
      p99_ms: round(this.quantile(0.99)),
      max_ms: round(this.max),
    };
  }

  /** The bucket's geometric middle, clamped to the exact min and max. */
  private quantile(q: number): number {
    const target = q * this.count;
    let seen = 0;
    for (const [b, n] of this.filled()) {
      seen += n;
      if (seen >= target) {
        const mid = b === 0 ? FLOOR_MS : FLOOR_MS * 2 ** ((b - 0.5) / PER_DOUBLING);
        return Math.min(this.max, Math.max(this.min, mid));
      }
    }
    return this.max;
  }
}

/** The histogram under `key` in `m`, made empty the first time. */
export function histogramOf(m: Map<string, LatencyHistogram>, key: string): LatencyHistogram {
  let h = m.get(key);
  if (!h) m.set(key, (h = new LatencyHistogram()));
  return h;
}

/** The histogram under `outer`, then `inner` (a message type, then a link), made empty the first time. */
export function nestedHistogramOf(
  m: Map<string, Map<string, LatencyHistogram>>,
  outer: string,
  inner: string,
): LatencyHistogram {
  let inside = m.get(outer);
  if (!inside) m.set(outer, (inside = new Map()));
  return histogramOf(inside, inner);
}

/** Each histogram's state, in key order (stable files and reports). */
export function histogramStates(m: ReadonlyMap<string, LatencyHistogram>): Record<string, LatencyState> {
  return Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, h]) => [k, h.state()]));
}

/** Each nested histogram's state (message type, then link), both in key order. */
export function byTypeStates(
  m: ReadonlyMap<string, ReadonlyMap<string, LatencyHistogram>>,
): Record<string, Record<string, LatencyState>> {
  return Object.fromEntries(
    [...m].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, links]) => [k, histogramStates(links)]),
  );
}
