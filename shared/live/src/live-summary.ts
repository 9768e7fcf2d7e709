import type { LatencyState, MailboxTimeline } from '@gridemu/protocol';
import { MEASURED_NETWORK_FORMAT, type MeasuredNetworkFile } from '@gridemu/runtime';
import {
  LatencyHistogram,
  byTypeStates,
  mergeOutages,
  histogramOf,
  histogramStates,
  nestedHistogramOf,
  WindowCounts,
  type LatencyStats,
} from '@gridemu/runtime/live';
import type { LeaderResult } from './leader.js';
import { cpu_s, rss_mb, sortedRecord } from './process-stats.js';
import { warmUpFigures } from './warm-up.js';

export interface LiveSection {
  readonly speedup: number;
  readonly epoch_s: number;
  readonly emulated_s: number;
  /** Wall seconds for every process to be ready, and from the epoch to the last outcome. */
  readonly join_wall_s: number;
  readonly run_wall_s: number;
  readonly aborted?: string;
  /** One-way latency the actors saw on the wire, in wall ms: all cross-site messages, then per link. */
  readonly latency_ms: LatencyStats & { readonly links: Record<string, LatencyStats> };
  /** The same latency in emulated seconds (wall × speed-up): what the schedule actually felt. */
  readonly emulated_latency_mean_s: number;
  /** How late timers fired (event-loop lag and timer granularity), in wall ms, over every process. */
  readonly timer_lag_ms: LatencyStats;
  /** Each with its warm-up before the clock started (jobs, finished, wall ms), if it ran one. */
  readonly processes: Record<
    string,
    {
      pid: number;
      http: string;
      rss_mb?: number;
      peak_rss_mb?: number;
      cpu_s?: number;
      /** CPU from the clock's start (or a restart's resume) to the end: cpu_s less start-up and the warm-up. */
      run_cpu_s?: number;
      warm_up?: { jobs: number; finished: number; wall_ms: number };
    }
  >;
  readonly missing_reports: readonly string[];
  /** Processes that died unplanned and were started again by `gridemu run` (live.journal), by location. */
  readonly unplanned_restarts?: Record<string, number>;
  /**
   * When the run's processes were cut off from the bus (a nats-server restart), emulated seconds:
   * from the first one's disconnection to the last one's reconnection, overlapping spans merged.
   */
  readonly bus_outages?: readonly { readonly from_s: number; readonly to_s: number }[];
  /**
   * Each restart after a crash, once caught up: down from `down_from_s` to `rejoined_s` (emulated),
   * and how long it took to catch up, wall and emulated (× speed-up): from when its crash's plan had
   * it back (its successor stood by), or from the new process's start (a restart nobody planned).
   */
  readonly rejoins?: readonly {
    readonly process: string;
    readonly incarnation: number;
    readonly down_from_s: number;
    readonly rejoined_s: number;
    readonly down_s: number;
    readonly catch_up_wall_s: number;
    readonly catch_up_emulated_s: number;
    readonly replayed_entries: number;
    /** When the driver heard it was back (emulated): what waited for it was then sent again. */
    readonly heard_s: number;
  }[];
}

/**
 * What a live run adds to summary.json, the message counts of every process added up, and the
 * network it had (network.json, for `gridemu simulate --network-from`), with the bus's bound on
 * latest-value reports that the run had (`reportInterval_ms`, wall ms; 0: none).
 */
export function liveResults(r: LeaderResult, speedup: number, reportInterval_ms = 0) {
  const all = new Map<string, number>();
  const crossSite = new Map<string, number>();
  const counters = new Map<string, number>();
  const perHour = new Map<string, number>();
  const add = (into: Map<string, number>, from: Iterable<[string, number]>) => {
    for (const [k, v] of from) into.set(k, (into.get(k) ?? 0) + v);
  };
  add(all, r.runtime.messages.all);
  add(
    perHour,
    [...r.runtime.messagesPerHour()].map(([h, n]) => [String(h), n] as [string, number]),
  );
  add(crossSite, r.runtime.messages.crossSite);
  add(counters, r.runtime.counters);
  if (r.controlMalformed > 0) add(counters, [['control.malformed', r.controlMalformed]]);
  if (r.controlForged > 0) add(counters, [['control.forged_sender', r.controlForged]]);
  // What gridemu run's own process did to the run (crashes, server restarts, the proxies' drops).
  if (r.tally) add(counters, Object.entries(r.tally.counters));
  const unplanned =
    r.tally && Object.keys(r.tally.unplanned_restarts).length > 0 ? r.tally.unplanned_restarts : undefined;
  const links = new Map<string, LatencyHistogram>();
  const overall = new LatencyHistogram();
  const timerLag = LatencyHistogram.from(r.runtime.timerLag.state());
  const mergeLink = (link: string, s: LatencyState) => {
    histogramOf(links, link).merge(s);
    overall.merge(s);
  };
  for (const [link, h] of r.runtime.latency) mergeLink(link, h.state());
  const felt = new Map<string, LatencyHistogram>();
  const feltByType = new Map<string, Map<string, LatencyHistogram>>();
  const mergeFelt = (link: string, s: LatencyState) => histogramOf(felt, link).merge(s);
  const mergeFeltOfType = (type: string, link: string, s: LatencyState) =>
    nestedHistogramOf(feltByType, type, link).merge(s);
  for (const [link, h] of r.runtime.felt) mergeFelt(link, h.state());
  for (const [type, links] of r.runtime.feltByType)
    for (const [link, h] of links) mergeFeltOfType(type, link, h.state());
  // The felt delays between processes in their two parts, and timers' lateness before their mailbox.
  const arrived = new Map<string, Map<string, LatencyHistogram>>();
  const waited = new Map<string, Map<string, LatencyHistogram>>();
  const timerFireLag = LatencyHistogram.from(r.runtime.timerFireLag.state());
  const mergeByType = (into: typeof arrived, from: Record<string, Record<string, LatencyState>>) => {
    for (const [type, links] of Object.entries(from))
      for (const [link, st] of Object.entries(links)) nestedHistogramOf(into, type, link).merge(st);
  };
  mergeByType(arrived, byTypeStates(r.runtime.arrivedByType));
  mergeByType(waited, byTypeStates(r.runtime.waitedByType));
  // Every process's windows have one width (the run's speed-up); a process that had no arrivals has none.
  const timeline = new Map<string, Map<string, LatencyHistogram>>();
  const waitTimeline = new Map<string, Map<string, LatencyHistogram>>();
  const arrivedCounts = new WindowCounts();
  const waitedCounts = new WindowCounts();
  const timerTimeline = new Map<string, Map<string, LatencyHistogram>>();
  const localTimeline = new Map<string, Map<string, LatencyHistogram>>();
  const localCounts = new WindowCounts();
  const own = r.runtime.mailboxTimelines();
  let timelineBin_s = own?.bin_s;
  if (own) {
    mergeByType(timeline, byTypeStates(own.arrived));
    mergeByType(waitTimeline, byTypeStates(own.waited));
    arrivedCounts.merge(own.arrivedCounts.state());
    waitedCounts.merge(own.waitedCounts.state());
    mergeByType(timerTimeline, byTypeStates(own.timerFire));
    mergeByType(localTimeline, byTypeStates(own.local));
    localCounts.merge(own.localCounts.state());
  }
  // And the timers' and the processes' own messages' timelines: only when every process that had one sent it.
  let timersReported = true;
  let localReported = true;
  // Likewise the timelines' counts by type: only when every process that had arrivals sent them.
  let countsReported = true;
  // Only when every process that had arrivals reported its waits' timeline too (not a mix of versions).
  let waitsReported = true;
  let mailboxReported = true;
  // This runs in the driver process: its own figures sit beside the members' reports.
  const driverWarmUp = warmUpFigures(r.warmedUp);
  const processes: Record<string, LiveSection['processes'][string]> = {
    driver: {
      pid: process.pid,
      http: '',
      rss_mb: rss_mb(),
      cpu_s: cpu_s(),
      ...(r.run_cpu_s !== undefined ? { run_cpu_s: r.run_cpu_s } : {}),
      ...(driverWarmUp ? { warm_up: driverWarmUp } : {}),
    },
  };
  // The run's outages of the bus: every process's disconnections, the driver's own included, merged.
  const outageSpans = [...r.runtime.outageSpans()];
  for (const [name, m] of [...r.members].sort(([a], [b]) => (a < b ? -1 : 1))) {
    // The report's pid is the process that ended the run: a restarted one's `ready` may be lost.
    processes[name] = { pid: m.report?.pid ?? m.pid, http: m.http };
    if (!m.report) continue;
    add(all, Object.entries(m.report.messages.all));
    add(crossSite, Object.entries(m.report.messages.cross_site));
    add(perHour, Object.entries(m.report.messages.per_hour ?? {}));
    add(counters, Object.entries(m.report.counters));
    for (const [link, s] of Object.entries(m.report.latency)) mergeLink(link, s);
    timerLag.merge(m.report.timer_lag);
    for (const [link, s] of Object.entries(m.report.felt ?? {})) mergeFelt(link, s);
    outageSpans.push(...(m.report.outages ?? []));
    for (const [type, links] of Object.entries(m.report.felt_by_type ?? {}))
      for (const [link, s] of Object.entries(links)) mergeFeltOfType(type, link, s);
    if (m.report.mailbox) {
      const split = m.report.mailbox;
      mergeByType(arrived, split.arrived_by_type);
      mergeByType(waited, split.waited_by_type);
      if (split.arrived_timeline) {
        timelineBin_s ??= split.arrived_timeline.bin_s;
        mergeByType(timeline, split.arrived_timeline.links);
        if (split.waited_timeline) mergeByType(waitTimeline, split.waited_timeline.links);
        else waitsReported = false;
        const counts = split.arrived_timeline.counts_by_type;
        const waitCounts = split.waited_timeline?.counts_by_type;
        if (counts && waitCounts) {
          arrivedCounts.merge(counts);
          waitedCounts.merge(waitCounts);
        } else countsReported = false;
        if (split.timer_fire_timeline) mergeByType(timerTimeline, split.timer_fire_timeline.locations);
        else timersReported = false;
        const local = split.local_timeline;
        if (local?.counts_by_type) {
          mergeByType(localTimeline, local.links);
          localCounts.merge(local.counts_by_type);
        } else localReported = false;
      }
      timerFireLag.merge(split.timer_fire_lag);
    } else mailboxReported = false;
    processes[name] = {
      ...processes[name]!,
      rss_mb: m.report.rss_mb,
      peak_rss_mb: m.report.peak_rss_mb,
      cpu_s: m.report.cpu_s,
      ...(m.report.run_cpu_s !== undefined ? { run_cpu_s: m.report.run_cpu_s } : {}),
      ...(m.report.warm_up ? { warm_up: m.report.warm_up } : {}),
    };
  }
  const outages = mergeOutages(outageSpans, r.epoch_s).map((o) => ({
    from_s: round3(o.from_s),
    to_s: round3(o.to_s),
  }));
  const overallStats = overall.stats();
  const live: LiveSection = {
    speedup,
    epoch_s: r.epoch_s,
    emulated_s: Math.round((r.end_s - r.epoch_s) * 1000) / 1000,
    join_wall_s: r.join_wall_s,
    run_wall_s: r.run_wall_s,
    ...(r.aborted ? { aborted: r.aborted } : {}),
    latency_ms: {
      ...overallStats,
      links: Object.fromEntries([...links].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, h]) => [k, h.stats()])),
    },
    emulated_latency_mean_s: Math.round(((overallStats.mean_ms * speedup) / 1000) * 1000) / 1000,
    timer_lag_ms: timerLag.stats(),
    processes,
    missing_reports: r.missingReports,
    ...(unplanned ? { unplanned_restarts: unplanned } : {}),
    ...(outages.length > 0 ? { bus_outages: outages } : {}),
    ...(r.rejoins.length > 0
      ? {
          rejoins: r.rejoins.map((j) => ({
            process: j.member,
            incarnation: j.incarnation,
            down_from_s: round3(j.down_from_s),
            rejoined_s: round3(j.rejoined_s),
            down_s: round3(j.rejoined_s - j.down_from_s),
            catch_up_wall_s: round3(j.catch_up_wall_ms / 1000),
            catch_up_emulated_s: round3((j.catch_up_wall_ms / 1000) * speedup),
            replayed_entries: j.replayed_entries,
            heard_s: round3(j.heard_s),
          })),
        }
      : {}),
  };
  const per_hour = Object.fromEntries([...perHour].sort(([a], [b]) => Number(a) - Number(b)));
  const network: MeasuredNetworkFile = {
    format: MEASURED_NETWORK_FORMAT,
    speedup,
    links: histogramStates(felt),
    types: byTypeStates(feltByType),
    timer_lag: timerLag.state(),
    // Only when every process reported it: a replay must not race timers on some processes' half.
    ...(mailboxReported
      ? {
          mailbox: {
            arrived_by_type: byTypeStates(arrived),
            waited_by_type: byTypeStates(waited),
            timer_fire_lag: timerFireLag.state(),
            ...(timelineBin_s !== undefined
              ? { arrived_timeline: timelineOf(timelineBin_s, timeline, countsReported ? arrivedCounts : undefined) }
              : {}),
            ...(timelineBin_s !== undefined && waitsReported
              ? { waited_timeline: timelineOf(timelineBin_s, waitTimeline, countsReported ? waitedCounts : undefined) }
              : {}),
            ...(timelineBin_s !== undefined && timersReported
              ? { timer_fire_timeline: { bin_s: timelineBin_s, locations: byTypeStates(timerTimeline) } }
              : {}),
            ...(timelineBin_s !== undefined && localReported
              ? { local_timeline: timelineOf(timelineBin_s, localTimeline, localCounts) }
              : {}),
          },
        }
      : {}),
    ...(reportInterval_ms > 0 ? { report_interval_ms: reportInterval_ms } : {}),
    ...(r.rejoins.length > 0
      ? {
          crashes: r.rejoins.map((j) => ({
            process: j.member,
            from_s: j.down_from_s,
            to_s: j.rejoined_s,
            resent_s: j.heard_s,
          })),
        }
      : {}),
    ...(outages.length > 0 ? { outages } : {}),
  };
  return {
    live,
    messages: { all: sortedRecord(all), cross_site: sortedRecord(crossSite), per_hour },
    counters: sortedRecord(counters),
    network,
  };
}

/**
 * The mean delay one hop felt in a live run, wall ms, from network.json's links: between two sites
 * if any messages crossed, else between the driver and the sites (a scheme whose sites never talk,
 * whose only hops are the submissions and the reports); undefined with neither.
 */
export function feltHop_ms(links: Readonly<Record<string, LatencyState>>): number | undefined {
  let sites = { n: 0, sum: 0 };
  let driver = { n: 0, sum: 0 };
  for (const [link, s] of Object.entries(links)) {
    const [from, to] = link.split('->');
    if (from === to) continue;
    if (from === 'driver' || to === 'driver') driver = { n: driver.n + s.count, sum: driver.sum + s.sum_ms };
    else sites = { n: sites.n + s.count, sum: sites.sum + s.sum_ms };
  }
  const use = sites.n > 0 ? sites : driver;
  return use.n > 0 ? use.sum / use.n : undefined;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** One of network.json's timelines: its windows by link, and each type's counts when every process sent them. */
function timelineOf(
  bin_s: number,
  links: ReadonlyMap<string, ReadonlyMap<string, LatencyHistogram>>,
  counts: WindowCounts | undefined,
): MailboxTimeline {
  return { bin_s, links: byTypeStates(links), ...(counts ? { counts_by_type: counts.state() } : {}) };
}
