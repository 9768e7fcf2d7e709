/**
 * What a live run measured of itself, over the run's time: the fidelity guard judges each process's
 * timers window by window (backlog-windows.ts), and a report that shows only the run's means hides
 * the stretch where a run fell behind its clock. Read from network.json, which gridemu run writes.
 */

import { MIN_TIMERS_IN_WINDOW, timerWindowsOf } from '@gridemu/live';
import { LatencyHistogram, nestedHistogramOf } from '@gridemu/runtime/live';
import type { LatencyState, MailboxTimeline, TimerTimeline } from '@gridemu/protocol';
import { binMiddle_h, type TimeSeries } from './run-series.js';

/** What a live run's report reads of network.json. */
export interface ReportNetwork {
  readonly mailbox?: {
    readonly arrived_timeline?: MailboxTimeline;
    readonly timer_fire_timeline?: TimerTimeline;
  };
}

/** A window on the report's time axis: emulated hours since the first submission. */
function hourOf(window: number, bin_s: number, from_s: number): number {
  return binMiddle_h(window * bin_s, (window + 1) * bin_s, from_s);
}

/**
 * Processes in the order the report's other charts draw them, so that a site keeps its colour: the
 * spec's sites first, then the rest (the driver, a central metascheduler) by name.
 */
function inSiteOrder(names: Iterable<string>, sites: readonly string[]): string[] {
  const rank = (n: string) => (sites.includes(n) ? sites.indexOf(n) : sites.length);
  return [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** Wall ms at the run's speed-up, in emulated seconds: what the scheme's timeouts are set against. */
function emulated_s(wall_ms: number, speedup: number): number {
  return (wall_ms * speedup) / 1000;
}

/** What a point of a chart over time is of a window's timers or messages. */
export type WindowStatistic = 'mean' | 'p95';

/**
 * How late each process's timers reached their mailbox, per window, in emulated seconds: the
 * windows the guard judges, those with at least MIN_TIMERS_IN_WINDOW timers (one timer held up
 * by the machine is noise, not a stretch behind). Their mean, which the guard judges, or their
 * 95th percentile: a window whose mean is small can still hold the timers that fired late enough
 * to change what the scheme did.
 */
export function timerLagOverTime(
  timeline: TimerTimeline,
  speedup: number,
  from_s: number,
  sites: readonly string[],
  statistic: WindowStatistic = 'mean',
): TimeSeries[] {
  const windows = timerWindowsOf(timeline).filter((w) => w.count >= MIN_TIMERS_IN_WINDOW);
  const lag_ms = (w: (typeof windows)[number]) =>
    statistic === 'mean'
      ? w.mean_ms
      : LatencyHistogram.from(timeline.locations[w.location]![String(w.window)]!).stats().p95_ms;
  return inSiteOrder(Object.keys(timeline.locations), sites).map((location) => ({
    name: location,
    points: windows
      .filter((w) => w.location === location)
      .sort((a, b) => a.window - b.window)
      .map((w) => ({ x: hourOf(w.window, timeline.bin_s, from_s), y: emulated_s(lag_ms(w), speedup) })),
  }));
}

/**
 * Per receiving process, the time from the sending actor to its mailbox of the messages from
 * other processes, per window of when they were sent, in emulated seconds: the link latency the
 * spec asked for and what the processes and the wire added to it. Their mean, or their 95th
 * percentile: a window's mean can stay near the links' latency while one message in twenty waits
 * behind a busy process long enough to miss a timeout (issue 33's two-crash run: a mean of 288 ms,
 * a 95th percentile of 1.27 s).
 */
export function delayOverTime(
  timeline: MailboxTimeline,
  speedup: number,
  from_s: number,
  sites: readonly string[],
  statistic: WindowStatistic = 'mean',
): TimeSeries[] {
  const byReceiver = new Map<string, Map<string, LatencyHistogram>>();
  for (const [link, windows] of Object.entries(timeline.links)) {
    const receiver = link.slice(link.indexOf('->') + 2);
    for (const [w, state] of Object.entries(windows) as [string, LatencyState][])
      nestedHistogramOf(byReceiver, receiver, w).merge(state);
  }
  return inSiteOrder(byReceiver.keys(), sites).map((receiver) => ({
    name: `to ${receiver}`,
    points: [...byReceiver.get(receiver)!.entries()]
      .map(([w, h]) => ({ window: Number(w), h, state: h.state() }))
      .filter(({ state }) => state.count > 0)
      .sort((a, b) => a.window - b.window)
      .map(({ window, h, state }) => ({
        x: hourOf(window, timeline.bin_s, from_s),
        // The mean from the exact sum, not the rounded one of stats().
        y: emulated_s(statistic === 'mean' ? state.sum_ms / state.count : h.stats().p95_ms, speedup),
      })),
  }));
}
