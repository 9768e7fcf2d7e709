import { MessageType, type Address, type Message, type MessageCheck } from '@gridemu/protocol';
import { decodeEnvelope, encodeEnvelope } from '@gridemu/protocol/wire';
import { withFields, type Actor, type ActorContext, type ActorPlacement, type Logger } from './actor.js';
import { makeContext, type ContextHost } from './context.js';
import { EmulatedClock } from './emulated-clock.js';
import { LatencyHistogram } from './latency-histogram.js';
import { Mailboxes, type Inbox } from './mailboxes.js';
import { TimerQueue } from './timer-queue.js';
import { wallNow_ms } from './wall-clock.js';
import { Rng } from './rng.js';
import { RunCounters } from './run-counters.js';
import { checkRunId, senderOf, siteOf } from './subjects.js';
import { topicRecipient, type BusSubscription, type Transport } from './transport.js';

export interface LiveRuntimeOptions {
  readonly transport: Transport;
  readonly run: string;
  readonly seed: number;
  readonly log: Logger;
  /** Called once if an actor throws (a broken invariant): the run cannot be trusted any more. */
  readonly onFatal?: (err: Error) => void;
  /** The message catalogue to accept from the bus: the core's plus the schemes' (default: the core's). */
  readonly check?: MessageCheck;
  /** How long before a timer's deadline the process spins rather than sleeps (PreciseTimer; 0: never). */
  readonly timerSpin_ms?: number;
  /**
   * Messages of these types sent to another process are resent every `resend_ms` wall ms until the
   * receiving runtime acknowledges them, and a receiver delivers each once (issue 11): they survive
   * a nats-server restart, which loses what is in flight. Off by default.
   */
  readonly reliable?: { readonly types: ReadonlySet<string>; readonly resend_ms: number };
}

/** A durable message sent and not yet acknowledged. */
interface Unacknowledged {
  readonly target: { readonly actor: Address };
  readonly from: Address;
  readonly bytes: Uint8Array;
  sent_ms: number;
}

/** A message (or a timer, with its due time) waiting for its actor. */
interface Delivery {
  readonly msg: Message;
  readonly from: Address;
  readonly at_s: number | undefined;
}

interface Hosted {
  readonly placement: ActorPlacement<Message>;
  readonly actor: Actor<Message>;
  readonly ctx: ActorContext<Message>;
  /** One message at a time, in arrival order (DESIGN.md: a mailbox per actor). */
  readonly inbox: Inbox<Delivery>;
  /**
   * The actor's clock: the emulated time of the delivery it is handling, read once when the delivery
   * starts, never earlier than its previous delivery's (issue 16; see guard()).
   */
  now_s: number;
}

/** Where a process's runtime hears acknowledgements for what its actors at `location` sent. */
function runtimeAddress(location: string): Address {
  return `${location}/runtime`;
}

/** The first malformed messages are logged in full; after that they are only counted. */
const MALFORMED_LOG_LIMIT = 20;

/**
 * The live runtime: the same actor API as SimRuntime, over a message bus (NATS in a live run). A
 * message to an actor this process hosts goes straight to its mailbox; one to an actor elsewhere is
 * a msgpack envelope published on the bus; a topic message is one publish that every interested
 * process hears. Every actor has a mailbox that runs one message at a time; timers run on the
 * emulated clock. A message from the bus that fails to decode or validate is counted
 * (`messages.malformed`), logged and dropped; the actors never see it.
 */
export class LiveRuntime {
  private readonly hosted = new Map<Address, Hosted>();
  /** Each topic's subscribers in this process. */
  private readonly topicSubscribers = new Map<string, Hosted[]>();
  private readonly subscriptions: BusSubscription[] = [];
  private readonly mailboxes = new Mailboxes<Delivery>();
  private readonly timers: TimerQueue<{ h: Hosted; msg: Message; due_s: number }>;
  private readonly rootRng: Rng;
  private readonly host: ContextHost<Message>;
  private clock: EmulatedClock | undefined;
  private malformedLogged = 0;
  private delivered = 0;
  private fatal = false;
  readonly run: string;
  private readonly tally = new RunCounters();
  /** Messages sent, by type; `crossSite` only those between two locations. */
  readonly messages = this.tally.messages;
  readonly counters = this.tally.counters;
  /** One-way wall latency of messages received from another site, per link `from->to` (issue 4, item 6). */
  readonly latency = new Map<string, LatencyHistogram>();
  /** How late timers fired against their wall deadline: event-loop lag plus timer granularity. */
  readonly timerLag = new LatencyHistogram();
  private readonly outbox = new Map<string, Unacknowledged>();
  /** Ids of the durable messages delivered here (a resent one is acknowledged again, not delivered). */
  private readonly seen = new Set<string>();
  private nextMid = 1;
  private resender: NodeJS.Timeout | undefined;
  /** The locations whose runtime address (`<location>/runtime`) this process answers on. */
  private readonly runtimeAddresses = new Set<string>();

  constructor(private readonly options: LiveRuntimeOptions) {
    this.run = checkRunId(options.run);
    this.rootRng = new Rng(options.seed);
    this.timers = new TimerQueue((t, late_ms) => {
      this.timerLag.record(late_ms);
      this.enqueue(t.h, t.msg, t.h.placement.address, t.due_s);
    }, options.timerSpin_ms);
    this.host = {
      now: (self) => this.actorNow(self),
      send: (from, to, msg) => {
        const local = this.hosted.get(to);
        this.tally.sent(msg.type, from.location, local ? local.placement.location : siteOf(to));
        if (local) this.enqueue(local, msg, from.address);
        else this.toBus({ actor: to }, from.address, to, msg);
      },
      publish: (from, topic, msg) => {
        const here = this.topicSubscribers.get(topic) ?? [];
        for (const h of here) {
          this.tally.sent(msg.type, from.location, h.placement.location);
          this.enqueue(h, msg, from.address);
        }
        // One publish for the subscribers in other processes (their deliveries are counted there).
        this.toBus({ topic }, from.address, topicRecipient(topic), msg);
      },
      schedule: (self, delay_s, msg) => {
        const due_s = this.actorNow(self.address) + delay_s;
        return this.timers.set(this.clock!.wall_ms(due_s), { h: this.hosted.get(self.address)!, msg, due_s });
      },
      cancel: (_self, timer) => this.timers.cancel(timer),
    };
  }

  /** Subscribes the actor (and its topics); what arrives waits in its mailbox until start(). */
  spawn(placement: ActorPlacement<Message>): void {
    const address = placement.address;
    if (this.hosted.has(address)) throw new Error(`actor ${address} already exists`);
    // The run id is on every line already (pinoLogger's base); location and actor are per actor.
    const log = withFields(this.options.log, { site: placement.location, actor: address });
    const ctx = makeContext(this.host, placement, this.rootRng.fork(address), log, this.tally.sink);
    const h: Hosted = {
      placement,
      actor: placement.actor,
      ctx,
      inbox: this.mailboxes.inbox((d) => {
        this.delivered++;
        this.guard(h, d.at_s, () => h.actor.receive(h.ctx, d.msg, d.from));
      }),
      now_s: Number.NEGATIVE_INFINITY,
    };
    this.hosted.set(address, h);
    if (this.options.reliable) this.listenForAcks(senderOf(address));
    this.subscriptions.push(this.options.transport.subscribe({ actor: address }, (bytes, subject, sender) => this.fromBus(bytes, subject, sender, address, (from, msg) => this.enqueue(h, msg, from))));
    for (const topic of placement.topics ?? []) {
      let list = this.topicSubscribers.get(topic);
      if (!list) {
        this.topicSubscribers.set(topic, (list = []));
        const recipient = topicRecipient(topic);
        this.subscriptions.push(this.options.transport.subscribe({ topic }, (bytes, subject, sender) => this.fromBus(bytes, subject, sender, recipient, (from, msg) => {
          // This process's own subscribers already had it from publish().
          if (this.hosted.has(from)) return;
          for (const s of list!) {
            // Counted here, once per receiver, as the simulator counts a topic message.
            this.tally.sent(msg.type, siteOf(from), s.placement.location);
            this.enqueue(s, msg, from);
          }
        })));
      }
      list.push(h);
    }
  }

  /** Resolves once the bus has registered every subscription made so far. */
  async ready(): Promise<void> {
    await this.options.transport.flush();
  }

  /** Starts the clock at `epoch_s` emulated seconds as of wall time `wallEpoch_ms`, then every actor. */
  start(epoch_s: number, speedup: number, wallEpoch_ms = wallNow_ms()): void {
    this.clock = new EmulatedClock(epoch_s, wallEpoch_ms, speedup);
    const reliable = this.options.reliable;
    if (reliable) this.resender = setInterval(() => this.resend(reliable.resend_ms), Math.max(1, reliable.resend_ms / 2));
    this.mailboxes.start(() => {
      for (const h of this.hosted.values()) this.guard(h, undefined, () => h.actor.start?.(h.ctx));
    });
  }

  now(): number {
    if (!this.clock) throw new Error('the live runtime has not started');
    return this.clock.now_s();
  }

  /** Stops timers and subscriptions, and waits for messages already in mailboxes. */
  async stop(): Promise<void> {
    clearInterval(this.resender);
    this.timers.clear();
    for (const s of this.subscriptions) s.unsubscribe();
    this.subscriptions.length = 0;
    await this.mailboxes.idle();
  }

  /** Messages and timers handed to actors so far. */
  get deliveries(): number {
    return this.delivered;
  }

  private toBus(target: { actor: Address } | { topic: string }, from: Address, to: string, msg: Message): void {
    this.tally.count('bus.published');
    const sent_ms = wallNow_ms();
    if ('actor' in target && this.options.reliable?.types.has(msg.type) === true) {
      // Kept until the receiving runtime says it has it (listenForAcks); resent meanwhile.
      const mid = `${senderOf(from)}-${this.nextMid++}`;
      const bytes = encodeEnvelope({ run: this.run, from, to, msg, sent_ms, mid });
      this.outbox.set(mid, { target, from, bytes, sent_ms });
      this.options.transport.publish(target, from, bytes);
      return;
    }
    this.options.transport.publish(target, from, encodeEnvelope({ run: this.run, from, to, msg, sent_ms }));
  }

  /** Resends what has waited over `after_ms` for its acknowledgement. */
  private resend(after_ms: number): void {
    const now = wallNow_ms();
    for (const u of this.outbox.values()) {
      if (now - u.sent_ms < after_ms) continue;
      u.sent_ms = now;
      this.tally.count('bus.resent');
      this.options.transport.publish(u.target, u.from, u.bytes);
    }
  }

  /** Acknowledgements for the durable messages this process's actors at `location` sent. */
  private listenForAcks(location: string): void {
    if (this.runtimeAddresses.has(location)) return;
    this.runtimeAddresses.add(location);
    const address = runtimeAddress(location);
    this.subscriptions.push(
      this.options.transport.subscribe({ actor: address }, (bytes, subject, sender) =>
        this.fromBus(bytes, subject, sender, address, (_from, msg) => {
          if (msg.type === MessageType.BusAck) this.outbox.delete(msg.mid);
        }),
      ),
    );
  }

  /** Decodes and checks what the bus brought for `recipient`; anything wrong is counted and dropped. */
  private fromBus(bytes: Uint8Array, subject: string, sender: string, recipient: string, accept: (from: Address, msg: Message) => void): void {
    const decoded = decodeEnvelope(bytes, this.run, this.options.check);
    if (!decoded.ok || decoded.envelope.to !== recipient) {
      this.malformed(subject, decoded.ok ? `addressed to ${decoded.envelope.to}, received as ${recipient}` : decoded.reason, bytes.byteLength);
      return;
    }
    const { msg, from, sent_ms, mid } = decoded.envelope;
    if (senderOf(from) !== sender) {
      // A forged sender (issue 11): the bus says who published it, and it is not who the envelope claims.
      this.tally.count('messages.forged_sender');
      if (this.malformedLogged++ < MALFORMED_LOG_LIMIT) this.options.log.warn({ subject, claimed: from, sender, type: msg.type }, 'dropped a message whose sender does not match its subject');
      return;
    }
    if (sent_ms !== undefined) this.recordLatency(from, recipient, wallNow_ms() - sent_ms);
    if (mid !== undefined) {
      // A durable message: acknowledge every copy, deliver the first (a resend must do no harm).
      const me = runtimeAddress(senderOf(recipient));
      this.options.transport.publish({ actor: runtimeAddress(senderOf(from)) }, me, encodeEnvelope({ run: this.run, from: me, to: runtimeAddress(senderOf(from)), msg: { type: MessageType.BusAck, mid } }));
      if (this.seen.has(mid)) {
        this.tally.count('bus.duplicates');
        return;
      }
      this.seen.add(mid);
    }
    accept(from, msg);
  }

  /** Queues a delivery in the actor's mailbox; a timer passes its due time as `at_s`. */
  private enqueue(h: Hosted, msg: Message, from: Address, at_s?: number): void {
    this.mailboxes.post(h.inbox, { msg, from, at_s });
  }

  /**
   * Runs one delivery with the actor's clock set once (issue 16). The clock used to be read afresh
   * at every ctx.now(): the executor scheduled a job's end from one read and recorded its start and
   * end from later ones, and a pause of a fraction of a millisecond inside the handler (a GC, at
   * speed-up 100,000 tens of emulated seconds) made the record say the job ended later than the
   * timer that freed its processors, so the next job on them overlapped it in jobs.csv. Now every
   * read inside a handler gives the same time, a timer is handled at the time it was due (its lag
   * shows in wall time, not in the schedule), and an actor's clock never goes back.
   */
  private guard(h: Hosted, at_s: number | undefined, fn: () => void): void {
    if (this.fatal) return;
    h.now_s = Math.max(h.now_s, at_s ?? this.now());
    try {
      fn();
    } catch (err) {
      this.fatal = true;
      this.tally.count('actor.errors');
      const e = err instanceof Error ? err : new Error(String(err));
      this.options.log.error({ address: h.placement.address, err: e.message }, 'actor failed: stopping this process');
      this.options.onFatal?.(e);
    }
  }

  /** The time of the delivery `self` is handling; outside one (never in practice), the clock's. */
  private actorNow(self: Address): number {
    const t = this.hosted.get(self)?.now_s ?? Number.NEGATIVE_INFINITY;
    return t === Number.NEGATIVE_INFINITY ? this.now() : t;
  }

  private recordLatency(from: Address, to: string, ms: number): void {
    const a = siteOf(from);
    const b = this.hosted.get(to)?.placement.location ?? siteOf(to) ?? [...this.hosted.values()][0]?.placement.location;
    if (a === undefined || b === undefined || a === b) return;
    const link = `${a}->${b}`;
    let h = this.latency.get(link);
    if (!h) this.latency.set(link, (h = new LatencyHistogram()));
    h.record(ms);
  }

  private malformed(subject: string, reason: string, bytes: number): void {
    this.tally.count('messages.malformed');
    if (this.malformedLogged++ < MALFORMED_LOG_LIMIT) this.options.log.warn({ subject, reason, bytes }, 'dropped a malformed message');
  }
}
