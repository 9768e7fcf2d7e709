import { MEDIAN_RUN_TIMESCALE } from '@gridemu/schemes';

/**
 * The fidelity guard of `gridemu run`. A live run turns every wall millisecond a message
 * or a timer takes into `speed-up` emulated milliseconds: at 20,000× a 20 ms hop is 400 emulated
 * seconds. When one hop, or a timer's lag, is more than a few percent of the times the schedule
 * depends on (a claim's timeout, the load-report period, a typical job's run), the live run is no
 * longer the experiment the file describes. Pure: the driver measures, this judges.
 */
export interface GuardInput {
  readonly speedup: number;
  /** One hop between two sites, wall ms: the spec's latency and what the bus and queues add. */
  readonly hop_ms: number;
  /** How late a timer fires, wall ms (what it sends leaves that late). */
  readonly timer_lag_ms: number;
  /** The emulated durations the schedule depends on, by name, in seconds. */
  readonly timescales: Readonly<Record<string, number>>;
  /** The largest share of a timescale a hop or a lag may take (default 5%). */
  readonly share?: number;
  /**
   * The bus's bound on latest-value reports (LatestValueThrottle), wall ms, and the periods those
   * reports are sent on, by name, in emulated seconds: a period shorter than the bound times the
   * speed-up is thinned, and the actors see older loads than the file asks for.
   */
  readonly reports?: { readonly interval_ms: number; readonly periods: Readonly<Record<string, number>> };
}

export interface GuardVerdict {
  readonly speedup: number;
  readonly hop_ms: number;
  readonly timer_lag_ms: number;
  /** The same, in emulated seconds at this speed-up. */
  readonly hop_s: number;
  readonly timer_lag_s: number;
  readonly share: number;
  /** Each timescale the hop or the lag is too large a share of. */
  readonly exceeded: readonly {
    readonly name: string;
    readonly seconds: number;
    readonly hop_share: number;
    readonly lag_share: number;
  }[];
  /** Each report period the bus thins at this speed-up, with the emulated seconds between two reports that go. */
  readonly thinned: readonly { readonly name: string; readonly seconds: number; readonly sent_every_s: number }[];
  /** The largest round speed-up at which both stay under `share` of every timescale, and no report is thinned, when this one is too high. */
  readonly recommended_speedup?: number;
  readonly warnings: readonly string[];
}

export const DEFAULT_GUARD_SHARE = 0.05;

export function judgeFidelity(input: GuardInput): GuardVerdict {
  const share = input.share ?? DEFAULT_GUARD_SHARE;
  const hop_s = (input.hop_ms * input.speedup) / 1000;
  const timer_lag_s = (input.timer_lag_ms * input.speedup) / 1000;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const exceeded = Object.entries(input.timescales)
    .filter(([, seconds]) => seconds > 0 && Number.isFinite(seconds))
    .map(([name, seconds]) => ({
      name,
      seconds,
      hop_share: round(hop_s / seconds),
      lag_share: round(timer_lag_s / seconds),
    }))
    .filter((t) => t.hop_share > share || t.lag_share > share);
  const interval_ms = input.reports?.interval_ms ?? 0;
  const sent_every_s = (interval_ms * input.speedup) / 1000;
  const thinned = Object.entries(input.reports?.periods ?? {})
    .filter(([, seconds]) => interval_ms > 0 && seconds > 0 && sent_every_s > seconds)
    .map(([name, seconds]) => ({ name, seconds, sent_every_s: round(sent_every_s) }));
  const base = {
    speedup: input.speedup,
    hop_ms: round(input.hop_ms),
    timer_lag_ms: round(input.timer_lag_ms),
    hop_s: round(hop_s),
    timer_lag_s: round(timer_lag_s),
    share,
    exceeded,
    thinned,
  };
  if (exceeded.length === 0 && thinned.length === 0) return { ...base, warnings: [] };
  const warnings = exceeded.map(
    (t) =>
      `at speed-up ${input.speedup} one hop is ${fmt(hop_s)} emulated s and a timer's lag ${fmt(timer_lag_s)} s: ` +
      `${pct(Math.max(t.hop_share, t.lag_share))} of ${t.name} (${fmt(t.seconds)} s), over the ${pct(share)} this run can absorb`,
  );
  // Hops and lags scale with the speed-up (their wall milliseconds stay, at best): the largest
  // speed-up that keeps the worst of them within its share of the shortest timescale.
  const speedups: number[] = [];
  if (exceeded.length > 0) {
    const { name, seconds: shortest } = shortestTimescale(input.timescales)!;
    const worst_ms = Math.max(input.hop_ms, input.timer_lag_ms);
    const enough = roundDown((share * shortest * 1000) / worst_ms);
    speedups.push(enough);
    // The jobs' median run is the workload's: no timeout or period lengthened makes it longer.
    const theJobs = name === MEDIAN_RUN_TIMESCALE;
    warnings.push(
      enough >= 1
        ? `speed-up ${enough} or lower keeps them under ${pct(share)} of ${fmt(shortest)} s` +
            (theJobs
              ? ` (${name}, the jobs' median run, is the workload's own)`
              : ' (or lengthen the timeouts and periods)')
        : `no speed-up of 1 or more keeps them under ${pct(share)} of ${fmt(shortest)} s: ` +
            (theJobs
              ? `shorten network.latency_ms (${name}, the jobs' median run, is the workload's own)`
              : 'lengthen the timeouts and periods, or shorten network.latency_ms'),
    );
  }
  if (thinned.length > 0) {
    for (const t of thinned) {
      warnings.push(
        `at speed-up ${input.speedup} the bus carries a report at most every ${fmt(interval_ms)} wall ms (live.report_interval_ms), ` +
          `${fmt(sent_every_s)} emulated s: longer than ${t.name} (${fmt(t.seconds)} s), so about one report in ${fmt(sent_every_s / t.seconds)} reaches other processes`,
      );
    }
    // The bound is wall time: the speed-up at which it is no longer than the shortest report period.
    const enough = roundDown((Math.min(...thinned.map((t) => t.seconds)) * 1000) / interval_ms);
    speedups.push(enough);
    warnings.push(
      `speed-up ${enough} or lower lets every report through (or lengthen the period, or lower live.report_interval_ms)`,
    );
  }
  const recommended = Math.min(...speedups);
  return { ...base, recommended_speedup: recommended, warnings };
}

/** The shortest of the timescales that are positive and finite, with its name; undefined if none is. */
export function shortestTimescale(
  timescales: Readonly<Record<string, number>>,
): { readonly name: string; readonly seconds: number } | undefined {
  let shortest: { name: string; seconds: number } | undefined;
  for (const [name, seconds] of Object.entries(timescales))
    if (seconds > 0 && Number.isFinite(seconds) && (shortest === undefined || seconds < shortest.seconds))
      shortest = { name, seconds };
  return shortest;
}

/** Down to 1, 2 or 5 times a power of ten. */
function roundDown(x: number): number {
  if (!(x >= 1)) return Math.max(0, Math.floor(x * 100) / 100);
  const p = 10 ** Math.floor(Math.log10(x));
  const m = x / p;
  return (m >= 5 ? 5 : m >= 2 ? 2 : 1) * p;
}

const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
/** A share as a percentage, one decimal under 10%. */
export const pct = (x: number) => `${(x * 100).toFixed(x < 0.1 ? 1 : 0)}%`;
