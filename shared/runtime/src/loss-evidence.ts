/** What one location has answered. */
interface Answers {
  /** Answers heard and not yet settled, as (highest number so far, when, in which answer). */
  readonly recent: { order: number; at_ms: number; answer: number }[];
  /** The highest number whose loss evidence is settled. */
  settled: number;
  /** Answers heard (each acknowledgement envelope is one). */
  count: number;
  /**
   * It tells of a message's arrival (a journaled process): only those answers count, once each.
   * Every answer it sends carries its receipts (AnswersDue), its acknowledgement included in it,
   * not an answer of its own.
   */
  sendsReceipts: boolean;
  /** When it last answered anything. */
  last_ms: number;
}

/**
 * Which unanswered durable messages are lost, judged from what their receiver answered since, as
 * TCP's RACK does (RFC 8985): once a location has answered a message sent after one, and then
 * answered again at least `reorder_ms` later without the earlier one, the earlier one did not
 * arrive. The second answer is what tells a loss from a receiver that stalled between reading the
 * two (on two shared cores, a saturated process can be still for hundreds of milliseconds); the
 * wait covers reordering on the way (jitter, one publish per subject per turn). Messages are
 * numbered in send order, a resent copy taking a new number.
 *
 * Without it, the only sign of loss is a timeout, and a timeout cannot tell a lost message from a
 * stalled receiver: at saturation one learnt from earlier round trips resent 30,000-45,000 copies
 * in a 10,000-job run, every one a duplicate. With it, a busy link recovers a loss as soon as later
 * messages get through, and the timeout may wait long (DurableOutbox).
 */
export class LossEvidence {
  private readonly byLocation = new Map<string, Answers>();

  constructor(private readonly reorder_ms: number) {}

  /**
   * `location` answered the message numbered `order`, at `at_ms`, in its current answer: that it
   * has it, not yet stored (`received`), or that it stored it (`stored`). A stored message arrived,
   * whichever kind of answer counts for the location. A receiver that is not behind stores a
   * message, and its acknowledgement leaves with the append, before its receipts, gathered for a
   * few ms, go: counted only as receipts, such messages left no evidence at all, and a probe of a
   * restarted receiver showed nothing of what else it lacked. It cannot make an earlier message
   * that did arrive look lost: that message's receipt is in an answer sent before this
   * acknowledgement or in the next one, and an earlier message counts as lost only after two
   * answers end without it.
   */
  heard(location: string, order: number, at_ms: number, answer: 'received' | 'stored'): void {
    const a = this.of(location);
    if (answer === 'received') a.sendsReceipts = true;
    const highest = a.recent.length > 0 ? a.recent[a.recent.length - 1]!.order : a.settled;
    if (order > highest) a.recent.push({ order, at_ms, answer: a.count });
  }

  /** An answer from `location` is over: what it did not hold, it did not have when sent. */
  answerEnded(location: string, receipt: boolean, at_ms: number): void {
    const a = this.of(location);
    a.last_ms = at_ms;
    if (counts(a, receipt)) a.count++;
  }

  /** How long `location` has said nothing (Infinity: never answered). */
  silentFor_ms(location: string, now_ms: number): number {
    return now_ms - (this.byLocation.get(location)?.last_ms ?? Number.NEGATIVE_INFINITY);
  }

  /** Whether message `order`, not answered by `location`, is lost as of `now_ms`. */
  lost(location: string, order: number, now_ms: number): boolean {
    const a = this.byLocation.get(location);
    if (a === undefined) return false;
    // Settled: a later answer came, and `reorder_ms` has passed since.
    let n = 0;
    while (n < a.recent.length && a.recent[n]!.at_ms <= now_ms - this.reorder_ms && a.recent[n]!.answer < a.count - 1)
      n++;
    if (n > 0) {
      a.settled = a.recent[n - 1]!.order;
      a.recent.splice(0, n);
    }
    return order < a.settled;
  }

  private of(location: string): Answers {
    let a = this.byLocation.get(location);
    if (a === undefined) {
      a = { recent: [], settled: 0, count: 0, sendsReceipts: false, last_ms: Number.NEGATIVE_INFINITY };
      this.byLocation.set(location, a);
    }
    return a;
  }
}

/** Whether an answer of this kind counts as evidence from `a`. */
function counts(a: Answers, receipt: boolean): boolean {
  if (receipt) a.sendsReceipts = true;
  return receipt || !a.sendsReceipts;
}
