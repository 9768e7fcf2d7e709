import type { LatencyState, MailboxSplit } from '@gridemu/protocol';
import { LatencyHistogram } from './latency-histogram.js';
import { LatencySampler, MIN_TYPE_SAMPLES, type MeasuredNetwork } from './measured-network.js';
import { inverseNormalCdf } from './normal.js';

/**
 * The felt delays between processes of a live run in their two parts, as a replay draws them: until
 * a message reached its receiver's mailbox, and its wait there. Live, a timer that fires while an
 * answer waits in the mailbox is put behind it, so a claim's time-out races the answer's arrival,
 * not its handling; a replay that drew the whole felt delay timed out claims whose answers had
 * already arrived live (docs/faults.md). Absent from the network.json of older runs.
 */
export class MailboxModel {
  private readonly arrived: TypedDelays;
  private readonly waited: TypedDelays;
  private readonly timerFireLag: LatencySampler;
  private readonly timeline: Timeline | undefined;

  private constructor(
    split: MailboxSplit,
    private readonly speedup: number,
  ) {
    this.arrived = new TypedDelays(split.arrived_by_type);
    this.waited = new TypedDelays(split.waited_by_type);
    this.timerFireLag = new LatencySampler(split.timer_fire_lag);
    this.timeline = split.arrived_timeline ? new Timeline(split.arrived_timeline) : undefined;
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

  /** The model of a measured network whose file has the split (else undefined). */
  static of(net: MeasuredNetwork): MailboxModel | undefined {
    return net.file.mailbox ? new MailboxModel(net.file.mailbox, net.speedup) : undefined;
  }

  /** Emulated seconds from sending to the receiver's mailbox, at quantile `q`, for a message of `type`. */
  arrivalAt_s(from: string, to: string, q: number, type: string): number {
    return this.emulated(this.arrived.sampler(from, to, type)?.at_ms(q));
  }

  meanArrival_s(from: string, to: string, type: string): number {
    return this.emulated(this.arrived.sampler(from, to, type)?.mean_ms);
  }

  /** Emulated seconds in the receiver's mailbox, at quantile `q`. */
  waitAt_s(from: string, to: string, q: number, type: string): number {
    return this.emulated(this.waited.sampler(from, to, type)?.at_ms(q));
  }

  meanWait_s(from: string, to: string, type: string): number {
    return this.emulated(this.waited.sampler(from, to, type)?.mean_ms);
  }

  /** How late a timer reaches its mailbox, at quantile `q`, emulated seconds. */
  timerFireLagAt_s(q: number): number {
    return this.emulated(this.timerFireLag.at_ms(q));
  }

  meanTimerFireLag_s(): number {
    return this.emulated(this.timerFireLag.mean_ms);
  }

  private emulated(ms: number | undefined): number {
    return ((ms ?? 0) * this.speedup) / 1000;
  }
}

/**
 * Delays by message type, then link: a type's own delays on a link where it had at least
 * MIN_TYPE_SAMPLES, else the type's on every link together, else the link's of every type, else
 * every link's (MeasuredNetwork draws the whole felt delay the same way).
 */
class TypedDelays {
  private readonly own = new Map<string, LatencySampler>();
  private readonly typePooled = new Map<string, LatencySampler>();
  private readonly links = new Map<string, LatencySampler>();
  private readonly pooled: LatencySampler;

  constructor(byType: Readonly<Record<string, Readonly<Record<string, LatencyState>>>>) {
    const linkHistograms = new Map<string, LatencyHistogram>();
    const all = new LatencyHistogram();
    for (const [type, links] of Object.entries(byType)) {
      const typeAll = new LatencyHistogram();
      for (const [link, s] of Object.entries(links)) {
        if (s.count === 0) continue;
        if (s.count >= MIN_TYPE_SAMPLES) this.own.set(`${type}\u0000${link}`, new LatencySampler(s));
        typeAll.merge(s);
        all.merge(s);
        let h = linkHistograms.get(link);
        if (!h) linkHistograms.set(link, (h = new LatencyHistogram()));
        h.merge(s);
      }
      if (typeAll.state().count >= MIN_TYPE_SAMPLES) this.typePooled.set(type, new LatencySampler(typeAll.state()));
    }
    for (const [link, h] of linkHistograms) this.links.set(link, new LatencySampler(h.state()));
    this.pooled = new LatencySampler(all.state());
  }

  sampler(from: string, to: string, type: string): LatencySampler | undefined {
    const link = `${from}->${to}`;
    const s = this.own.get(`${type}\u0000${link}`) ?? this.typePooled.get(type) ?? this.links.get(link) ?? this.pooled;
    return s.empty ? undefined : s;
  }
}

const NEUTRAL = { mean: 0, sd: 1 } as const;

/** How many messages a window counts as, before its own: what pulls a thin window towards the whole run. */
const PRIOR_MESSAGES = 5;

/** Each link's windows (MailboxSplit.arrived_timeline) as normal scores: MailboxModel.levelAt. */
class Timeline {
  private readonly bin_s: number;
  private readonly levels = new Map<string, Map<number, { mean: number; sd: number }>>();

  constructor(timeline: NonNullable<MailboxSplit['arrived_timeline']>) {
    this.bin_s = timeline.bin_s;
    for (const [link, windows] of Object.entries(timeline.links)) {
      // The link's whole run, by bucket: each bucket's messages scored at their mid-rank.
      const whole = new LatencyHistogram();
      for (const w of Object.values(windows)) whole.merge(w);
      const total = whole.state();
      if (total.count === 0) continue;
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
}
