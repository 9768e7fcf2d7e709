import type { Address } from '@gridemu/protocol';
import type { BusTarget } from './transport.js';
import { KeptOnLink } from './kept-on-link.js';
import { LossEvidence } from './loss-evidence.js';
import { RoundTripEstimate } from './round-trip-estimate.js';
import { senderOf } from './subjects.js';
import { wallNow_ms } from './wall-clock.js';

/** How many timeouts a message, and its receiver's silence, last before it is resent with no sign of loss. */
const UNANSWERED_TIMEOUTS = 8;

/** A durable message sent and not yet acknowledged. */
interface Unacknowledged {
  /** Its number on its link (Envelope.lseq). */
  readonly n: number;
  readonly target: { readonly actor: Address };
  readonly from: Address;
  readonly bytes: Uint8Array;
  sent_ms: number;
  /** Times resent: its acknowledgement then cannot tell which copy it answers (Karn's rule). */
  resends: number;
  /** The receiver has it, not yet stored: resent when the receiver restarts, not while it answers. */
  received: boolean;
  /** Where it goes. */
  readonly location: string;
  /** Its place in send order, renewed by each resend: later answers that leave it out show it lost (LossEvidence). */
  order: number;
  /**
   * Its first send's place. An answer to a resent message cannot tell which copy it answers (as
   * Karn's rule says of its round trip), so it is evidence only about what was sent before the
   * first: taken as the last copy's, an answer to an original that had waited in a busy receiver's
   * backlog showed everything sent meanwhile, still in that backlog, lost.
   */
  readonly firstOrder: number;
  /** In flight when the connection to the bus was lost, or sent just after: resent on the timeout, as before receipts. */
  suspect: boolean;
}

/** Where a process's runtime hears acknowledgements for what its actors at `location` sent. */
export function runtimeAddress(location: string): Address {
  return `${location}/runtime`;
}

/**
 * Exactly-once delivery of durable messages over a bus that may lose what is in flight (a
 * nats-server restart): each is sent numbered on its link (its sender's location to its
 * receiver's, Envelope.lseq) and kept until the receiving runtime acknowledges it, and resent
 * meanwhile; a receiver delivers each number once, in order, and answers every copy. An
 * acknowledgement is cumulative, as TCP's: every message of the link up to a number is stored.
 * Until 2026-11-30 each message had a string id that the receiver remembered for the whole run and
 * acknowledged in a list. That was thought to be most of what the protocol cost a journaled run at
 * saturation; measured once replaced, it was not (docs/performance.md, "The leaner protocol").
 *
 * When to resend. A journaled receiver says at once that a message arrived (`received`), and
 * acknowledges it once stored; it is not resent on a timer meanwhile. A message is resent once
 * later answers from its receiver show it lost (LossEvidence, as TCP's RACK), after a timeout
 * adapted to the round trips measured (RoundTripEstimate, RFC 6298); with no such sign, only once
 * the receiver has also been silent for UNANSWERED_TIMEOUTS timeouts. A receiver that restarts gets
 * what waits for it at once (resendTo, heardFrom). A timeout alone cannot tell a lost message from
 * a receiver stalled on shared cores: at saturation it resent 30,000-45,000 copies of a 10,000-job
 * run, every one a duplicate (docs/performance.md).
 */
export class DurableOutbox {
  /** Per link (`sender>receiver` locations), what waits for its acknowledgement, by number, in send order. */
  private readonly unacknowledged = new Map<string, KeptOnLink<Unacknowledged>>();
  /** Per link (`sender>receiver` locations), durable messages numbered on it so far. */
  private readonly sentOnLink = new Map<string, number>();
  private nextOrder = 1;
  /** Resent by resend() with no sign of loss, after UNANSWERED_TIMEOUTS timeouts, since last taken. */
  private resentUnanswered = 0;
  private resender: NodeJS.Timeout | undefined;
  private readonly roundTrips = new RoundTripEstimate();
  private evidence = new LossEvidence(0);
  /** Messages kept until this wall time are suspect (connectionRestored). */
  private suspectUntil_ms = Number.NEGATIVE_INFINITY;
  /** Per location, when its silence was last probed (resend), wall ms. */
  private readonly probed_ms = new Map<string, number>();
  /** Per location, the starts of its process heard from. */
  private readonly boots = new Map<string, Set<string>>();

  constructor(private readonly publish: (target: BusTarget, from: Address, bytes: Uint8Array) => void) {}

  /** The next durable message's number on its link (linkOf: its sender's location to its receiver's). */
  nextOnLink(link: string): number {
    const n = (this.sentOnLink.get(link) ?? 0) + 1;
    this.sentOnLink.set(link, n);
    return n;
  }

  /**
   * Keeps message `n` of `link` until it is acknowledged; `sent_ms` -Infinity: resend at the first
   * chance. A link's messages are kept in their numbers' order (they are sent in it).
   */
  keep(
    link: string,
    n: number,
    target: { readonly actor: Address },
    from: Address,
    bytes: Uint8Array,
    sent_ms: number,
  ): void {
    const location = senderOf(target.actor);
    let kept = this.unacknowledged.get(link);
    if (kept === undefined) this.unacknowledged.set(link, (kept = new KeptOnLink()));
    const order = this.nextOrder++;
    kept.add({
      n,
      target,
      from,
      bytes,
      sent_ms,
      resends: 0,
      received: false,
      location,
      order,
      firstOrder: order,
      suspect: wallNow_ms() < this.suspectUntil_ms,
    });
  }

  /**
   * The receiver has every message of `link` numbered up to `upto` for good (stored, with a
   * journal). Returns how many of them were still waiting here.
   */
  acknowledged(link: string, upto: number): number {
    const kept = this.unacknowledged.get(link);
    if (kept === undefined) return 0;
    return kept.takeThrough(upto, (u) => {
      if (!u.received) this.answered(u, 'stored');
    });
  }

  /**
   * A journaled receiver has it and will acknowledge it once stored. Until then the message is
   * resent only if the receiver restarts, the one thing that can still lose it (resendTo when its
   * rejoin is announced, heardFrom when a new start of it answers), or is silent for
   * UNANSWERED_TIMEOUTS timeouts. Its acknowledgement waits for the receiver's backlog, which at
   * saturation grows past any timeout learnt from earlier round trips.
   */
  received(link: string, n: number): void {
    const u = this.unacknowledged.get(link)?.get(n);
    if (!u || u.received) return;
    u.received = true;
    this.answered(u, 'received');
  }

  /**
   * A journaled receiver at `location` has these messages of `link`, not yet stored (`received`),
   * in one answer, or in a part of one that goes on in the next (`more`): one window's receipts,
   * more than a list holds. The parts are one answer to the evidence of loss: taken as answers of
   * their own, they would be two answers at one instant, and a message the next window answers
   * could be judged lost before that window came.
   */
  receipts(link: string, location: string, numbers: readonly number[], more: boolean): void {
    for (const n of numbers) this.received(link, n);
    if (!more) this.answerEnded(location, true);
  }

  /** Its first answer: a round trip measured, and evidence about what was sent before it. */
  private answered(u: Unacknowledged, answer: 'received' | 'stored'): void {
    const now = wallNow_ms();
    if (u.resends === 0 && Number.isFinite(u.sent_ms)) this.roundTrips.measured(now - u.sent_ms);
    this.evidence.heard(u.location, u.firstOrder, now, answer);
  }

  /**
   * Resends what is overdue, given the timeout `after_ms` (0: everything): a message later answers
   * show lost (LossEvidence) once it has waited `after_ms`. A receiver silent for
   * UNANSWERED_TIMEOUTS timeouts is probed (probes), with at most two messages per
   * UNANSWERED_TIMEOUTS timeouts, not all of them. A receiver that answers is working through its
   * backlog, not losing what it was sent; one that answers the probe shows what it lacks
   * (LossEvidence), and one that restarted is sent everything at once (resendTo, heardFrom).
   * Resending everything to a silent receiver sent 700-23,000 duplicates in one saturated run
   * (docs/performance.md): at saturation a receiver is silent for most of a second while it
   * catches up. Returns how many went.
   */
  resend(after_ms: number): number {
    if (after_ms === 0) return this.resendWhere(() => true);
    const probes = this.probes(after_ms, wallNow_ms());
    return this.resendWhere((u, now) => {
      const waited = now - u.sent_ms;
      if (waited < after_ms) return false;
      if (!u.received && this.evidence.lost(u.location, u.order, now)) return true;
      if (u.suspect && !u.received) return waited >= after_ms * Math.min(UNANSWERED_TIMEOUTS, 2 ** u.resends);
      return probes.has(u);
    });
  }

  /**
   * The probes due, given the timeout `after_ms`: for each receiver silent for
   * UNANSWERED_TIMEOUTS timeouts, with a message that has waited as long, and not probed for as
   * long, the oldest and the newest message sent to it that have waited a timeout. The oldest, as
   * TCP's retransmission timer resends the first segment: a receiver without a journal says
   * nothing of a message it holds for an earlier one, so only that earlier one's copy gets its link
   * moving again. The newest, as a tail loss probe (RFC 8985, section 7): whichever copy its
   * answer is for, what was sent before it and the answer leaves out is missing. Until 2026-12-02
   * only the oldest went, and an answer to it counted as one to the probe, sent last: when it
   * answered the first copy, which had waited in a busy receiver's backlog, everything sent
   * meanwhile and still in that backlog looked lost, and went again (325 to 7,019 duplicates in a
   * third of the saturated journaled runs).
   */
  private probes(after_ms: number, now: number): Set<Unacknowledged> {
    const tail_ms = after_ms * UNANSWERED_TIMEOUTS;
    const oldest = new Map<string, Unacknowledged>();
    const newest = new Map<string, Unacknowledged>();
    const overdue = new Set<string>();
    for (const kept of this.unacknowledged.values()) {
      const first = kept.first;
      if (first === undefined) continue;
      const { location } = first;
      if (this.evidence.silentFor_ms(location, now) < tail_ms) continue;
      if (now - (this.probed_ms.get(location) ?? Number.NEGATIVE_INFINITY) < tail_ms) continue;
      kept.forEach((u) => {
        const waited = now - u.sent_ms;
        // One in flight when the connection came back goes on its own timer (connectionRestored).
        if (waited < after_ms || (u.suspect && !u.received)) return;
        if (waited >= tail_ms) overdue.add(location);
        const o = oldest.get(location);
        if (o === undefined || u.firstOrder < o.firstOrder) oldest.set(location, u);
        const n = newest.get(location);
        if (n === undefined || u.firstOrder > n.firstOrder) newest.set(location, u);
      });
    }
    const due = new Set<Unacknowledged>();
    for (const location of overdue) {
      this.probed_ms.set(location, now);
      for (const u of [oldest.get(location)!, newest.get(location)!])
        if (!due.has(u)) {
          due.add(u);
          this.resentUnanswered++;
        }
    }
    return due;
  }

  /**
   * An acknowledgement from `location` (`receipt`: of arrival, not storage) has been read through:
   * what it left out, it did not have.
   */
  answerEnded(location: string, receipt: boolean): void {
    this.evidence.answerEnded(location, receipt, wallNow_ms());
  }

  /**
   * An answer from `location`'s process, started as `boot`. A start not heard from before, after
   * another, is a restart: what the earlier one said it had, unstored, died with it and goes again
   * now, whether or not the rejoin announcement (resendTo) is heard. Returns how many went.
   */
  heardFrom(location: string, boot: string): number {
    const boots = this.boots.get(location);
    if (boots === undefined) {
      this.boots.set(location, new Set([boot]));
      return 0;
    }
    if (boots.has(boot)) return 0;
    boots.add(boot);
    return this.resendWhere((u) => u.location === location && u.received);
  }

  /**
   * The connection to the bus was lost and is back: what was in flight may be lost (a nats-server
   * restart loses it), and so may what is sent before every receiver has subscribed again on the
   * new server (within `grace_ms`). Those are resent on the timeout, doubling, as TCP would; with
   * no sign of loss, a message otherwise waits UNANSWERED_TIMEOUTS timeouts of its receiver's
   * silence, which a quiet link after a restart would wait out for nothing.
   */
  connectionRestored(grace_ms: number): void {
    this.suspectUntil_ms = wallNow_ms() + grace_ms;
    for (const kept of this.unacknowledged.values())
      kept.forEach((u) => {
        if (!u.received) u.suspect = true;
      });
  }

  /** How many resends since the last call went with no sign of loss (the rest: shown lost, or to a rejoined receiver). */
  takeResentUnanswered(): number {
    const n = this.resentUnanswered;
    this.resentUnanswered = 0;
    return n;
  }

  /** Resends at once everything waiting for `location`'s acknowledgement (it has just rejoined the run). */
  resendTo(location: string): number {
    return this.resendWhere((u) => u.location === location);
  }

  private resendWhere(due: (u: Unacknowledged, now_ms: number) => boolean): number {
    const now = wallNow_ms();
    let n = 0;
    for (const kept of this.unacknowledged.values())
      kept.forEach((u) => {
        if (!due(u, now)) return;
        u.sent_ms = now;
        // A copy whose arrival is unknown again.
        u.received = false;
        u.order = this.nextOrder++;
        u.resends++;
        n++;
        this.publish(u.target, u.from, u.bytes);
      });
    return n;
  }

  /**
   * Every half `floor_ms`, resends what has waited longer than the adaptive timeout (never under
   * `floor_ms`), calling `onResent` with each round's count.
   */
  startResending(floor_ms: number, onResent: (n: number) => void): void {
    // Reordering allowed before a later answer proves a loss: jitter and a receiver's gathering of
    // its receipts, both well under the floor (4 times the slowest link, at least 100 ms).
    this.evidence = new LossEvidence(floor_ms / 4);
    this.resender = setInterval(
      // Judged once this pass of the event loop has read what arrived (setImmediate runs after the
      // poll phase). Timers run first: after a stall of this process itself (its cores given to
      // others, a long turn) the timer found every receiver silent for as long, their answers
      // still unread in the socket, and resent everything they had not yet stored: up to 23,000
      // duplicates in one run at saturation (docs/performance.md).
      () =>
        setImmediate(() => {
          // Stopped meanwhile: the bus may be closed.
          if (this.resender !== undefined) onResent(this.resend(this.roundTrips.timeout_ms(floor_ms)));
        }),
      Math.max(1, floor_ms / 2),
    );
  }

  stop(): void {
    clearInterval(this.resender);
    this.resender = undefined;
  }
}
