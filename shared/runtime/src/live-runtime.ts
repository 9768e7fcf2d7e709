import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import PQueue from 'p-queue';
import { decodeEnvelope, encodeEnvelope, type Address, type Message } from '@gridemu/protocol';
import { withFields, type Actor, type ActorContext, type Logger, type TimerId } from './actor.js';
import { EmulatedClock } from './emulated-clock.js';
import { LatencyHistogram } from './latency-histogram.js';
import { PreciseTimer } from './precise-timer.js';
import { wallNow_ms } from './wall-clock.js';
import { Rng } from './rng.js';
import { RunCounters } from './run-counters.js';
import { actorSubject, checkRunId, siteOf } from './subjects.js';

export interface LiveRuntimeOptions {
  readonly nc: NatsConnection;
  readonly run: string;
  readonly seed: number;
  readonly log: Logger;
  /** Called once if an actor throws (a broken invariant): the run cannot be trusted any more. */
  readonly onFatal?: (err: Error) => void;
}

interface Hosted {
  readonly actor: Actor<Message>;
  readonly ctx: ActorContext<Message>;
  /** One message at a time, in arrival order (DESIGN.md: p-queue mailbox per actor). */
  readonly mailbox: PQueue;
  readonly subscription: Subscription;
  /**
   * The actor's clock: the emulated time of the delivery it is handling, read once when the delivery
   * starts, never earlier than its previous delivery's (issue 16; see deliver()).
   */
  now_s: number;
}

/** The first malformed messages are logged in full; after that they are only counted. */
const MALFORMED_LOG_LIMIT = 20;

/**
 * The live runtime: the same actor API as SimRuntime, over NATS. A send is a msgpack envelope
 * published on the receiver's subject; every actor has a mailbox that runs one message at a time;
 * timers run on the emulated clock. A message from the bus that fails to decode or validate is
 * counted (`messages.malformed`), logged and dropped; the actors never see it.
 */
export class LiveRuntime {
  private readonly hosted = new Map<Address, Hosted>();
  private readonly timers = new Map<TimerId, PreciseTimer>();
  private readonly rootRng: Rng;
  private clock: EmulatedClock | undefined;
  private nextTimer = 1;
  private malformedLogged = 0;
  private delivered = 0;
  private fatal = false;
  readonly run: string;
  private readonly tally = new RunCounters();
  /** Messages sent, by type; `crossSite` only those between two sites. */
  readonly messages = this.tally.messages;
  readonly counters = this.tally.counters;
  /** One-way wall latency of messages received from another site, per link `from->to` (issue 4, item 6). */
  readonly latency = new Map<string, LatencyHistogram>();
  /** How late timers fired against their wall deadline: event-loop lag plus timer granularity. */
  readonly timerLag = new LatencyHistogram();

  constructor(private readonly options: LiveRuntimeOptions) {
    this.run = checkRunId(options.run);
    this.rootRng = new Rng(options.seed);
  }

  /** Subscribes the actor; what arrives waits in its mailbox until start(). */
  spawn(address: Address, site: string | undefined, actor: Actor<Message>): void {
    if (this.hosted.has(address)) throw new Error(`actor ${address} already exists`);
    const mailbox = new PQueue({ concurrency: 1, autoStart: false });
    const ctx = this.makeContext(address, site, mailbox);
    const subscription = this.options.nc.subscribe(actorSubject(this.run, address), {
      callback: (err, m) => {
        if (err) {
          this.options.log.error({ address, err: err.message }, 'subscription error');
          return;
        }
        const decoded = decodeEnvelope(m.data, this.run);
        if (!decoded.ok || decoded.envelope.to !== address) {
          this.malformed(m.subject, decoded.ok ? `addressed to ${decoded.envelope.to}, received by ${address}` : decoded.reason, m.data.byteLength);
          return;
        }
        const { msg, from, sent_ms } = decoded.envelope;
        if (sent_ms !== undefined) this.recordLatency(from, address, wallNow_ms() - sent_ms);
        void mailbox.add(() => this.deliver(address, msg));
      },
    });
    this.hosted.set(address, { actor, ctx, mailbox, subscription, now_s: Number.NEGATIVE_INFINITY });
  }

  /** Resolves once the server has registered every subscription made so far. */
  async ready(): Promise<void> {
    await this.options.nc.flush();
  }

  /** Starts the clock at `epoch_s` emulated seconds as of wall time `wallEpoch_ms`, then every actor. */
  start(epoch_s: number, speedup: number, wallEpoch_ms = wallNow_ms()): void {
    this.clock = new EmulatedClock(epoch_s, wallEpoch_ms, speedup);
    for (const [address, h] of this.hosted) {
      void h.mailbox.add(() => this.guard(address, h, undefined, () => h.actor.start?.(h.ctx)));
      h.mailbox.start();
    }
  }

  now(): number {
    if (!this.clock) throw new Error('the live runtime has not started');
    return this.clock.now_s();
  }

  /** Stops timers and subscriptions, and waits for messages already in mailboxes. */
  async stop(): Promise<void> {
    for (const t of this.timers.values()) t.cancel();
    this.timers.clear();
    for (const h of this.hosted.values()) h.subscription.unsubscribe();
    await Promise.all([...this.hosted.values()].map((h) => h.mailbox.onIdle()));
  }

  /** Messages and timers handed to actors so far. */
  get deliveries(): number {
    return this.delivered;
  }

  /** Hands `msg` to the actor; a timer passes its due time as `at_s`. */
  private deliver(address: Address, msg: Message, at_s?: number): void {
    const h = this.hosted.get(address);
    if (!h) return;
    this.delivered++;
    this.guard(address, h, at_s, () => h.actor.receive(h.ctx, msg));
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
  private guard(address: Address, h: Hosted, at_s: number | undefined, fn: () => void): void {
    if (this.fatal) return;
    h.now_s = Math.max(h.now_s, at_s ?? this.now());
    try {
      fn();
    } catch (err) {
      this.fatal = true;
      this.tally.count('actor.errors');
      const e = err instanceof Error ? err : new Error(String(err));
      this.options.log.error({ address, err: e.message }, 'actor failed: stopping this process');
      this.options.onFatal?.(e);
    }
  }

  /** The time of the delivery `self` is handling; outside one (never in practice), the clock's. */
  private actorNow(self: Address): number {
    const t = this.hosted.get(self)?.now_s ?? Number.NEGATIVE_INFINITY;
    return t === Number.NEGATIVE_INFINITY ? this.now() : t;
  }

  private recordLatency(from: Address, to: Address, ms: number): void {
    const a = siteOf(from);
    const b = siteOf(to);
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

  private makeContext(self: Address, site: string | undefined, mailbox: PQueue): ActorContext<Message> {
    return {
      self,
      site,
      now: () => this.actorNow(self),
      send: (to, msg) => {
        this.tally.sent(msg.type, site, siteOf(to));
        this.options.nc.publish(actorSubject(this.run, to), encodeEnvelope({ run: this.run, from: self, to, msg, sent_ms: wallNow_ms() }));
      },
      schedule: (delay_s, msg) => {
        if (!(delay_s >= 0)) throw new Error(`${self} scheduled ${msg.type} with delay ${delay_s}`);
        const id = this.nextTimer++;
        const due_s = this.actorNow(self) + delay_s;
        this.timers.set(id, new PreciseTimer(this.clock!.wall_ms(due_s), (late_ms) => {
          this.timers.delete(id);
          this.timerLag.record(late_ms);
          void mailbox.add(() => this.deliver(self, msg, due_s));
        }));
        return id;
      },
      cancel: (timer) => {
        this.timers.get(timer)?.cancel();
        this.timers.delete(timer);
      },
      rng: this.rootRng.fork(self),
      // The run id is on every line already (pinoLogger's base); site and actor are per actor.
      log: withFields(this.options.log, { site, actor: self }),
      metrics: this.tally.sink,
    };
  }
}

