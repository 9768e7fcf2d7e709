import type { LatencyState, MailboxSplit } from '@gridemu/protocol';
import { LatencyHistogram, bucketBounds_ms } from './latency-histogram.js';
import type { Rng } from './rng.js';

/**
 * The network a live run had, as `gridemu run` writes it to network.json and `gridemu simulate
 * --network-from` replays it: the delay each link felt, in wall milliseconds, with the
 * speed-up that turns it into emulated seconds.
 *
 * Felt, not only the wire: from the sender's actor time to the receiver's handling, so a timer's
 * lag (a live timer is handled at its due time, but what it sends leaves late), encoding, the
 * server, the delay proxy and the receiver's mailbox all count. A link joins two locations, the
 * driver being `driver`, and a location to itself is a link too: in-process messages wait in
 * mailboxes live, and take no time in the simulator otherwise.
 */
export interface MeasuredNetworkFile {
  readonly format: typeof MEASURED_NETWORK_FORMAT;
  readonly speedup: number;
  /** `from->to` → the delay its deliveries felt. */
  readonly links: Record<string, LatencyState>;
  /**
   * Message type → `from->to` → the delay that type's deliveries felt on the link (absent in files
   * of older runs, which replay every message of a link alike).
   */
  readonly types?: Record<string, Record<string, LatencyState>>;
  /** How late timers fired (for the record: replaying the links replays its effect). */
  readonly timer_lag: LatencyState;
  /**
   * The felt delays between processes in two parts, to the receiver's mailbox and in it, and how
   * late timers reached their mailbox (absent in files of older runs, whose replays race a timer
   * against each message's whole felt delay): see MailboxModel.
   */
  readonly mailbox?: MailboxSplit;
  /**
   * The run's bound on latest-value reports between processes, wall ms (live.report_interval_ms;
   * absent: none): the replay thins them the same way, in emulated time.
   */
  readonly report_interval_ms?: number;
  /**
   * The crashes the live run applied, as they happened: each process down from when it died to
   * when its restart had caught up, in emulated seconds (absent: none, or a run before this field).
   * A replay applies these rather than the spec's planned times, which the restart's start-up
   * stretches live.
   */
  readonly crashes?: readonly AppliedCrash[];
  /**
   * When the run's processes were cut off from the bus (a nats-server restart), emulated seconds:
   * from the first process's disconnection to the last one's reconnection, spans that overlap
   * merged (absent: none, or a run before this field). A replay holds every message between two
   * processes meanwhile; what those messages felt live is counted apart, not in `links`.
   */
  readonly outages?: readonly { readonly from_s: number; readonly to_s: number }[];
}

export interface AppliedCrash {
  readonly process: string;
  readonly from_s: number;
  readonly to_s: number;
  /**
   * When the run heard the process was back (the driver's time on hearing its rejoin announcement,
   * which every sender hears too): live, what waited for it in its senders' outboxes left again
   * then, after the recovery's own work. Recorded, not yet replayed: holding those messages until
   * then let a job's later message overtake a held one in a replay that keeps only each job's order
   * (docs/faults.md, "A held message is sent again"). Absent in files of older runs.
   */
  readonly resent_s?: number;
}

export const MEASURED_NETWORK_FORMAT = 'gridemu-network/1';

/** Draws from a latency histogram: a bucket by its share of the samples, then uniform inside it. */
export class LatencySampler {
  private readonly cumulative: number[] = [];
  private readonly ranges: (readonly [number, number])[] = [];

  constructor(readonly state: LatencyState) {
    let seen = 0;
    for (const [b, n] of Object.entries(state.buckets)
      .map(([b, n]) => [Number(b), n] as const)
      .sort(([a], [b]) => a - b)) {
      if (n <= 0) continue;
      seen += n;
      const [lo, hi] = bucketBounds_ms(b);
      // The exact min and max bound the end buckets.
      this.ranges.push([Math.max(lo, state.min_ms), Math.min(hi, state.max_ms)]);
      this.cumulative.push(seen);
    }
  }

  get empty(): boolean {
    return this.cumulative.length === 0;
  }

  draw_ms(rng: Rng): number {
    return this.at_ms(rng.next());
  }

  get mean_ms(): number {
    return this.state.count > 0 ? this.state.sum_ms / this.state.count : 0;
  }

  /** The delay at quantile `q` in [0, 1): the bucket holding it, then linearly inside it. */
  at_ms(q: number): number {
    if (this.empty) return 0;
    const total = this.cumulative[this.cumulative.length - 1]!;
    const u = Math.min(Math.max(q, 0), 1 - 1e-12) * total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid]! > u) hi = mid;
      else lo = mid + 1;
    }
    const [a, b] = this.ranges[lo]!;
    const below = lo > 0 ? this.cumulative[lo - 1]! : 0;
    const within = (u - below) / (this.cumulative[lo]! - below);
    return b > a ? a + within * (b - a) : a;
  }
}

/**
 * How many deliveries of one message type a link (or all links between locations together) must
 * have had live before the replay draws that type from them rather than from the link's whole
 * traffic: fewer make a few delays the only ones it can draw.
 */
export const MIN_TYPE_SAMPLES = 20;

/**
 * The measured network as the simulator uses it, in emulated seconds. A message is drawn from what
 * its own type felt on its link, where the live run delivered enough of them there; else from what
 * its type felt on every link between two locations together; else from its link's whole traffic.
 * Types differ in when they are sent: load reports all leave at each period's tick, when every
 * process wakes at once, and a job's copies between ticks, so copies cross faster than the link's
 * average (docs/fidelity-notes.md). A link that carried nothing live (e.g. one direction of a quiet
 * pair) draws from every link between two locations together, and within one location nothing
 * measured means no delay.
 */
export class MeasuredNetwork {
  private readonly links: Map<string, LatencySampler>;
  private readonly pooled: LatencySampler;
  private readonly typeLinks = new Map<string, Map<string, LatencySampler>>();
  private readonly typePooled = new Map<string, LatencySampler>();
  private readonly timerLag: LatencySampler;

  constructor(readonly file: MeasuredNetworkFile) {
    [this.links, this.pooled] = samplers(file.links, 1);
    for (const [type, links] of Object.entries(file.types ?? {})) {
      const [own, pooled] = samplers(links, MIN_TYPE_SAMPLES);
      this.typeLinks.set(type, own);
      if (pooled.state.count >= MIN_TYPE_SAMPLES) this.typePooled.set(type, pooled);
    }
    this.timerLag = new LatencySampler(file.timer_lag);
  }

  /** Reads network.json's text; a problem names the file and the field. */
  static parse(text: string, file: string): MeasuredNetwork {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      throw new Error(`${file}: not JSON (${(e as Error).message})`, { cause: e });
    }
    const fail = (field: string, why: string): never => {
      throw new Error(`${file}: ${field} ${why}`);
    };
    if (typeof doc !== 'object' || doc === null) return fail('(top level)', 'must be an object');
    const d = doc as Record<string, unknown>;
    if (d['format'] !== MEASURED_NETWORK_FORMAT)
      fail('format', `must be "${MEASURED_NETWORK_FORMAT}" (got ${JSON.stringify(d['format'])})`);
    if (!(typeof d['speedup'] === 'number' && d['speedup'] > 0)) fail('speedup', 'must be a positive number');
    if (typeof d['links'] !== 'object' || d['links'] === null || Array.isArray(d['links']))
      fail('links', 'must be an object of link → latency');
    const checkLinks = (field: string, links: object) => {
      for (const [link, s] of Object.entries(links)) {
        if (!/^[^>]+->[^>]+$/.test(link)) fail(`${field}["${link}"]`, 'must be named from->to');
        const problem = latencyProblem(s);
        if (problem) fail(`${field}["${link}"]`, problem);
      }
    };
    checkLinks('links', d['links'] as object);
    const isMap = (v: unknown): v is object => typeof v === 'object' && v !== null && !Array.isArray(v);
    // A map of message type (or, in a timeline, link) → link (or window) → latency.
    const checkNested = (field: string, v: unknown, outer: string, inner: string, innerIsLink: boolean) => {
      if (!isMap(v)) return fail(field, `must be an object of ${outer} → ${inner} → latency`);
      for (const [k, m] of Object.entries(v)) {
        if (!isMap(m)) fail(`${field}["${k}"]`, `must be an object of ${inner} → latency`);
        if (innerIsLink) checkLinks(`${field}["${k}"]`, m);
        else
          for (const [w, st] of Object.entries(m)) {
            if (!/^-?\d+$/.test(w)) fail(`${field}["${k}"]["${w}"]`, 'must be named by a whole window number');
            const problem = latencyProblem(st);
            if (problem) fail(`${field}["${k}"]["${w}"]`, problem);
          }
      }
    };
    // Message type → link → window → a count of messages, 0 or more (a timeline's counts_by_type).
    const checkCounts = (field: string, v: unknown) => {
      if (v === undefined) return;
      if (!isMap(v)) return fail(field, 'must be an object of message type → link → window → count');
      for (const [type, links] of Object.entries(v)) {
        if (!isMap(links)) return fail(`${field}["${type}"]`, 'must be an object of link → window → count');
        for (const [link, windows] of Object.entries(links)) {
          if (!/^[^>]+->[^>]+$/.test(link)) fail(`${field}["${type}"]["${link}"]`, 'must be named from->to');
          if (!isMap(windows)) return fail(`${field}["${type}"]["${link}"]`, 'must be an object of window → count');
          for (const [w, n] of Object.entries(windows)) {
            if (!/^-?\d+$/.test(w))
              fail(`${field}["${type}"]["${link}"]["${w}"]`, 'must be named by a whole window number');
            if (!(typeof n === 'number' && Number.isInteger(n) && n >= 0))
              fail(`${field}["${type}"]["${link}"]["${w}"]`, 'must be a count of messages, 0 or more');
          }
        }
      }
    };
    if (d['types'] !== undefined) checkNested('types', d['types'], 'message type', 'link', true);
    const mailbox = d['mailbox'];
    if (mailbox !== undefined) {
      if (!isMap(mailbox)) fail('mailbox', 'must be an object (arrived_by_type, waited_by_type, timer_fire_lag)');
      const m = mailbox as Record<string, unknown>;
      checkNested('mailbox.arrived_by_type', m['arrived_by_type'], 'message type', 'link', true);
      checkNested('mailbox.waited_by_type', m['waited_by_type'], 'message type', 'link', true);
      const fire = latencyProblem(m['timer_fire_lag']);
      if (fire) fail('mailbox.timer_fire_lag', fire);
      for (const f of ['arrived_timeline', 'waited_timeline', 'local_timeline']) {
        const timeline = m[f];
        if (timeline === undefined) continue;
        const t = timeline as Record<string, unknown> | null;
        if (!isMap(t) || !(typeof t['bin_s'] === 'number' && t['bin_s'] > 0))
          fail(`mailbox.${f}.bin_s`, 'must be a positive number of emulated seconds');
        checkNested(`mailbox.${f}.links`, t!['links'], 'link', 'window', false);
        checkCounts(`mailbox.${f}.counts_by_type`, t!['counts_by_type']);
      }
      const timers = m['timer_fire_timeline'] as Record<string, unknown> | null | undefined;
      if (timers !== undefined) {
        if (!isMap(timers) || !(typeof timers['bin_s'] === 'number' && timers['bin_s'] > 0))
          fail('mailbox.timer_fire_timeline.bin_s', 'must be a positive number of emulated seconds');
        checkNested('mailbox.timer_fire_timeline.locations', timers!['locations'], 'location', 'window', false);
      }
    }
    const lag = latencyProblem(d['timer_lag']);
    if (lag) fail('timer_lag', lag);
    // Spans of emulated time, each to_s no earlier than its from_s; a crash's also names its process.
    const checkSpans = (field: 'crashes' | 'outages', shape: string, named: boolean) => {
      const list = d[field];
      if (list === undefined) return;
      if (!Array.isArray(list)) fail(field, `must be a list of ${shape}`);
      (list as unknown[]).forEach((c, i) => {
        const x = c as Record<string, unknown> | null;
        const ok =
          typeof x === 'object' &&
          x !== null &&
          (!named || typeof x['process'] === 'string') &&
          typeof x['from_s'] === 'number' &&
          typeof x['to_s'] === 'number' &&
          x['to_s'] >= x['from_s'];
        if (!ok) fail(`${field}[${i}]`, `must be ${shape} with to_s no earlier than from_s`);
      });
    };
    checkSpans('crashes', '{ process, from_s, to_s }', true);
    ((d['crashes'] ?? []) as Record<string, unknown>[]).forEach((c, i) => {
      const resent = c['resent_s'];
      if (resent !== undefined && !(typeof resent === 'number' && resent >= (c['to_s'] as number)))
        fail(`crashes[${i}].resent_s`, 'must be emulated seconds no earlier than to_s');
    });
    checkSpans('outages', '{ from_s, to_s }', false);
    const bound = d['report_interval_ms'];
    if (bound !== undefined && !(typeof bound === 'number' && bound >= 0 && Number.isFinite(bound)))
      fail('report_interval_ms', 'must be a number of wall ms, 0 or more');
    return new MeasuredNetwork(doc as MeasuredNetworkFile);
  }

  /** The same network replayed without its mailbox split (MailboxModel): each message's whole felt delay at once. */
  withoutMailboxes(): MeasuredNetwork {
    if (!this.file.mailbox) return this;
    const { mailbox: _mailbox, ...rest } = this.file;
    return new MeasuredNetwork(rest);
  }

  get speedup(): number {
    return this.file.speedup;
  }

  /** The crashes the live run applied, as they happened (empty: none recorded). */
  get crashes(): readonly AppliedCrash[] {
    return this.file.crashes ?? [];
  }

  /** When the run's processes were cut off from the bus, as it happened (empty: never, or not recorded). */
  get outages(): readonly { readonly from_s: number; readonly to_s: number }[] {
    return this.file.outages ?? [];
  }

  /** The run's bound on latest-value reports between processes, in emulated seconds (0: none). */
  get reportInterval_s(): number {
    return ((this.file.report_interval_ms ?? 0) * this.file.speedup) / 1000;
  }

  /** Emulated seconds for one message (of type `type`, if given) from location `from` to location `to`. */
  delay_s(from: string, to: string, rng: Rng, type?: string): number {
    return this.delayAt_s(from, to, rng.next(), type);
  }

  /** The link's delay at quantile `q` for a message of `type`, emulated seconds (0 within a location the run never measured). */
  delayAt_s(from: string, to: string, q: number, type?: string): number {
    const s = this.sampler(from, to, type);
    return s ? (s.at_ms(q) * this.file.speedup) / 1000 : 0;
  }

  /** The link's mean delay for a message of `type`, emulated seconds. */
  meanDelay_s(from: string, to: string, type?: string): number {
    const s = this.sampler(from, to, type);
    return s ? (s.mean_ms * this.file.speedup) / 1000 : 0;
  }

  private sampler(from: string, to: string, type: string | undefined): LatencySampler | undefined {
    const link = `${from}->${to}`;
    if (type !== undefined) {
      const own = this.typeLinks.get(type)?.get(link) ?? (from === to ? undefined : this.typePooled.get(type));
      if (own) return own;
    }
    return this.links.get(link) ?? (from === to ? undefined : this.pooled);
  }

  /** Emulated seconds a timer fires late. */
  timerLag_s(rng: Rng): number {
    return this.timerLagAt_s(rng.next());
  }

  /** The timer lag at quantile `q`, emulated seconds. */
  timerLagAt_s(q: number): number {
    return (this.timerLag.at_ms(q) * this.file.speedup) / 1000;
  }

  /** The mean timer lag, emulated seconds. */
  meanTimerLag_s(): number {
    return (this.timerLag.mean_ms * this.file.speedup) / 1000;
  }

  /**
   * Mean emulated seconds per link, per message type where drawn apart (on each link it is drawn
   * from alone, and between locations together), and of the timer lag: what summary.json says
   * was replayed. With the mailbox split (MailboxModel), how it was replayed between processes:
   * arrivals and waits apart, timers' lateness before their mailbox, and the timeline's window.
   */
  describe(): {
    speedup: number;
    links: Record<string, number>;
    types?: Record<string, { links: Record<string, number>; between_locations_s?: number }>;
    timer_lag_mean_s: number;
    report_interval_s?: number;
    mailbox?: { timer_fire_lag_mean_s: number; timeline_window_s?: number };
  } {
    const mean_s = (s: LatencyState) => Math.round(s.count > 0 ? (s.sum_ms / s.count) * this.file.speedup : 0) / 1000;
    const means = (m: ReadonlyMap<string, LatencySampler>) =>
      Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, s]) => [k, mean_s(s.state)]));
    const types = [...this.typeLinks.keys()].sort().flatMap((type) => {
      const pooled = this.typePooled.get(type);
      const own = means(this.typeLinks.get(type)!);
      if (!pooled && Object.keys(own).length === 0) return [];
      return [[type, { links: own, ...(pooled ? { between_locations_s: mean_s(pooled.state) } : {}) }] as const];
    });
    return {
      speedup: this.file.speedup,
      links: means(this.links),
      ...(types.length > 0 ? { types: Object.fromEntries(types) } : {}),
      timer_lag_mean_s: mean_s(this.file.timer_lag),
      ...(this.reportInterval_s > 0 ? { report_interval_s: this.reportInterval_s } : {}),
      ...(this.file.mailbox
        ? {
            mailbox: {
              timer_fire_lag_mean_s: mean_s(this.file.mailbox.timer_fire_lag),
              ...(this.file.mailbox.arrived_timeline
                ? { timeline_window_s: this.file.mailbox.arrived_timeline.bin_s }
                : {}),
            },
          }
        : {}),
    };
  }
}

/**
 * A sampler per link with at least `min` deliveries, and one of every link between two locations
 * together (each link's deliveries, however few).
 */
function samplers(
  links: Readonly<Record<string, LatencyState>>,
  min: number,
): [Map<string, LatencySampler>, LatencySampler] {
  const own = new Map<string, LatencySampler>();
  const pool = new LatencyHistogram();
  for (const [link, s] of Object.entries(links)) {
    if (s.count === 0) continue;
    if (s.count >= min) own.set(link, new LatencySampler(s));
    const [from, to] = link.split('->');
    if (from !== to) pool.merge(s);
  }
  return [own, new LatencySampler(pool.state())];
}

function latencyProblem(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null) return 'must be a latency summary (count, sum_ms, min_ms, max_ms, buckets)';
  const s = v as Record<string, unknown>;
  for (const f of ['count', 'sum_ms', 'min_ms', 'max_ms'])
    if (!(typeof s[f] === 'number' && Number.isFinite(s[f]) && (s[f] as number) >= 0))
      return `.${f} must be a non-negative number`;
  const b = s['buckets'];
  if (typeof b !== 'object' || b === null || Array.isArray(b)) return '.buckets must be an object of bucket → count';
  for (const [k, n] of Object.entries(b))
    if (!/^\d+$/.test(k) || !(typeof n === 'number' && Number.isInteger(n) && n >= 0))
      return `.buckets["${k}"] must be a count under a bucket number`;
  return undefined;
}
