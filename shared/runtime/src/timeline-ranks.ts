import type { LatencyState, MailboxTimeline } from '@gridemu/protocol';
import { LatencyHistogram } from './latency-histogram.js';

// A live run's timelines (network.json's mailbox: arrivals by when sent, waits by when they reached
// the mailbox, a process's own messages, timers by when due; per link or location and window of the
// run) as a replay reads them: where in the link's whole run a message sent in a window falls.

/**
 * One window of a link: the positions (in the link's order of buckets) of the buckets its messages
 * fell in, ascending, and how many of its messages fell before each of them (`before`, one longer).
 */
interface Window {
  readonly positions: readonly number[];
  readonly before: readonly number[];
  readonly n: number;
}

/**
 * A link's whole run as ranks: its buckets in order, each holding the ranks (0, 1) of its messages
 * (bucket i from `edges[i]` to `edges[i + 1]`), and each window's share of them.
 */
class LinkRanks {
  private readonly edges: Float64Array;
  private readonly windows = new Map<number, Window>();

  constructor(whole: LatencyState, windows: Record<string, LatencyState>) {
    const order = Object.entries(whole.buckets)
      .map(([b, n]) => [Number(b), n] as const)
      .sort(([a], [b]) => a - b);
    this.edges = new Float64Array(order.length + 1);
    const position = new Map<number, number>();
    let below = 0;
    order.forEach(([b, n], i) => {
      position.set(b, i);
      below += n;
      this.edges[i + 1] = below / whole.count;
    });
    for (const [w, st] of Object.entries(windows)) {
      const cells = Object.entries(st.buckets)
        .map(([b, n]) => [position.get(Number(b))!, n] as const)
        .sort(([a], [b]) => a - b);
      const before = [0];
      for (const [, k] of cells) before.push(before[before.length - 1]! + k);
      const n = before[before.length - 1]!;
      if (n > 0) this.windows.set(Number(w), { positions: cells.map(([i]) => i), before, n });
    }
  }

  windowOf(w: number): Window | undefined {
    return this.windows.get(w);
  }

  /**
   * The share of a window's messages ranked below bucket i's lower edge (i from 0 to the number
   * of buckets), linear in the rank within a bucket; without a window, the whole run's. A thin
   * window is its own messages alone: pulled towards the whole run, as it once was (as if it held
   * 5 more messages), a quiet window late in the run drew the start's burst's tail, and the
   * replays' submissions there took a third longer than live's (docs/faults.md, "The late-trace
   * bias").
   */
  shareBelow(window: Window | undefined, i: number): number {
    if (!window) return this.edges[i]!;
    // How many of the window's buckets lie below edge i.
    let lo = 0;
    let hi = window.positions.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (window.positions[mid]! < i) lo = mid + 1;
      else hi = mid;
    }
    return window.before[lo]! / window.n;
  }

  /**
   * Windows' shares of the ranks (shareBelow) mixed, each window weighted by `p`, at every bucket
   * edge: one pass over each window's buckets rather than a search per edge.
   */
  mixedShares(parts: Iterable<readonly [Window | undefined, number]>): Float64Array {
    const steps = new Float64Array(this.edges.length);
    let whole = 0;
    for (const [window, p] of parts) {
      if (!window) {
        whole += p;
        continue;
      }
      // A window's messages in bucket j are below every edge past it.
      for (let j = 0; j < window.positions.length; j++) {
        steps[window.positions[j]! + 1] =
          steps[window.positions[j]! + 1]! + (p * (window.before[j + 1]! - window.before[j]!)) / window.n;
      }
    }
    const out = new Float64Array(this.edges.length);
    let below = 0;
    for (let i = 0; i < out.length; i++) {
      below += steps[i]!;
      out[i] = below + whole * this.edges[i]!;
    }
    return out;
  }

  /** The rank at which a window's share of the ranks (shareBelow) reaches `u`. */
  rankAt(window: Window | undefined, u: number): number {
    return this.invert((i) => this.shareBelow(window, i), u);
  }

  /** The rank at which `share` (given at the bucket edges, rising, linear within a bucket) reaches `u`. */
  private invert(share: (edge: number) => number, u: number): number {
    let lo = 0;
    let hi = this.edges.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (share(mid) <= u) lo = mid;
      else hi = mid;
    }
    const [a, b] = [share(lo), share(hi)];
    const f = b > a ? Math.min(1, Math.max(0, (u - a) / (b - a))) : 0.5;
    return this.edges[lo]! + f * (this.edges[hi]! - this.edges[lo]!);
  }

  /** A function of rank given at the bucket edges (`values`), read linearly within a bucket. */
  atRank(values: Float64Array, rank: number): number {
    let lo = 0;
    let hi = this.edges.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (this.edges[mid]! <= rank) lo = mid;
      else hi = mid;
    }
    const span = this.edges[hi]! - this.edges[lo]!;
    const f = span > 0 ? Math.min(1, Math.max(0, (rank - this.edges[lo]!) / span)) : 0.5;
    return values[lo]! + f * (values[hi]! - values[lo]!);
  }
}

/** A type's messages on a link as they fell live: the share of them ranked below each rank of the link's whole run. */
class TypeRanks {
  constructor(
    private readonly link: LinkRanks,
    private readonly cdf: Float64Array,
  ) {}

  /** The quantile of the type's own delays that a message at `rank` of the link's whole run has. */
  at(rank: number): number {
    return this.link.atRank(this.cdf, rank);
  }
}

/**
 * Each link's windows (MailboxSplit's arrived_timeline or waited_timeline, or a location's timers),
 * as ranks within the link's whole run: MailboxModel.rankAt. A window is replayed with its own
 * histogram, not a summary of it: its slow tail (a few messages held for a whole turn) is what
 * makes its mean, and a normal score's mean and spread put the start's burst about 5% short.
 */
export class Timeline {
  private readonly bin_s: number;
  private readonly links = new Map<string, LinkRanks>();
  /** Each link's windows merged: its whole run (links with none left out). */
  readonly wholes = new Map<string, LatencyState>();
  /** Type → link → window → count, as the file has them (absent in older files). */
  private readonly counts: MailboxTimeline['counts_by_type'];
  /** Per link and type, where its messages fell in the link's ranks live (mixtureOf), built when first asked. */
  private readonly mixtures = new Map<string, TypeRanks | undefined>();

  constructor(timeline: MailboxTimeline) {
    this.bin_s = timeline.bin_s;
    this.counts = timeline.counts_by_type;
    for (const [link, windows] of Object.entries(timeline.links)) {
      const whole = new LatencyHistogram();
      for (const w of Object.values(windows)) whole.merge(w);
      const total = whole.state();
      if (total.count === 0) continue;
      this.wholes.set(link, total);
      this.links.set(link, new LinkRanks(total, windows));
    }
  }

  /** The rank in `link`'s whole run at which the ranks of its messages sent in `t_s`'s window reach `u`. */
  rankAt(link: string, t_s: number, u: number): number {
    const ranks = this.links.get(link);
    if (!ranks) return u;
    const window = ranks.windowOf(Math.floor(t_s / this.bin_s));
    return window ? ranks.rankAt(window, u) : u;
  }

  /**
   * Where `type`'s messages on `link` fell among the link's ranks live: each window's ranks weighted
   * by how many of them it held. It turns a rank back into a quantile of the type's own delays,
   * uniform over its messages as they fell live. Undefined when the file has no counts for them.
   */
  mixtureOf(link: string, type: string): TypeRanks | undefined {
    const key = `${link}\u0000${type}`;
    if (this.mixtures.has(key)) return this.mixtures.get(key);
    const windows = this.counts?.[type]?.[link];
    const ranks = this.links.get(link);
    let total = 0;
    for (const n of Object.values(windows ?? {})) total += n;
    let mixture: TypeRanks | undefined;
    if (windows !== undefined && ranks !== undefined && total > 0) {
      const parts = Object.entries(windows)
        .filter(([, n]) => n > 0)
        .map(([w, n]) => [ranks.windowOf(Number(w)), n / total] as const);
      mixture = new TypeRanks(ranks, ranks.mixedShares(parts));
    }
    this.mixtures.set(key, mixture);
    return mixture;
  }
}
