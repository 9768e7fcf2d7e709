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

  /** A message from location `from` reached location `to` `ms` wall ms after it was sent. */
  recordLatency(from: string, to: string, ms: number): void {
    histogramOf(this.latency, `${from}->${to}`).record(ms);
  }

  recordTimerLag(late_ms: number): void {
    this.timerLag.record(late_ms);
    this.lastTimerLate_ms = late_ms;
  }

  /**
   * The delay a delivery's schedule felt, from the sender's actor time to the receiver's handling
   * time (hop, timer lag, encoding, queues), in emulated seconds, recorded as wall ms.
   */
  recordFelt(link: string, type: string, felt_s: number, speedup: number): void {
    const ms = (Math.max(0, felt_s) / speedup) * 1000;
    histogramOf(this.felt, link).record(ms);
    nestedHistogramOf(this.feltByType, type, link).record(ms);
  }

  /** The two parts of a felt delay between processes (arrivedByType, waitedByType), emulated seconds. */
  recordMailbox(
    link: string,
    type: string,
    sent_s: number,
    arrived_s: number,
    waited_s: number,
    speedup: number,
  ): void {
    const arrived_ms = (Math.max(0, arrived_s) / speedup) * 1000;
    nestedHistogramOf(this.arrivedByType, type, link).record(arrived_ms);
    this.timelineBin_s = timelineBin_s(speedup);
    const window = Math.floor(sent_s / this.timelineBin_s);
    nestedHistogramOf(this.arrivedTimeline, link, String(window)).record(arrived_ms);
    this.arrivedWindowCounts.add(type, link, String(window));
    const waited_ms = (Math.max(0, waited_s) / speedup) * 1000;
    nestedHistogramOf(this.waitedByType, type, link).record(waited_ms);
    const reached = Math.floor((sent_s + Math.max(0, arrived_s)) / this.timelineBin_s);
    nestedHistogramOf(this.waitedTimeline, link, String(reached)).record(waited_ms);
    this.waitedWindowCounts.add(type, link, String(reached));
  }

  /** A felt delay between two actors of one process (`link` is `location->location`), emulated seconds. */
  recordLocal(link: string, type: string, sent_s: number, felt_s: number, speedup: number): void {
    this.timelineBin_s = timelineBin_s(speedup);
    const window = String(Math.floor(sent_s / this.timelineBin_s));
    nestedHistogramOf(this.localTimeline, link, window).record((Math.max(0, felt_s) / speedup) * 1000);
    this.localWindowCounts.add(type, link, window);
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
