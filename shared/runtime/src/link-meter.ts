import { LatencyHistogram, histogramOf, nestedHistogramOf } from './latency-histogram.js';
import { WindowCounts } from './window-counts.js';

/** The width of a window of a link's timeline (LinkMeter.arrivedTimeline), wall ms. */
export const TIMELINE_BIN_WALL_MS = 500;

/** The same width in emulated seconds at `speedup`. */
export function timelineBin_s(speedup: number): number {
  return (TIMELINE_BIN_WALL_MS / 1000) * speedup;
}

/**
 * What a live process measures of its links and its own timeliness: one-way wall latency per link,
 * the delay each delivery's schedule felt (per link, and per message type on each link), and how
 * late timers fire. `gridemu run` reports them, and `simulate --network-from` replays the felt delays.
 */
export class LinkMeter {
  /** One-way wall latency of messages received from another location, per link `from->to`. */
  readonly latency = new Map<string, LatencyHistogram>();
  /**
   * How late timers were handled against their wall deadline: timer granularity, event-loop lag,
   * and the wait in the actor's mailbox behind what arrived first (as a felt delay ends at handling).
   */
  readonly timerLag = new LatencyHistogram();
  /** Felt delay per link, wall ms. */
  readonly felt = new Map<string, LatencyHistogram>();
  /** The same per message type, then per link: what one kind of message felt on a link. */
  readonly feltByType = new Map<string, Map<string, LatencyHistogram>>();
  /**
   * A felt delay between two processes in its two parts, per message type then link: until the
   * message reached the receiver's mailbox, and its wait there until handled. A timer that fires
   * meanwhile is handled after what reached the mailbox before it, so a replay races a time-out
   * against the arrival, not the handling (MailboxModel). A process restarted after a crash
   * measures its earlier lives' again from its journal, which keeps each delivery's arrival.
   */
  readonly arrivedByType = new Map<string, Map<string, LatencyHistogram>>();
  readonly waitedByType = new Map<string, Map<string, LatencyHistogram>>();
  /**
   * The arrivals' part again per link, then per window of TIMELINE_BIN_WALL_MS of the run (by when
   * each was sent, emulated seconds over the window's width, rounded down): when the links were
   * slow, which a replay follows (MailboxModel) rather than spreading a burst over the whole run.
   */
  readonly arrivedTimeline = new Map<string, Map<string, LatencyHistogram>>();
  /**
   * The waits again per link, then per window of the run by when each message reached the
   * mailbox: a process behind (a claim storm, the backlog after a restart) makes its waits long
   * for a while, which a replay follows as it follows the arrivals.
   */
  readonly waitedTimeline = new Map<string, Map<string, LatencyHistogram>>();
  /** How many of each type's messages each window of the two timelines holds (WindowCounts). */
  readonly arrivedWindowCounts = new WindowCounts();
  readonly waitedWindowCounts = new WindowCounts();
  /**
   * The felt delays of messages between two actors of one process, per location (`s1->s1`), then
   * per window of the run by when each was sent, with each type's count: a process busy at the
   * start's burst held its own messages as long as those from others, which a replay follows.
   */
  readonly localTimeline = new Map<string, Map<string, LatencyHistogram>>();
  readonly localWindowCounts = new WindowCounts();
  /** The timelines' window, emulated seconds (set by the first delay or timer recorded on one). */
  timelineBin_s: number | undefined;
  /** How late timers were put in their actor's mailbox against their wall deadline (before any wait there). */
  readonly timerFireLag = new LatencyHistogram();
  /**
   * The same per location, then per window of the run by when each timer was due: a process
   * behind (the start's burst, a restart's backlog) fires every timer late for a while, and a
   * replay's timers follow it there rather than drawing from the whole run.
   */
  readonly timerFireTimeline = new Map<string, Map<string, LatencyHistogram>>();
  private lastTimerLate_ms = 0;
  /**
   * Each link's histograms and counts, by sending then receiving location: a delivery records
   * into six histograms and two counts, which looked up each by its keys (the link's name, the
   * type, the window's as a string) took several per cent of a site's CPU at saturation.
   */
  private readonly links = new Map<string, Map<string, LinkSlots>>();

  /** A message from location `from` reached location `to` `ms` wall ms after it was sent. */
  recordLatency(from: string, to: string, ms: number): void {
    histogramOf(this.latency, `${from}->${to}`).record(ms);
  }

  recordTimerLag(late_ms: number): void {
    this.timerLag.record(late_ms);
    this.lastTimerLate_ms = late_ms;
  }

  /**
   * One delivery's felt delay from location `from` to location `to`, from the sender's actor time
   * to the receiver's handling time (hop, timer lag, encoding, queues), in emulated seconds,
   * recorded as wall ms at `speedup`: per link, and per message type on the link. Between two
   * processes (`arrived_s` given: how long it took to reach the receiver's mailbox) its two parts
   * too, by type and on the link's timelines; between two actors of one location, on the
   * location's timeline.
   */
  recordDelivery(
    from: string,
    to: string,
    type: string,
    sent_s: number,
    felt_s: number,
    arrived_s: number | undefined,
    speedup: number,
  ): void {
    const ms = (Math.max(0, felt_s) / speedup) * 1000;
    const link = this.slotsOf(from, to);
    (link.felt ??= histogramOf(this.felt, link.name)).record(ms);
    const byType = link.typeSlots(type);
    (byType.felt ??= nestedHistogramOf(this.feltByType, type, link.name)).record(ms);
    if (arrived_s !== undefined) {
      this.timelineBin_s = timelineBin_s(speedup);
      const waited_s = felt_s - arrived_s;
      const arrived_ms = (Math.max(0, arrived_s) / speedup) * 1000;
      (byType.arrived ??= nestedHistogramOf(this.arrivedByType, type, link.name)).record(arrived_ms);
      const sentIn = link.arrived.at(Math.floor(sent_s / this.timelineBin_s), this.arrivedTimeline);
      sentIn.histogram.record(arrived_ms);
      count((byType.arrivedCounts ??= this.arrivedWindowCounts.windowsOf(type, link.name)), sentIn.key);
      const waited_ms = (Math.max(0, waited_s) / speedup) * 1000;
      (byType.waited ??= nestedHistogramOf(this.waitedByType, type, link.name)).record(waited_ms);
      const reachedIn = link.waited.at(
        Math.floor((sent_s + Math.max(0, arrived_s)) / this.timelineBin_s),
        this.waitedTimeline,
      );
      reachedIn.histogram.record(waited_ms);
      count((byType.waitedCounts ??= this.waitedWindowCounts.windowsOf(type, link.name)), reachedIn.key);
    } else if (from === to) {
      this.timelineBin_s = timelineBin_s(speedup);
      const sentIn = link.local.at(Math.floor(sent_s / this.timelineBin_s), this.localTimeline);
      sentIn.histogram.record(ms);
      count((byType.localCounts ??= this.localWindowCounts.windowsOf(type, link.name)), sentIn.key);
    }
  }

  /** Link `from->to`'s slots, made the first time. */
  private slotsOf(from: string, to: string): LinkSlots {
    let fromHere = this.links.get(from);
    if (!fromHere) this.links.set(from, (fromHere = new Map()));
    let link = fromHere.get(to);
    if (!link) fromHere.set(to, (link = new LinkSlots(`${from}->${to}`)));
    return link;
  }

  /** A timer of an actor at `location`, due at emulated `due_s`, reached its mailbox `late_ms` wall ms late. */
  recordTimerFireLag(late_ms: number, location: string, due_s: number, speedup: number): void {
    const ms = Math.max(0, late_ms);
    this.timerFireLag.record(ms);
    this.timelineBin_s = timelineBin_s(speedup);
    nestedHistogramOf(this.timerFireTimeline, location, String(Math.floor(due_s / this.timelineBin_s))).record(ms);
  }

  /** The lateness of the last timer handled, in emulated seconds at `speedup`. */
  emulatedLag_s(speedup: number): number {
    return (this.lastTimerLate_ms / 1000) * speedup;
  }
}

/** What one link's deliveries record into, each made the first time it is needed. */
class LinkSlots {
  felt: LatencyHistogram | undefined;
  private readonly types = new Map<string, TypeSlots>();
  /** The window each timeline recorded the link's last delivery in. */
  readonly arrived: LastWindow;
  readonly waited: LastWindow;
  readonly local: LastWindow;

  constructor(readonly name: string) {
    this.arrived = new LastWindow(name);
    this.waited = new LastWindow(name);
    this.local = new LastWindow(name);
  }

  typeSlots(type: string): TypeSlots {
    let slots = this.types.get(type);
    if (!slots) this.types.set(type, (slots = {}));
    return slots;
  }
}

/** One message type's histograms and window counts on a link. */
interface TypeSlots {
  felt?: LatencyHistogram;
  arrived?: LatencyHistogram;
  waited?: LatencyHistogram;
  arrivedCounts?: Map<string, number>;
  waitedCounts?: Map<string, number>;
  localCounts?: Map<string, number>;
}

/**
 * A link's window on one timeline, and its histogram there: a link's deliveries come in the order
 * of its windows but at a change, so most find theirs without a lookup.
 */
class LastWindow {
  private window = Number.NaN;
  key = '';
  histogram = new LatencyHistogram();

  constructor(private readonly link: string) {}

  /** Itself, moved to `window` of `timeline` (the link's histograms there, by window). */
  at(window: number, timeline: Map<string, Map<string, LatencyHistogram>>): this {
    if (window !== this.window) {
      this.window = window;
      this.key = String(window);
      this.histogram = nestedHistogramOf(timeline, this.link, this.key);
    }
    return this;
  }
}

function count(windows: Map<string, number>, key: string): void {
  windows.set(key, (windows.get(key) ?? 0) + 1);
}
