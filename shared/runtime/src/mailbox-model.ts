import type { LatencyState, MailboxSplit, MailboxTimeline } from '@gridemu/protocol';
import { LatencyHistogram, histogramOf, histogramStates } from './latency-histogram.js';
import { LatencySampler, MEASURED_NETWORK_FORMAT, MeasuredNetwork } from './measured-network.js';
import { inverseNormalCdf, normalCdf } from './normal.js';

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
   * Where a link's arrivals stood at emulated time `t_s` live, as a normal score: the mean and
   * spread of the scores its messages sent then had in the link's whole run (mean 0 and spread 1
   * where the run has no timeline or nothing was sent then). A replay draws a message's score
   * from these, so a burst comes when the run had it, and over the run the scores are standard
   * normal again (the windows' means and spreads add up to the whole run's).
   */
  levelAt(from: string, to: string, t_s: number): { readonly mean: number; readonly sd: number } {
    return this.timeline?.levelAt(`${from}->${to}`, t_s) ?? NEUTRAL;
  }

  /**
   * The same for the waits of the link's messages that reached the mailbox at `t_s`: a process
   * behind, as after a restart or in a claim storm, keeps its waits long for a while.
   */
  waitLevelAt(from: string, to: string, t_s: number): { readonly mean: number; readonly sd: number } {
    return this.waitTimeline?.levelAt(`${from}->${to}`, t_s) ?? NEUTRAL;
  }

  /**
   * The quantile of its type's arrivals that a message from `from` to `to` sent at `t_s` draws,
   * given its standard normal score `z` (alike for messages close in time): placed where the
   * link's timeline had it then (levelAt), and read against the windows the type's own messages
   * were in live, so that over the run each type keeps its own delays. Read through a standard
   * normal instead, a type crowded into the slow windows (the claims of a claim storm) drew its
   * own slow tail there a second time: on the K = 4 chaos spec a replay's claims, answers and
   * copies took 27-37% longer than the live run had measured them.
   */
  arrivalQuantile(from: string, to: string, type: string, t_s: number, z: number): number {
    return quantileOf(this.timeline, `${from}->${to}`, type, t_s, z);
  }

  /** The same for its wait in the mailbox it reached at `t_s` (waitLevelAt). */
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
    const level = this.timerTimeline!.levelAt(location, due_s) ?? NEUTRAL;
    return (own.at_ms(normalCdf(level.mean + level.sd * z)) * this.speedup) / 1000;
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

const NEUTRAL = { mean: 0, sd: 1 } as const;

/** A message's quantile on `timeline` (MailboxModel.arrivalQuantile); a standard normal's without one. */
function quantileOf(timeline: Timeline | undefined, link: string, type: string, t_s: number, z: number): number {
  if (!timeline) return normalCdf(z);
  const level = timeline.levelAt(link, t_s) ?? NEUTRAL;
  const x = level.mean + level.sd * z;
  const mixture = timeline.mixtureOf(link, type);
  if (!mixture) return normalCdf(x);
  let q = 0;
  for (const c of mixture) q += c.p * normalCdf((x - c.mean) / c.sd);
  return q;
}

/** One window's part of a type's scores on a link: its share of the type's messages, and its level. */
interface MixtureComponent {
  readonly p: number;
  readonly mean: number;
  readonly sd: number;
}

/** How many messages a window counts as, before its own: what pulls a thin window towards the whole run. */
const PRIOR_MESSAGES = 5;

/** Each link's windows (MailboxSplit's arrived_timeline or waited_timeline) as normal scores: MailboxModel.levelAt. */
class Timeline {
  private readonly bin_s: number;
  private readonly levels = new Map<string, Map<number, { mean: number; sd: number }>>();
  /** Each link's windows merged: its whole run (links with none left out). */
  readonly wholes = new Map<string, LatencyState>();
  /** Type → link → window → count, as the file has them (absent in older files). */
  private readonly counts: MailboxTimeline['counts_by_type'];
  /** Per link and type, the distribution of scores its messages drew live (mixtureOf), built when first asked. */
  private readonly mixtures = new Map<string, readonly MixtureComponent[] | undefined>();

  constructor(timeline: MailboxTimeline) {
    this.bin_s = timeline.bin_s;
    this.counts = timeline.counts_by_type;
    for (const [link, windows] of Object.entries(timeline.links)) {
      // The link's whole run, by bucket: each bucket's messages scored at their mid-rank.
      const whole = new LatencyHistogram();
      for (const w of Object.values(windows)) whole.merge(w);
      const total = whole.state();
      if (total.count === 0) continue;
      this.wholes.set(link, total);
      const score = new Map<string, number>();
      let below = 0;
      let sumSq = 0;
      for (const [b, n] of Object.entries(total.buckets).sort(([a], [c]) => Number(a) - Number(c))) {
        const z = inverseNormalCdf((below + n / 2) / total.count);
        score.set(b, z);
        sumSq += n * z * z;
        below += n;
      }
      // Bucketed scores spread less than the messages' own: rescaled so the whole run's spread is 1.
      const scale = sumSq > 0 ? Math.sqrt(total.count / sumSq) : 1;
      const levels = new Map<number, { mean: number; sd: number }>();
      for (const [w, st] of Object.entries(windows)) {
        let n = 0;
        let sum = 0;
        let sq = 0;
        for (const [b, k] of Object.entries(st.buckets)) {
          const z = (score.get(b) ?? 0) * scale;
          n += k;
          sum += k * z;
          sq += k * z * z;
        }
        if (n === 0) continue;
        const mean = sum / n;
        const variance = Math.max(0, sq / n - mean * mean);
        const weight = n / (n + PRIOR_MESSAGES);
        levels.set(Number(w), {
          mean: weight * mean,
          sd: Math.sqrt(weight * variance + (1 - weight) * 1),
        });
      }
      this.levels.set(link, levels);
    }
  }

  levelAt(link: string, t_s: number): { readonly mean: number; readonly sd: number } | undefined {
    return this.levels.get(link)?.get(Math.floor(t_s / this.bin_s));
  }

  /**
   * The scores `type`'s messages on `link` drew live: each window's level weighted by how many of
   * them it held. Its CDF turns a score back into a quantile of the type's own delays, uniform over
   * its messages as they fell live. Undefined when the file has no counts for them.
   */
  mixtureOf(link: string, type: string): readonly MixtureComponent[] | undefined {
    const key = `${link}\u0000${type}`;
    if (this.mixtures.has(key)) return this.mixtures.get(key);
    const windows = this.counts?.[type]?.[link];
    let total = 0;
    for (const n of Object.values(windows ?? {})) total += n;
    const levels = this.levels.get(link);
    const mixture =
      windows === undefined || total === 0
        ? undefined
        : Object.entries(windows)
            .filter(([, n]) => n > 0)
            .map(([w, n]) => ({ p: n / total, ...(levels?.get(Number(w)) ?? NEUTRAL) }));
    this.mixtures.set(key, mixture);
    return mixture;
  }
}
