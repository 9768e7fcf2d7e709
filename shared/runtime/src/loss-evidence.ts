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
  /** Per location: answers heard and not yet settled, as (highest number so far, when, in which answer). */
  private readonly recent = new Map<string, { order: number; at_ms: number; answer: number }[]>();
  /** Per location: the highest number whose loss evidence is settled. */
  private readonly settled = new Map<string, number>();
  /** Per location: answers heard (each acknowledgement envelope is one). */
  private readonly answers = new Map<string, number>();
  /**
   * Locations that tell of a message's arrival (a journaled process): only those answers count.
   * Its acknowledgements of stored messages leave with its appends, and may overtake the receipt
   * of an earlier message.
   */
  private readonly sendsReceipts = new Set<string>();
  /** Per location: when it last answered anything. */
  private readonly lastAnswer_ms = new Map<string, number>();

  constructor(private readonly reorder_ms: number) {}

  /** `location` answered the message numbered `order` (`receipt`: it has it, not yet stored), at `at_ms`, in its current answer. */
  heard(location: string, order: number, at_ms: number, receipt: boolean): void {
    if (!this.counts(location, receipt)) return;
    let recent = this.recent.get(location);
    if (recent === undefined) {
      recent = [];
      this.recent.set(location, recent);
    }
    const highest = recent.length > 0 ? recent[recent.length - 1]!.order : (this.settled.get(location) ?? 0);
    if (order > highest) recent.push({ order, at_ms, answer: this.answers.get(location) ?? 0 });
  }

  /** An answer from `location` is over: what it did not hold, it did not have when sent. */
  answerEnded(location: string, receipt: boolean, at_ms: number): void {
    this.lastAnswer_ms.set(location, at_ms);
    if (!this.counts(location, receipt)) return;
    this.answers.set(location, (this.answers.get(location) ?? 0) + 1);
  }

  /** How long `location` has said nothing (Infinity: never answered). */
  silentFor_ms(location: string, now_ms: number): number {
    return now_ms - (this.lastAnswer_ms.get(location) ?? Number.NEGATIVE_INFINITY);
  }

  private counts(location: string, receipt: boolean): boolean {
    if (receipt) this.sendsReceipts.add(location);
    return receipt || !this.sendsReceipts.has(location);
  }

  /** Whether message `order`, not answered by `location`, is lost as of `now_ms`. */
  lost(location: string, order: number, now_ms: number): boolean {
    const recent = this.recent.get(location);
    if (recent !== undefined && recent.length > 0) {
      // Settled: a later answer came, and `reorder_ms` has passed since.
      const answers = this.answers.get(location) ?? 0;
      let n = 0;
      while (n < recent.length && recent[n]!.at_ms <= now_ms - this.reorder_ms && recent[n]!.answer < answers - 1) n++;
      if (n > 0) {
        this.settled.set(location, recent[n - 1]!.order);
        recent.splice(0, n);
      }
    }
    return order < (this.settled.get(location) ?? 0);
  }
}
