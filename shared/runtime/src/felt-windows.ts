import type { FeltLinkWindows, FeltWindowsState } from '@gridemu/protocol';
import { LatencyHistogram } from './latency-histogram.js';
import { LatencySampler } from './measured-network.js';

/**
 * A window's first length, wall ms. A live process's delays follow the machine's load, which moves
 * over a few hundred ms (a burst of claims, a restart replaying its journal on the other core):
 * in a 1,600-job chaos run at 20,000× the mean felt delay between sites went from 12 ms in quiet
 * windows of this length to 40-70 ms in busy ones, and the busy ones are when jobs wait.
 */
export const FELT_WINDOW_MS = 250;

/**
 * At most this many (window, series) entries a process keeps, a series being a link or one message
 * type on it: past it, every window doubles in length, so a long run's report stays a few hundred
 * KB whatever its length or number of links.
 */
export const MAX_FELT_WINDOW_ENTRIES = 2048;

/** A span of windows needs this many deliveries on a link: fewer cannot stand for its delays. */
export const MIN_FELT_WINDOW_SAMPLES = 20;

/** The levels each kept window is summed up at: deciles, and the tail, where a few slow deliveries hold jobs for long. */
export const FELT_WINDOW_QUANTILES: readonly number[] = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1];

/** A series is a link's deliveries, or one message type's on it (`link` NUL `type`). */
const SEP = '\u0000';

/**
 * The delay deliveries felt per link, and per message type on each link, window by window of the
 * emulated time they were sent, in wall ms. Windows are aligned on emulated 0, so windows of
 * different processes (and lengths, which are the first one doubled) line up.
 */
export class FeltWindows {
  private window_s: number | undefined;
  /** Window index (start / window_s) → series → its delays. */
  private readonly windows = new Map<number, Map<string, LatencyHistogram>>();
  private entries = 0;

  record(link: string, type: string, sent_s: number, ms: number, speedup: number): void {
    if (!Number.isFinite(sent_s)) return;
    this.window_s ??= (FELT_WINDOW_MS * speedup) / 1000;
    const k = Math.floor(sent_s / this.window_s);
    let series = this.windows.get(k);
    if (!series) this.windows.set(k, (series = new Map()));
    let added = 0;
    for (const key of [link, `${link}${SEP}${type}`]) {
      let h = series.get(key);
      if (!h) {
        series.set(key, (h = new LatencyHistogram()));
        added++;
      }
      h.record(ms);
    }
    // After the record: coarsening merges the histograms into new ones.
    if ((this.entries += added) > MAX_FELT_WINDOW_ENTRIES) this.coarsen();
  }

  /** Every window twice as long: each pair of neighbours merged. */
  private coarsen(): void {
    const old = [...this.windows];
    this.windows.clear();
    this.entries = 0;
    this.window_s! *= 2;
    for (const [k, series] of old) {
      const j = Math.floor(k / 2);
      let into = this.windows.get(j);
      if (!into) this.windows.set(j, (into = new Map()));
      for (const [key, h] of series) {
        let to = into.get(key);
        if (!to) {
          into.set(key, (to = new LatencyHistogram()));
          this.entries++;
        }
        to.merge(h.state());
      }
    }
  }

  /**
   * What a report carries: each link's run, and each message type's on it, cut into spans of whole
   * windows, each span the fewest windows in a row that hold MIN_FELT_WINDOW_SAMPLES deliveries (a
   * quiet stretch takes several; a last span with fewer joins the one before it), summed up as
   * delays at FELT_WINDOW_QUANTILES. So every delivery stands in the span of when it was sent,
   * quiet times too: were they left to the whole run's delays, which the busy windows fill, a
   * replay would make quiet times as slow as the run's average. A type with fewer deliveries on a
   * link than one span needs is left out: the replay draws it from the link's spans.
   */
  state(): FeltWindowsState {
    const links: Record<string, FeltLinkWindows> = {};
    const types: Record<string, Record<string, FeltLinkWindows>> = {};
    const width = this.window_s;
    if (width === undefined) return { quantiles: FELT_WINDOW_QUANTILES, links };
    const bySeries = new Map<string, [number, LatencyHistogram][]>();
    for (const k of [...this.windows.keys()].sort((a, b) => a - b))
      for (const [key, h] of this.windows.get(k)!) {
        let list = bySeries.get(key);
        if (!list) bySeries.set(key, (list = []));
        list.push([k, h]);
      }
    for (const [key, list] of [...bySeries].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const [link, type] = key.split(SEP) as [string, string | undefined];
      const windows = spansOf(list, width);
      if (type === undefined) links[link] = windows;
      else if (Object.values(windows.at).reduce((n, x) => n + x.count, 0) >= MIN_FELT_WINDOW_SAMPLES)
        (types[type] ??= {})[link] = windows;
    }
    return {
      quantiles: FELT_WINDOW_QUANTILES,
      links,
      ...(Object.keys(types).length > 0 ? { types } : {}),
    };
  }
}

/** One series' windows (in order) as spans of MIN_FELT_WINDOW_SAMPLES deliveries or more, each at FELT_WINDOW_QUANTILES. */
function spansOf(list: readonly [number, LatencyHistogram][], width: number): FeltLinkWindows {
  const spans: [number, LatencyHistogram][] = [];
  let open: [number, LatencyHistogram] | undefined;
  for (const [k, h] of list) {
    open ??= [k, new LatencyHistogram()];
    open[1].merge(h.state());
    if (open[1].state().count >= MIN_FELT_WINDOW_SAMPLES) {
      spans.push(open);
      open = undefined;
    }
  }
  if (open) {
    const last = spans[spans.length - 1];
    if (last) last[1].merge(open[1].state());
    else spans.push(open);
  }
  const at: Record<string, { count: number; q_ms: number[] }> = {};
  for (const [k, h] of spans) {
    const s = h.state();
    const sampler = new LatencySampler(s);
    at[String(k * width)] = {
      count: s.count,
      q_ms: FELT_WINDOW_QUANTILES.map((q) => Math.round(sampler.at_ms(q) * 1000) / 1000),
    };
  }
  return { window_s: width, at };
}
