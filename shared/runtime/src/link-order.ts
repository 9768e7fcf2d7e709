import type { Address } from '@gridemu/protocol';
import { senderOf } from './subjects.js';

/** A link's name: the location of the actor `from` to that of the actor `to`. */
export function linkOf(from: Address, to: Address): string {
  return `${senderOf(from)}>${senderOf(to)}`;
}

/** One link's state: what comes next, what arrived early, what a replay delivered past `next`. */
interface Link {
  /** The lowest number not delivered yet. */
  next: number;
  /** Messages that overtook an earlier one: their delivery, by number. */
  readonly held: Map<number, () => void>;
  /**
   * Numbers past `next` a replayed journal delivered. The journal records a delivery when its
   * actor handles it, and two actors' mailboxes may handle a link's messages out of order, so a
   * process that crashed between the two holds the later one and not the earlier.
   */
  readonly done: Set<number>;
}

/**
 * Durable messages delivered in their link's order. Each durable message carries its number on its
 * link (its sender's location to its receiver's, from 1), and a receiver delivers a link's durable
 * messages in that order, as NATS and the simulator deliver everything between two actors. A resend
 * can break that order: copies waiting for a receiver that was down, or sent while the server was,
 * go again each on its own timer (DurableOutbox), and GRUBER's end of a job, resent first, reached a
 * restarted submit host before the job's start; the host dropped the end, as it must in a run whose
 * links keep order, and the job never finished. So a message that overtook an earlier one of its
 * link is held until that one is delivered.
 */
export class LinkOrder {
  private readonly links = new Map<string, Link>();

  /** Whether message `n` of `link` was delivered here already (a copy of it must not be delivered again). */
  passed(link: string, n: number): boolean {
    const l = this.links.get(link);
    return l !== undefined && (n < l.next || l.done.has(n));
  }

  /**
   * Message `n` of `link` has arrived, and has not been delivered here before. Its turn: `deliver`
   * runs now, and so do the held messages after it whose turn that makes. An earlier one is still
   * missing: it is held (a later copy of it replaces it), and runs once its turn comes. Already
   * delivered: 'passed' (the receiver should have asked passed() first).
   */
  admit(link: string, n: number, deliver: () => void): 'delivered' | 'held' | 'passed' {
    const l = this.of(link);
    if (n < l.next || l.done.has(n)) return 'passed';
    if (n > l.next) {
      l.held.set(n, deliver);
      return 'held';
    }
    this.advance(l);
    deliver();
    for (;;) {
      const waiting = l.held.get(l.next);
      if (waiting === undefined) break;
      l.held.delete(l.next);
      this.advance(l);
      waiting();
    }
    return 'delivered';
  }

  /** A replayed journal delivered message `n` of `link`. */
  replayed(link: string, n: number): void {
    const l = this.of(link);
    if (n < l.next) return;
    l.done.add(n);
    while (l.done.delete(l.next)) l.next++;
  }

  /** Messages held, over every link. */
  get holding(): number {
    let n = 0;
    for (const l of this.links.values()) n += l.held.size;
    return n;
  }

  /** `next` is delivered: past it, and past what a replay delivered after it. */
  private advance(l: Link): void {
    l.next++;
    while (l.done.delete(l.next)) l.next++;
  }

  private of(link: string): Link {
    let l = this.links.get(link);
    if (l === undefined) {
      l = { next: 1, held: new Map(), done: new Set() };
      this.links.set(link, l);
    }
    return l;
  }
}
