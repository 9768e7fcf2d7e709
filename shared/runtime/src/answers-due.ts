import { MAX_LIST_LENGTH } from '@gridemu/protocol/wire';

/**
 * One `bus.ack`, from the runtime at location `at` to the one at `to`, about the durable messages
 * of the link `to`>`at`: `upto`, every one numbered up to it is stored (without a journal,
 * delivered); `received`, these arrived and are not yet stored; `more`, the receipts go on in the
 * next part of the same answer.
 */
export interface DueAnswer {
  readonly at: string;
  readonly to: string;
  readonly upto?: number;
  readonly received?: readonly number[];
  readonly more: boolean;
}

/** What one link's receiver has to say at the next flush. */
interface LinkAnswer {
  upto: number | undefined;
  readonly received: number[];
}

/**
 * What a receiving runtime has to say about the durable messages it was sent, gathered between two
 * flushes: per link, the highest number it may acknowledge and, with a journal, the numbers that
 * arrived and are not yet stored (receipts). A flush says both in one answer per link, the
 * receipts less those an acknowledgement of the link has covered, in this answer or an earlier
 * one. Until 2026-12-03 receipts went in answers of their own, on their own 10 ms timer: below
 * saturation a delivery is mostly stored, and acknowledged, within the flush that would have said
 * it arrived, so most receipts said nothing the acknowledgement did not (docs/performance.md).
 *
 * A journaled receiver's answer always carries its receipts, an empty list if none are left: it
 * says everything that arrived since the last answer, stored or not, so its sender may count it as
 * a whole answer when judging what was lost (LossEvidence). Receipts go in lists of at most what a
 * receiver decodes (a burst of the driver's submissions once brought 5,359 in one window, and the
 * answer was dropped as malformed), each part but the last marked `more`, so that the sender takes
 * them as one answer (DurableOutbox.receipts); the acknowledgement goes with the last part.
 */
export class AnswersDue {
  /** By receiving location, then by sending location. */
  private readonly due = new Map<string, Map<string, LinkAnswer>>();
  /** Likewise: the highest number acknowledged so far. */
  private readonly acked = new Map<string, Map<string, number>>();

  constructor(
    /** This receiver sends receipts (it keeps a journal): its every answer carries the list. */
    private readonly receipts: boolean,
    private readonly maxList = MAX_LIST_LENGTH,
  ) {}

  /** `at` may acknowledge `to`'s link up to `upto`, even a number said before (a copy that asks again may answer a lost acknowledgement). */
  owe(at: string, to: string, upto: number): void {
    const a = this.of(at, to);
    a.upto = Math.max(a.upto ?? 0, upto);
  }

  /** `at` has `to`'s message `n`, not yet stored. */
  received(at: string, to: string, n: number): void {
    this.of(at, to).received.push(n);
  }

  /** What to say now; forgotten here once taken. */
  take(): DueAnswer[] {
    const out: DueAnswer[] = [];
    for (const [at, links] of this.due) {
      for (const [to, { upto, received }] of links) {
        const acked = this.acked.get(at)?.get(to) ?? 0;
        if (upto !== undefined && upto > acked) inner(this.acked, at).set(to, upto);
        const left = received.filter((n) => n > Math.max(acked, upto ?? 0));
        if (upto === undefined && left.length === 0) continue;
        if (left.length === 0 && !this.receipts) {
          out.push({ at, to, upto, more: false });
          continue;
        }
        const last = Math.max(0, Math.ceil(left.length / this.maxList) - 1);
        for (let part = 0; part <= last; part++)
          out.push({
            at,
            to,
            ...(part === last && upto !== undefined ? { upto } : {}),
            received: left.slice(part * this.maxList, (part + 1) * this.maxList),
            more: part < last,
          });
      }
      links.clear();
    }
    return out;
  }

  private of(at: string, to: string): LinkAnswer {
    const links = inner(this.due, at);
    let a = links.get(to);
    if (a === undefined) links.set(to, (a = { upto: undefined, received: [] }));
    return a;
  }
}

function inner<V>(outer: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let m = outer.get(key);
  if (m === undefined) outer.set(key, (m = new Map()));
  return m;
}
