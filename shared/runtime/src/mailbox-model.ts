import type { LatencyState, MailboxSplit } from '@gridemu/protocol';
import { LatencyHistogram, histogramOf, histogramStates } from './latency-histogram.js';
import { LatencySampler, MEASURED_NETWORK_FORMAT, MeasuredNetwork } from './measured-network.js';
import { normalCdf } from './normal.js';
import { Timeline } from './timeline-ranks.js';

/**
 * The felt delays between processes of a live run in their two parts, as a replay draws them: until
 * a message reached its receiver's mailbox, and its wait there. Live, a timer that fires while an
 * answer waits in the mailbox is put behind it, so a claim's time-out races the answer's arrival,
 * not its handling; a replay that drew the whole felt delay timed out claims whose answers had
 * already arrived live (docs/faults.md). Absent from the network.json of older runs.
 */
export class MailboxModel {
  /** Each part as a network of its own: drawn by type, then link, with MeasuredNetwork's fallbacks. */
  private readonly arrived: MeasuredNetwork;
  private readonly waited: MeasuredNetwork;
  private readonly timeline: Timeline | undefined;
  private readonly waitTimeline: Timeline | undefined;
  private readonly localTimeline: Timeline | undefined;
  /** Timers' lateness per location (its windows, scored against the location's whole run), and that whole. */
  private readonly timerTimeline: Timeline | undefined;
  private readonly timerLagOf = new Map<string, LatencySampler>();

  private constructor(
    split: MailboxSplit,
    private readonly speedup: number,
  ) {
    const part = (byType: Record<string, Record<string, LatencyState>>, timerLag: LatencyState) =>
      new MeasuredNetwork({
        format: MEASURED_NETWORK_FORMAT,
        speedup,
        links: mergedLinks(byType),
        types: byType,
        timer_lag: timerLag,
      });
    this.arrived = part(split.arrived_by_type, split.timer_fire_lag);
    this.waited = part(split.waited_by_type, split.timer_fire_lag);
    this.timeline = split.arrived_timeline ? new Timeline(split.arrived_timeline) : undefined;
    this.waitTimeline = split.waited_timeline ? new Timeline(split.waited_timeline) : undefined;
    this.localTimeline = split.local_timeline ? new Timeline(split.local_timeline) : undefined;
    const timers = split.timer_fire_timeline;
    this.timerTimeline = timers ? new Timeline({ bin_s: timers.bin_s, links: timers.locations }) : undefined;
    for (const [location, whole] of this.timerTimeline?.wholes ?? [])
      this.timerLagOf.set(location, new LatencySampler(whole));
  }

  /**
   * Where in its link's whole run a message from `from` to `to` sent at `t_s` falls, as a rank in
   * (0, 1), given the uniform `u` of its copula draw: `u`'s quantile of the ranks the link's
   * messages sent then had live (`u` itself where the run has no timeline or sent nothing then). A
   * replay draws a message's rank from these, so a burst comes when the run had it and is as long
   * as it was, and over the run the ranks are uniform again.
   */
  rankAt(from: string, to: string, t_s: number, u: number): number {
    return this.timeline ? this.timeline.rankAt(`${from}->${to}`, t_s, u) : u;
  }

  /** The same for the waits of the link's messages that reached the mailbox at `t_s`. */
  waitRankAt(from: string, to: string, t_s: number, u: number): number {
    return this.waitTimeline ? this.waitTimeline.rankAt(`${from}->${to}`, t_s, u) : u;
  }

  /**
   * The quantile of its type's arrivals that a message from `from` to `to` sent at `t_s` draws,
   * given its standard normal score `z` (alike for messages close in time): placed where the
   * link's timeline had it then (rankAt), and read against the windows the type's own messages
   * were in live, so that over the run each type keeps its own delays. Read against the link's
   * whole run instead, a type crowded into the slow windows (the claims of a claim storm) drew its
   * own slow tail there a second time: on the K = 4 chaos spec a replay's claims, answers and
   * copies took 27-37% longer than the live run had measured them.
   */
  arrivalQuantile(from: string, to: string, type: string, t_s: number, z: number): number {
    return quantileOf(this.timeline, `${from}->${to}`, type, t_s, z);
  }

  /** The same for its wait in the mailbox it reached at `t_s` (waitRankAt). */
  waitQuantile(from: string, to: string, type: string, t_s: number, z: number): number {
    return quantileOf(this.waitTimeline, `${from}->${to}`, type, t_s, z);
  }

  /**
   * The same for a message between two actors at `location`, sent at `t_s`, on the quantiles of its
   * type's felt delays there (MeasuredNetwork): a process is slow to its own actors when it is slow
   * to everyone (the start's burst held a site's copy to its own queue for 630 emulated s on
   * average, against 20 after it).
   */
  localQuantile(location: string, type: string, t_s: number, z: number): number {
    return quantileOf(this.localTimeline, `${location}->${location}`, type, t_s, z);
  }

  /** The model of a measured network whose file has the split (else undefined). */
  static of(net: MeasuredNetwork): MailboxModel | undefined {
    return net.file.mailbox ? new MailboxModel(net.file.mailbox, net.speedup) : undefined;
  }

  /** Emulated seconds from sending to the receiver's mailbox, at quantile `q`, for a message of `type`. */
  arrivalAt_s(from: string, to: string, q: number, type: string): number {
    return this.arrived.delayAt_s(from, to, q, type);
  }

  meanArrival_s(from: string, to: string, type: string): number {
    return this.arrived.meanDelay_s(from, to, type);
  }

  /** Emulated seconds in the receiver's mailbox, at quantile `q`. */
  waitAt_s(from: string, to: string, q: number, type: string): number {
    return this.waited.delayAt_s(from, to, q, type);
  }

  meanWait_s(from: string, to: string, type: string): number {
    return this.waited.meanDelay_s(from, to, type);
  }

  /**
   * How late a timer of an actor at `location`, due at `due_s`, reaches its mailbox, emulated
   * seconds, given its standard normal score `z` (alike for timers close in time at a location):
   * from the location's own lateness, placed where its timeline had it then, when the run has a
   * timeline of timers (at the start's burst, live timers reached their mailbox late for seconds
   * of wall, which the whole run's lateness spread over the quiet stretches); else from every
   * timer's at Φ(z).
   */
  timerFireLag_s(location: string, due_s: number, z: number): number {
    const own = this.timerLagOf.get(location);
    if (!own) return this.arrived.timerLagAt_s(normalCdf(z));
    return (own.at_ms(this.timerTimeline!.rankAt(location, due_s, normalCdf(z))) * this.speedup) / 1000;
  }

  /** The mean lateness of `location`'s timers (of every timer's, without a timeline of them), emulated seconds. */
  meanTimerFireLag_s(location: string): number {
    const own = this.timerLagOf.get(location);
    return own ? (own.mean_ms * this.speedup) / 1000 : this.arrived.meanTimerLag_s();
  }
}

/** Every type's delays on each link together: a link's whole traffic. */
function mergedLinks(byType: Record<string, Record<string, LatencyState>>): Record<string, LatencyState> {
  const links = new Map<string, LatencyHistogram>();
  for (const byLink of Object.values(byType))
    for (const [link, st] of Object.entries(byLink)) histogramOf(links, link).merge(st);
  return histogramStates(links);
}

/** A message's quantile on `timeline` (MailboxModel.arrivalQuantile); a standard normal's without one. */
function quantileOf(timeline: Timeline | undefined, link: string, type: string, t_s: number, z: number): number {
  const u = normalCdf(z);
  if (!timeline) return u;
  const rank = timeline.rankAt(link, t_s, u);
  return timeline.mixtureOf(link, type)?.at(rank) ?? rank;
}
