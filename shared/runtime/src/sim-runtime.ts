import type { Address } from '@gridemu/protocol';
import { InputError, type NetworkSpec } from '@gridemu/model';
import type { Actor, ActorContext, ActorPlacement, Logger, TimerId, TraceRecord } from './actor.js';
import { silentLogger } from './actor.js';
import { makeContext, type ContextHost } from './context.js';
import { EventHeap } from './event-heap.js';
import {
  Cuts,
  faultEvents,
  type BusOutage,
  type FaultEvent,
  type LocationCrash,
  type LocationPartition,
} from './fault-schedule.js';
import { LinkModel } from './network.js';
import { senderOf } from './subjects.js';
import { MailboxModel } from './mailbox-model.js';
import type { MeasuredNetwork } from './measured-network.js';
import { normalCdf } from './normal.js';
import { Rng } from './rng.js';
import { RunCounters } from './run-counters.js';
import { LatestValueThrottle } from './latest-value-throttle.js';
import { SimulationError } from './simulation-error.js';

interface Delivery<M extends { readonly type: string }> {
  readonly time: number;
  readonly seq: number;
  /** The receiving actor itself, so a delivery needs no look-up. */
  readonly to: Registered<M>;
  readonly from: Address;
  readonly msg: M;
  /** A timer's id, so a cancelled timer is skipped when it comes up; 0 for a message. */
  readonly timer: TimerId;
  /**
   * A replayed timer that fires late (`measured`): its due time, which its handler reads as the
   * time unless the actor has already handled something later, as a live timer is (guard()).
   */
  readonly due?: number;
  /** How many times a late timer was put behind its process's mailbox (drainFirst). */
  readonly drained?: number;
  /** A replayed timer: when it reached its actor's mailbox (what arrived there before it goes first). */
  readonly posted?: number;
  /**
   * A durable message held for its receiver's restart. Live it waits in its sender's outbox, which
   * resends it when the receiver is back, or, the sender being down then, when the sender is:
   * so it goes only once both processes are up (heldBack).
   */
  readonly outboxed?: boolean;
  /**
   * A topic message's copy for one receiver: a partition between its sender and this receiver is
   * decided when it arrives, as the receiving location's delay proxy decides live (heldBack).
   */
  readonly topic?: boolean;
}

interface Registered<M extends { readonly type: string }> {
  readonly placement: ActorPlacement<M>;
  readonly actor: Actor<M>;
  readonly ctx: ActorContext<M>;
  /** The time of the last delivery it handled: its clock never goes back. */
  now_s: number;
}

export interface SimRuntimeOptions {
  readonly seed: number;
  readonly network: NetworkSpec;
  readonly log?: Logger;
  readonly faults?: SimFaults;
  /**
   * A live run's network (`simulate --network-from`): every message's delay drawn from the delay
   * its link felt live (a location to itself and the driver's links included), in emulated
   * seconds. Between two actors messages stay in order, as NATS and a mailbox keep them, and
   * delays close in time are alike, as they are live when a busy receiver holds them all: the
   * quantile drawn follows a Gaussian copula whose correlation decays over CORRELATED_DELAYS mean
   * delays of the link. Independent draws reorder messages (GRUBER's end overtook its start);
   * independent draws kept in order count the queues twice (docs/fidelity-notes.md).
   */
  readonly measured?: MeasuredNetwork;
  /** Seeds the network's draws instead of `seed` (a replay's draws vary; the run it replays does not). */
  readonly networkSeed?: number;
  /**
   * Topics whose newest message makes the older ones moot: each sender's reaches other locations
   * at most once every `interval_s` emulated seconds, the newest, as a live run's bus bound
   * (LatestValueThrottle, the same code) had them at its speed-up; its own location hears each.
   */
  readonly latestValue?: { readonly topics: ReadonlySet<string>; readonly interval_s: number };
  /** Keep what the actors trace (ctx.trace) in `traceRecords`, in the order it happened. */
  readonly trace?: boolean;
}

/** Faults the simulator injects on purpose: scenario tests (STYLE.md 8) and an experiment's `faults:`. */
export interface SimFaults {
  /** Messages for which this returns true are lost on the wire (counted as `messages.dropped`). */
  readonly drop?: (from: Address, to: Address, msg: { readonly type: string }) => boolean;
  /** Locations that go down and come back; their actors' `recover` runs when they do. */
  readonly crashes?: readonly LocationCrash[];
  /** Locations cut off from the rest: traffic across the cut is held until it heals. */
  readonly partitions?: readonly LocationPartition[];
  /** The bus down (a nats-server restart): traffic between any two locations is held until it is back. */
  readonly outages?: readonly BusOutage[];
  /** The chance that a cross-location message that is not durable is lost (`messages.dropped`). */
  readonly dropRate?: number;
  /**
   * Messages that must not be lost: never dropped, and held (not lost) while their receiver is down,
   * as a live sender's outbox holds them for a restarted process, and then while their sender is
   * (docs/faults.md). Timers are always kept: a restarted process re-arms them.
   */
  readonly durable?: (msg: { readonly type: string }) => boolean;
}

/**
 * How long, in mean delays of a link, a replayed link's delays stay alike (the copula's e-folding
 * time). Fitted, not derived: on the K = 4 KTH fidelity run (two live runs, five seeds each) 1 overshot
 * the bounded slowdown by 18-59%, 4 by 3-38%, 16 by 4-11%, 64 the same with a wider spread.
 */
const CORRELATED_DELAYS = 16;

/** The replay's order key for every message within one location (measuredDelay_s). */
function localKey(location: string): string {
  return `local\u0000${location}`;
}

/** How many times a replayed timer waits for its process's in-flight messages (drainFirst) before it fires anyway. */
const MAX_TURN_WAITS = 8;

/** An actor's messages from other processes on their way (MailboxModel), and when to forget those handled. */
interface InMailbox {
  readonly items: { readonly reaches_s: number; readonly handled_s: number }[];
  limit: number;
}

/** Not a delivery: the report bound's timer (latestValue), run when it comes up. */
interface Flush {
  readonly time: number;
  readonly seq: number;
  readonly flush: () => void;
}

/**
 * The deterministic single-process runtime: a virtual clock and an agenda ordered by
 * (time, sequence). Same actors, seed and inputs give the same sequence of deliveries.
 */
export class SimRuntime<M extends { readonly type: string }> {
  private readonly agenda = new EventHeap<Delivery<M> | Flush>();
  private readonly actors = new Map<Address, Registered<M>>();
  /** Each topic's subscribers, in spawn order (the order their copies are sent in). */
  private readonly topics = new Map<string, Registered<M>[]>();
  private readonly cancelled = new Set<TimerId>();
  private readonly links: LinkModel;
  private readonly networkRng: Rng;
  /** With a measured network, per pair of actors (per process within one): the last draw, when it was sent and when it arrives. */
  private readonly pairs = new Map<string, { z: number; t: number; arrives_s: number }>();
  /** With a measured network that has its mailbox split (MailboxModel): how it draws. */
  private readonly mailbox: MailboxModel | undefined;
  /** With a mailbox split, per pair of actors and job (or message type): when its last message reaches the mailbox and is handled. */
  private readonly orders = new Map<string, { reaches_s: number; handled_s: number }>();
  private ordersSet = 0;
  /** With a mailbox split, per location: the last wait drawn in its mailboxes (the copula's state). */
  private readonly waits = new Map<string, { z: number; t: number }>();
  /** With a mailbox split, per actor: messages from other processes that reach its mailbox at `reaches_s` and are handled at `handled_s`. */
  private readonly inMailbox = new Map<Address, InMailbox>();
  private readonly rootRng: Rng;
  private readonly log: Logger;
  private readonly faults: SimFaults;
  private readonly host: ContextHost<M>;
  private readonly faultAgenda: FaultEvent[];
  private nextFault = 0;
  /** Locations down now, and when each comes back. */
  private readonly down = new Map<string, number>();
  private readonly cuts = new Cuts();
  private readonly faultRng: Rng;
  private clock = 0;
  /**
   * The time the actor being run reads (ctx.now()): the clock, except for a replayed timer that
   * fires late, whose handler reads its due time. What it sends leaves at this time.
   */
  private actorTime = 0;
  /** With a measured network, per location: the last timer lag drawn (the copula's state). */
  private readonly lags = new Map<string, { z: number; t: number }>();
  private seq = 0;
  private nextTimer = 1;
  private delivered = 0;
  private readonly tally = new RunCounters();
  private readonly throttle: LatestValueThrottle | undefined;
  /** Messages sent, by type; `crossSite` only those that crossed a link between two locations. */
  readonly messages = this.tally.messages;

  /** Messages sent per emulated hour: hour number → count. */
  messagesPerHour(): Map<number, number> {
    return this.tally.messagesPerHour();
  }
  /** Counters bumped by actors through ctx.metrics. */
  readonly counters = this.tally.counters;
  /** What the actors traced (ctx.trace), in delivery order; empty unless options.trace. */
  readonly traceRecords: TraceRecord[] = [];

  constructor(private readonly options: SimRuntimeOptions) {
    this.rootRng = new Rng(options.seed);
    this.networkRng = (options.networkSeed === undefined ? this.rootRng : new Rng(options.networkSeed)).fork('network');
    this.links = new LinkModel(options.network);
    this.mailbox = options.measured ? MailboxModel.of(options.measured) : undefined;
    this.log = options.log ?? silentLogger;
    this.faults = options.faults ?? {};
    this.faultAgenda = faultEvents(this.faults.crashes ?? [], this.faults.partitions ?? [], this.faults.outages ?? []);
    this.faultRng = this.rootRng.fork('faults');
    const bound = options.latestValue;
    this.throttle =
      bound && bound.interval_s > 0
        ? new LatestValueThrottle(bound.interval_s * 1000, () => this.tally.count('messages.superseded'), {
            now_ms: () => this.clock * 1000,
            after: (ms, flush) => {
              let live = true;
              this.agenda.push({ time: this.clock + ms / 1000, seq: this.seq++, flush: () => live && flush() });
              return { cancel: () => (live = false) };
            },
          })
        : undefined;
    this.host = {
      now: () => this.actorTime,
      send: (from, to, msg) => {
        const target = this.actors.get(to);
        if (!target) throw new Error(`${from.address} sent ${msg.type} to unknown actor ${to}`);
        this.transmit(from, target, msg);
      },
      publish: (from, topic, msg) => {
        const targets = this.topics.get(topic) ?? [];
        if (!this.throttle || !this.options.latestValue!.topics.has(topic)) {
          for (const target of targets) this.transmit(from, target, msg, true);
          return;
        }
        const elsewhere = targets.filter((t) => t.placement.location !== from.location);
        for (const target of targets)
          if (target.placement.location === from.location) this.transmit(from, target, msg, true);
        if (elsewhere.length > 0)
          this.throttle.offer(`${from.address} ${topic}`, () =>
            elsewhere.forEach((t) => this.transmit(from, t, msg, true)),
          );
      },
      schedule: (self, delay_s, msg) => {
        const id = this.nextTimer++;
        const due = this.actorTime + delay_s;
        const to = this.actors.get(self.address)!;
        if (this.options.measured) {
          const posted = Math.max(this.clock, due + this.timerLag_s(to, due));
          this.agenda.push({ time: posted, seq: this.seq++, to, from: self.address, msg, timer: id, due, posted });
        } else this.enqueue(due, to, self.address, msg, id);
        return id;
      },
      cancel: (_self, timer) => {
        this.cancelled.add(timer);
      },
    };
  }

  now(): number {
    return this.clock;
  }

  /** Deliveries made so far (a measure of work done, for progress and benchmarks). */
  get deliveries(): number {
    return this.delivered;
  }

  get pending(): number {
    return this.agenda.size;
  }

  spawn(placement: ActorPlacement<M>): void {
    if (this.actors.has(placement.address)) throw new Error(`actor ${placement.address} already exists`);
    const location = placement.location ?? '';
    const tracer =
      this.options.trace === true
        ? (job_id: string, event: string, detail = '') =>
            void this.traceRecords.push({ time_s: this.actorTime, job_id, location, event, detail })
        : undefined;
    const ctx = makeContext(
      this.host,
      placement,
      this.rootRng.fork(placement.address),
      this.log,
      this.tally.sink,
      tracer,
    );
    const registered: Registered<M> = { placement, actor: placement.actor, ctx, now_s: Number.NEGATIVE_INFINITY };
    this.actors.set(placement.address, registered);
    for (const topic of placement.topics ?? []) {
      const list = this.topics.get(topic) ?? [];
      if (list.length === 0) this.topics.set(topic, list);
      list.push(registered);
    }
  }

  /**
   * Calls every actor's start hook, in spawn order, at `at_s` (the run's epoch, its first
   * submission, where a live run's clock starts too: runEpoch_s).
   */
  start(at_s = 0): void {
    this.clock = this.actorTime = at_s;
    for (const r of this.actors.values()) {
      try {
        r.actor.start?.(r.ctx);
      } catch (err) {
        this.failed(r, undefined, err);
      }
    }
  }

  /**
   * Delivers messages until none are left, `maxDeliveries` have been made, or `stop()` says so
   * (checked after each delivery); returns whether any are left.
   */
  step(maxDeliveries = Number.POSITIVE_INFINITY, stop?: () => boolean): boolean {
    let n = 0;
    while (n < maxDeliveries && !(stop?.() ?? false)) {
      if (this.nextFault < this.faultAgenda.length) {
        const fault = this.faultAgenda[this.nextFault]!;
        const head = this.agenda.peek();
        // A fault comes before deliveries at its time: a crash at t loses what t would bring.
        if (head === undefined || fault.time_s <= head.time) {
          this.nextFault++;
          this.apply(fault);
          continue;
        }
      }
      const d = this.agenda.pop();
      if (d === undefined) return false;
      if ('flush' in d) {
        this.clock = this.actorTime = d.time;
        d.flush();
        continue;
      }
      if (d.timer !== 0 && this.cancelled.size > 0 && this.cancelled.delete(d.timer)) continue;
      this.clock = this.actorTime = d.time;
      if ((this.down.size > 0 || this.cuts.active) && this.heldBack(d)) continue;
      const target = d.to;
      if (d.due !== undefined && (this.drainFirst(d) || this.behindArrived(d))) continue;
      if (d.due !== undefined) this.actorTime = Math.max(target.now_s, d.due);
      target.now_s = this.actorTime;
      try {
        target.actor.receive(target.ctx, d.msg, d.from);
      } catch (err) {
        this.failed(target, d, err);
      }
      this.delivered++;
      n++;
    }
    return this.agenda.size > 0 || this.nextFault < this.faultAgenda.length;
  }

  run(): void {
    this.step();
  }

  /** An actor that throws is a broken invariant: say where, when and with what, and the seed (STYLE.md 7, 9). */
  private failed(target: Registered<M>, d: Delivery<M> | undefined, err: unknown): never {
    // Bad input found while running (an external policy's answer): the input's error, not a broken invariant.
    if (err instanceof SimulationError || err instanceof InputError) throw err;
    throw new SimulationError(
      {
        seed: this.options.seed,
        time_s: this.clock,
        actor: target.placement.address,
        ...(d ? { message: d.msg, from: d.from } : {}),
      },
      err,
    );
  }

  /** A fault coming due: a process dies or comes back, a cut opens or heals. */
  private apply(fault: FaultEvent): void {
    this.clock = this.actorTime = Math.max(this.clock, fault.time_s);
    switch (fault.kind) {
      case 'crash':
        this.down.set(fault.location, fault.until_s);
        this.tally.count('faults.crashes');
        this.log.info({ location: fault.location, time_s: this.clock, until_s: fault.until_s }, 'process crashed');
        return;
      case 'restart':
        this.down.delete(fault.location);
        this.log.info({ location: fault.location, time_s: this.clock }, 'process restarted');
        // Each actor of the process recovers, in spawn order, before anything held for it arrives.
        for (const r of this.actors.values()) {
          if (r.placement.location !== fault.location || r.actor.recover === undefined) continue;
          try {
            r.actor.recover(r.ctx, fault.crashed_s);
          } catch (err) {
            this.failed(r, undefined, err);
          }
        }
        return;
      case 'cut':
        this.cuts.cut(fault.partition);
        this.tally.count('faults.partitions');
        return;
      case 'heal':
        this.cuts.heal(fault.partition);
        return;
      case 'outage':
        this.cuts.down(fault.outage);
        this.tally.count('faults.bus_outages');
        this.log.info({ time_s: this.clock, until_s: fault.outage.to_s }, 'message bus down');
        return;
      case 'restored':
        this.cuts.restored(fault.outage);
        return;
    }
  }

  /**
   * Whether a delivery cannot happen now: its receiver's process is down (a timer or a durable
   * message waits for the restart; anything else is lost), the bus is down, or, for a topic
   * message, a cut lies between it and its sender (held until the bus is back or the cut heals, as
   * the delay proxies hold traffic back in a live run; any other message's partition was decided as
   * it left: transmit).
   */
  private heldBack(d: Delivery<M>): boolean {
    const at = d.to.placement.location;
    const until = at === undefined ? undefined : this.down.get(at);
    if (until !== undefined) {
      if (d.timer !== 0) {
        this.enqueue(until, d.to, d.from, d.msg, d.timer);
      } else if (this.faults.durable?.(d.msg) === true) {
        this.agenda.push({ ...d, time: until, seq: this.seq++, outboxed: true });
      } else {
        this.tally.count('messages.lost_while_down');
      }
      return true;
    }
    if (d.outboxed === true) {
      // Its receiver is back; the sender that keeps it may not be. Delivered at the receiver's
      // restart whatever its sender's state, a copy reached a restarted site while its origin was
      // down, and the site claimed a job the origin had long granted elsewhere (its cancel, sent
      // while the site was down, lost), timing out: the replays of a six-crash run timed out up to
      // a third more claims than live (docs/faults.md, "A held message waits for its sender").
      const sender = this.actors.get(d.from)?.placement.location;
      const senderBack = sender === undefined ? undefined : this.down.get(sender);
      if (senderBack !== undefined) {
        this.tally.count('messages.held_for_sender');
        this.agenda.push({ ...d, time: senderBack, seq: this.seq++ });
        return true;
      }
    }
    // Looked up only past this test: while a process is down every delivery comes through here.
    if (d.timer !== 0 || !this.cuts.active) return false;
    const from = this.actors.get(d.from)?.placement.location;
    const healed = this.cuts.heldOnArrival(from, at, d.topic === true);
    if (healed === undefined) return false;
    this.tally.count(this.cuts.busDown && from !== at ? 'messages.held_by_outage' : 'messages.held_by_partition');
    this.agenda.push({ ...d, time: healed, seq: this.seq++ });
    return true;
  }

  private transmit(from: ActorPlacement<M>, target: Registered<M>, msg: M, topic = false): void {
    // It leaves at the sender's time: a late timer's handler sends from its due time, as live.
    const delay = this.options.measured
      ? this.measuredDelay_s(from.address, target.placement.address, msg)
      : this.links.delay_s(from.location, target.placement.location, this.networkRng);
    this.tally.sent(msg.type, from.location, target.placement.location, this.clock);
    if (this.faults.drop?.(from.address, target.placement.address, msg)) {
      this.tally.count('messages.dropped');
      return;
    }
    const rate = this.faults.dropRate ?? 0;
    if (
      rate > 0 &&
      from.location !== undefined &&
      target.placement.location !== undefined &&
      from.location !== target.placement.location &&
      this.faults.durable?.(msg) !== true &&
      this.faultRng.next() < rate
    ) {
      this.tally.count('messages.dropped');
      return;
    }
    const arrives = Math.max(this.clock, this.actorTime + delay);
    // A partition is decided as the message leaves, as the sender's delay proxy decides live when
    // the publish reaches it: one sent while its sender is cut off from the receiver (a topic
    // message: while its sender is cut off at all) waits until the cut heals, and one already on its
    // way when a cut begins goes on. Decided on arrival, as until 2026-11-30, a message sent before
    // the chaos spec's partition and due during it was held the whole 20,000 s, where live it came
    // (docs/faults.md, "Replayed as timed").
    // Within one location nothing crosses a proxy: a site's own actors hear its topic messages.
    const heal =
      from.location === target.placement.location
        ? undefined
        : this.cuts.partitionHeal(from.location, topic ? 'topic' : target.placement.location);
    if (heal !== undefined) this.tally.count('messages.held_by_partition');
    const at = heal === undefined ? arrives : Math.max(arrives, heal);
    this.enqueue(at, target, from.address, msg, 0, topic);
  }

  /**
   * A delay drawn from what messages of its type felt live on the link between the two actors'
   * locations (MeasuredNetwork), in order between them. Without a mailbox split (--whole-delays),
   * within one process in order and drawn together for all its actors, alike over stretches of
   * time: the only way such a replay has the process's slow stretches (drawn apart, a claim and
   * its grant within one site timed out far more often than live). With the split, the process's
   * own timeline places them, and each message is drawn on its own within it.
   */
  private measuredDelay_s(from: Address, to: Address, msg: M): number {
    const net = this.options.measured!;
    const type = msg.type;
    const [a, b] = [senderOf(from), senderOf(to)];
    // Within one process every message shares one key: a request and its reply wait on the same mailbox.
    const key = a === b ? localKey(a) : `${from}\u0000${to}`;
    const pair = this.pairs.get(key);
    const sent = this.actorTime;
    if (this.mailbox && a !== b) return this.throughMailbox_s(this.mailbox, key, pair, from, to, msg) - sent;
    if (this.mailbox && a === b) {
      // Placed where the process's own timeline had it then (MailboxModel.localQuantile), and
      // otherwise drawn on its own. A process's actors pace each other (a grant starts a job, and
      // its end frees the processors the next claim is sent for), so a draw alike over stretches of
      // time sent many messages through its fast stretches and few through its slow ones, where
      // live each window's delays were measured over the messages themselves: on the K = 4 chaos
      // spec a site's claims to itself took 7 s in the burst replayed against 46 s live
      // (docs/fidelity-notes.md).
      const z = this.networkRng.normal();
      const drawn = sent + net.delayAt_s(a, b, this.mailbox.localQuantile(a, type, sent, z), type);
      // In order behind the same job's messages (a message of no job, its type's), as between
      // processes (throughMailbox_s): each type's delay within the process was measured behind
      // whatever its mailbox held, so holding it behind every earlier message counts that twice.
      const orderKey = `${key}\u0000${jobOf(msg) ?? `type\u0000${type}`}`;
      const ahead = this.orders.get(orderKey);
      const at = Math.max(drawn, ahead?.handled_s ?? 0);
      this.keepOrder(orderKey, at, at);
      // arrives_s: the last of the process's messages to arrive, which a late timer waits for (drainFirst).
      this.pairs.set(key, { z, t: sent, arrives_s: Math.max(at, pair?.arrives_s ?? 0) });
      return at - sent;
    }
    const z = this.correlatedZ(pair, sent, net.meanDelay_s(a, b, type));
    const at = Math.max(sent + net.delayAt_s(a, b, normalCdf(z), type), pair?.arrives_s ?? 0);
    this.pairs.set(key, { z, t: sent, arrives_s: at });
    return at - sent;
  }

  /**
   * When a message to another process is handled, drawn in two parts (MailboxModel): when it
   * reaches the receiver's mailbox, from what its type's arrivals were on the link, alike for
   * messages close in time between the two actors; then its wait there, alike for waits close in
   * time at the receiver's location (its run loop), both through the copula, and each placed where
   * the link's timeline had it then (sent, and reached).
   *
   * In order between the two actors for each job (for a message of no job, each type), not across
   * jobs: each type's delays were measured live behind whatever was ahead of it on the connection,
   * so holding a message behind every earlier one again counts that wait twice (on the K = 4 chaos
   * spec, 36% of denials and half the grants were held behind an earlier message, about 500
   * emulated s each, and claims timed out 4-7 times as often as live). One job's messages keep
   * their order (a job's end never overtakes its start), and so do one type's reports.
   */
  private throughMailbox_s(
    model: MailboxModel,
    key: string,
    pair: { readonly z: number; readonly t: number } | undefined,
    from: Address,
    to: Address,
    msg: M,
  ): number {
    const [a, b] = [senderOf(from), senderOf(to)];
    const type = msg.type;
    const sent = this.actorTime;
    const orderKey = `${key}\u0000${jobOf(msg) ?? `type\u0000${type}`}`;
    const ahead = this.orders.get(orderKey);
    // The pair's standard normal, alike for messages close in time, placed where the link stood then.
    const z = this.correlatedZ(pair, sent, model.meanArrival_s(a, b, type));
    const q = model.arrivalQuantile(a, b, type, sent, z);
    const reaches = Math.max(sent + model.arrivalAt_s(a, b, q, type), ahead?.reaches_s ?? 0);
    const zw = this.correlatedZ(this.waits.get(b), reaches, model.meanWait_s(a, b, type));
    this.waits.set(b, { z: zw, t: reaches });
    const qw = model.waitQuantile(a, b, type, reaches, zw);
    const handled = Math.max(reaches + model.waitAt_s(a, b, qw, type), ahead?.handled_s ?? 0);
    this.pairs.set(key, { z, t: sent, arrives_s: handled });
    this.keepOrder(orderKey, reaches, handled);
    let box = this.inMailbox.get(to);
    if (!box) this.inMailbox.set(to, (box = { items: [], limit: 256 }));
    // An actor that has no timers must not keep every message it ever had.
    if (box.items.length >= box.limit) {
      this.forgetHandled(box);
      box.limit = Math.max(256, 2 * box.items.length);
    }
    box.items.push({ reaches_s: reaches, handled_s: handled });
    return handled;
  }

  /** The last message of `orderKey` (a pair of actors and a job) reaches its mailbox at `reaches_s`, handled at `handled_s`. */
  private keepOrder(orderKey: string, reaches_s: number, handled_s: number): void {
    this.orders.set(orderKey, { reaches_s, handled_s });
    // Forgotten once handled: what a later message of the job waits for is then past.
    if (++this.ordersSet % 4096 === 0)
      for (const [k, o] of this.orders) if (o.handled_s < this.clock) this.orders.delete(k);
  }

  /**
   * With a mailbox split, a replayed timer is handled after every message from another process
   * that reached its actor's mailbox before the timer did, as live (MailboxModel): puts it back
   * behind the last of them; true if it did. Messages already handled are forgotten here.
   */
  private behindArrived(d: Delivery<M>): boolean {
    const box = this.mailbox ? this.inMailbox.get(d.to.placement.address) : undefined;
    if (!box || d.posted === undefined) return false;
    this.forgetHandled(box);
    let last = Number.NEGATIVE_INFINITY;
    for (const m of box.items)
      if (m.reaches_s <= d.posted && m.handled_s > this.clock) last = Math.max(last, m.handled_s);
    if (last === Number.NEGATIVE_INFINITY) return false;
    this.agenda.push({ ...d, time: last, seq: this.seq++ });
    return true;
  }

  /** Drops the messages of an actor's mailbox (inMailbox) handled before now. */
  private forgetHandled(box: InMailbox): void {
    let kept = 0;
    for (const m of box.items) if (m.handled_s >= this.clock) box.items[kept++] = m;
    box.items.length = kept;
  }

  /**
   * A late timer of a replay waits until no message between its process's own actors is on its way.
   * Live, such a message goes through the mailbox in the turn that sent it, and what its handler
   * sends within the process too; a timer fires only when the event loop comes round, after the
   * turn. So a site's claim to its own metascheduler is never timed out live, however long the turn
   * takes (the replay timed out half of them). Puts the timer back behind the last such
   * message, at most MAX_TURN_WAITS times (a live turn ends after a bounded number of deliveries);
   * true if it did.
   */
  private drainFirst(d: Delivery<M>): boolean {
    if ((d.drained ?? 0) >= MAX_TURN_WAITS) return false;
    // One order per location: the last one sent arrives last, and is on its way until then.
    const last = this.pairs.get(localKey(d.to.placement.location ?? ''))?.arrives_s;
    if (last === undefined || last < this.clock) return false;
    this.agenda.push({ ...d, time: last, seq: this.seq++, drained: (d.drained ?? 0) + 1 });
    return true;
  }

  /**
   * How late a replayed timer due at `due` fires at its actor's location, drawn from the live run's
   * timer lag. A live timer is handled when the process gets to it: a grant that lands
   * while a claim's time-out waits behind a busy event loop is handled first, and the time-out
   * then finds nothing to do. Lags close in time are alike (a busy loop delays all its timers),
   * through the same copula as the links', over CORRELATED_DELAYS mean lags.
   */
  private timerLag_s(to: Registered<M>, due: number): number {
    const net = this.options.measured!;
    const key = to.placement.location ?? '';
    // The location as a live run's timeline names it (the driver's actors have none).
    const location = senderOf(to.placement.address);
    // With a mailbox split, the lag until the timer reaches its mailbox: its wait there is behindArrived's.
    const mean = this.mailbox ? this.mailbox.meanTimerFireLag_s(location) : net.meanTimerLag_s();
    const z = this.correlatedZ(this.lags.get(key), due, mean);
    this.lags.set(key, { z, t: due });
    return this.mailbox ? this.mailbox.timerFireLag_s(location, due, z) : net.timerLagAt_s(normalCdf(z));
  }

  /**
   * The next standard normal of a Gaussian copula in time: alike the last one drawn at `last.t`,
   * its correlation falling off over CORRELATED_DELAYS means (`mean_s`) of what is drawn.
   */
  private correlatedZ(last: { readonly z: number; readonly t: number } | undefined, t: number, mean_s: number): number {
    const tau = Math.max(mean_s * CORRELATED_DELAYS, 1e-9);
    const rho = last ? Math.exp(-Math.abs(t - last.t) / tau) : 0;
    return rho * (last?.z ?? 0) + Math.sqrt(1 - rho * rho) * this.networkRng.normal();
  }

  private enqueue(time: number, to: Registered<M>, from: Address, msg: M, timer: TimerId, topic = false): void {
    this.agenda.push(
      topic ? { time, seq: this.seq++, to, from, msg, timer, topic } : { time, seq: this.seq++, to, from, msg, timer },
    );
  }
}

/** The job a message is about, if it names one (its `jobId`, or its `job`'s id): what keeps a replayed link's order. */
function jobOf(msg: { readonly type: string }): string | undefined {
  const m = msg as { readonly jobId?: unknown; readonly job?: { readonly id?: unknown } };
  if (typeof m.jobId === 'string') return m.jobId;
  return typeof m.job?.id === 'string' ? m.job.id : undefined;
}
