import { randomUUID } from 'node:crypto';
import { MessageType, type Address, type Message, type MessageCheck } from '@gridemu/protocol';
import { decodeEnvelope, encodeEnvelope } from '@gridemu/protocol/wire';
import { withFields, type ActorPlacement, type Logger } from './actor.js';
import { traceLine, TRACE_LOG_MESSAGE } from './trace-line.js';
import { replayedLine } from './replayed-log-lines.js';
import { makeContext, type ContextHost } from './context.js';
import { EmulatedClock } from './emulated-clock.js';
import type { LatencyHistogram } from './latency-histogram.js';
import type { WindowCounts } from './window-counts.js';
import { Mailboxes } from './mailboxes.js';
import type { Journal } from './journal.js';
import type { JournalEntry } from './journal-entry.js';
import { JournalWriter } from './journal-writer.js';
import { DurableOutbox, runtimeAddress } from './durable-outbox.js';
import { LinkOrder, linkOf } from './link-order.js';
import { owedAck, settleOwed, type OwedAck } from './owed-acks.js';
import { StoredThrough } from './stored-through.js';
import { AckBatches, PeriodicFlush } from './ack-batches.js';
import { AnswersDue } from './answers-due.js';
import { LinkMeter } from './link-meter.js';
import {
  journalEntryOf,
  type ActorOutput,
  type Delivery,
  type DeliverySource,
  type HostedActor,
  type PendingTimer,
} from './live-delivery.js';
import { LiveRecovery, type ReplayCount, type ReplayedFelt } from './live-recovery.js';
import { TimerQueue } from './timer-queue.js';
import { wallNow_ms } from './wall-clock.js';
import { Rng } from './rng.js';
import { RunCounters } from './run-counters.js';
import { LatestValueThrottle } from './latest-value-throttle.js';
import { checkRunId, senderOf, siteOf } from './subjects.js';
import { topicRecipient, type BusSubscription, type Transport } from './transport.js';
import { BusOutages, type OutageSpan } from './bus-outages.js';

export interface LiveRuntimeOptions {
  readonly transport: Transport;
  readonly run: string;
  readonly seed: number;
  readonly log: Logger;
  /** Called once if an actor throws (a broken invariant): the run cannot be trusted any more. */
  readonly onFatal?: (err: Error) => void;
  /**
   * Called once if the journal refuses this process's appends because a newer incarnation of it
   * has taken the journal over: this one must stop quietly; the run goes on with the newer one.
   * Without it, a refusal is fatal.
   */
  readonly onSuperseded?: (err: Error) => void;
  /**
   * Whether the experiment's faults held back a message from `from` to `to` (locations) sent at
   * emulated `sent_s` and handled at `handled_s`: on its way across a cut link, say. Its delay is
   * the fault's, which a replay of the run applies itself, so it is counted apart
   * (`felt.held_by_fault`) rather than recorded as the link's felt delay. Messages a restarted
   * process gets that were sent before its resume are held the same way.
   */
  readonly heldByFault?: (from: string, to: string, sent_s: number, handled_s: number) => boolean;
  /** The message catalogue to accept from the bus: the core's plus the schemes' (default: the core's). */
  readonly check?: MessageCheck;
  /** How long before a timer's deadline the process spins rather than sleeps (PreciseTimer; 0: never). */
  readonly timerSpin_ms?: number;
  /**
   * Messages of these types sent to another process are resent every `resend_ms` wall ms until the
   * receiving runtime acknowledges them, and a receiver delivers each once: they survive
   * a nats-server restart, which loses what is in flight. Off by default.
   */
  readonly reliable?: { readonly types: ReadonlySet<string>; readonly resend_ms: number };
  /**
   * Journal every delivery, and hold what goes on the bus until the batch that caused it is stored
   * (output commit), so a process killed at any moment can be restarted with its state.
   * `recovering`: this process is such a restart; it must resume() rather than start(), and what
   * the bus brings waits until the replay is done.
   */
  readonly journal?: { readonly store: Journal; readonly recovering: boolean };
  /**
   * Called after each delivery with the actor's role (its address after the location: `scheduler`,
   * `meta`, `executor`, …) and the wall seconds its handler took: a scheduling pass's duration
   * when the role is the scheduler (the process's /metrics makes it a histogram).
   */
  readonly onHandled?: (role: string, wall_s: number) => void;
  /** Called with each cross-location message's one-way wall latency and the sender's location (the per-link histogram of /metrics). */
  readonly onLatency?: (from: string, wall_s: number) => void;
  /**
   * Topics whose newest message makes the older ones moot (load gossip): each sender puts at most
   * one on the bus every `interval_ms` wall ms, the newest (LatestValueThrottle). This
   * process's own subscribers still get every one. Off when absent.
   */
  readonly latestValue?: { readonly topics: ReadonlySet<string>; readonly interval_ms: number };
  /** Log what the actors trace (ctx.trace) as TRACE_LOG_MESSAGE lines: `job`, `event`, `detail`, `time_s`. */
  readonly trace?: boolean;
}

export { TRACE_LOG_MESSAGE } from './trace-line.js';

/** The first malformed messages are logged in full; after that they are only counted. */
const MALFORMED_LOG_LIMIT = 20;
/**
 * How long a process gathers its answers about durable messages (wall ms) before it says them: one
 * `bus.ack` per link then carries the highest number stored, as TCP delays its acknowledgements,
 * where one went with every append to every sending location (665 in one saturated 10,000-job run
 * with the delay; docs/performance.md); and a journaled process's receipts (received, not yet
 * stored) go in the same flush, less those its acknowledgements already cover. A sender needs them
 * only to forget what it keeps and not to resend what waits in a backlog, and this is well under
 * its 100 ms floor before a resend (reliable-delivery.ts).
 */
const ANSWERS_EVERY_MS = 10;

/** What takes a message the bus brought, once checked (and, if durable, delivered in its link's order). */
type AcceptFromBus = (
  from: Address,
  msg: Message,
  at_s: number | undefined,
  /** With a journal, the acknowledgement each delivery this makes must settle once recorded. */
  ack: OwedAck | undefined,
) => void;

/**
 * The live runtime: the same actor API as SimRuntime, over a message bus (NATS in a live run). A
 * message to an actor this process hosts goes straight to its mailbox; one to an actor elsewhere is
 * a msgpack envelope published on the bus; a topic message is one publish that every interested
 * process hears. Every actor has a mailbox that runs one message at a time; timers run on the
 * emulated clock. A message from the bus that fails to decode or validate is counted
 * (`messages.malformed`), logged and dropped; the actors never see it.
 *
 * This class is the delivery core: the run loop, the clock, send and receive. Its collaborators
 * each keep one concern: the JournalWriter (output commit), LiveRecovery (a restarted process's
 * replay of its journal), the DurableOutbox (ids, acknowledgements, resends) and the LinkMeter
 * (latency, felt delays, timer lag). What the actors do goes through one ActorOutput: the live one
 * below, or the recovery's while a journal is replayed.
 */
export class LiveRuntime {
  private readonly hosted = new Map<Address, HostedActor>();
  /** Each topic's subscribers in this process. */
  private readonly topicSubscribers = new Map<string, HostedActor[]>();
  private readonly subscriptions: BusSubscription[] = [];
  /**
   * Whether the actors hear the bus. A restart does not until listen(): it replays its journal
   * while its crash's plan still has it down, hearing nothing, as a process that is down.
   */
  private listening: boolean;
  /** Subscriptions made while not listening, opened by listen(). */
  private readonly unopened: (() => BusSubscription)[] = [];
  /** With a journal, in a restarted process: its replay, once begun (replayJournal). */
  private replaying: Promise<ReplayCount> | undefined;
  /** The run's speed-up while the journal is replayed, before a clock runs (replayJournal). */
  private replaySpeedup: number | undefined;
  /** A restart standing by has begun to follow its predecessor's journal (followJournal): busy while a call runs. */
  private following: 'busy' | 'idle' | undefined;
  private resumed = false;
  private readonly mailboxes: Mailboxes<Delivery>;
  private readonly timers: TimerQueue<PendingTimer>;
  /** The queue's id of each armed timer, by the id the actor holds (ours, numbered in set order, so a replay gives the same). */
  private readonly timerHandles = new Map<number, number>();
  private nextTimerId = 1;
  /** Messages between this process's actors, numbered in send order (the journal names them so). */
  private nextLocalSeq = 1;
  private readonly journal: JournalWriter | undefined;
  /** With a journal, in a restarted process: its way back to the state it had. */
  private readonly recovery: LiveRecovery | undefined;
  private readonly outbox: DurableOutbox;
  /** Durable messages delivered in their link's order, whatever order resends bring them in. */
  private readonly linkOrder = new LinkOrder();
  /**
   * Timers that fired and wait in their actor's mailbox, and those of them cancelled meanwhile: a
   * cancelled timer is never delivered, as in the simulator, where a timer fires when its actor
   * handles it. Live, two timers due together both fired before the first was handled, and a
   * preemption in the first's turn cancelled the second, the preempted job's end, which was then
   * delivered all the same (gridemu fuzz --live, seed 41: "job ... ended on grid server but was
   * not running").
   */
  private readonly firedTimers = new Set<number>();
  private readonly cancelledFiredTimers = new Set<number>();
  /** What stops each of this runtime's listeners to the bus connection's drops (stop()). */
  private readonly busListeners: (() => void)[] = [];
  /** Per link, the highest number up to which this process may acknowledge (delivered and, with a journal, stored). */
  private readonly storedThrough = new StoredThrough();
  /** With a journal, what each append lets this process acknowledge, by the location of this process that received it. */
  private readonly ackBatches = new Map<string, AckBatches<{ upto: number }>>();
  /** Acknowledgements and receipts not yet said, until the next flush. */
  private readonly answers: AnswersDue;
  private readonly answerFlush = new PeriodicFlush(ANSWERS_EVERY_MS);
  private answersQueued = false;
  /** Names this start of the process in its acknowledgements (DurableOutbox.heardFrom). */
  private readonly boot = randomUUID().slice(0, 8);
  private readonly meter = new LinkMeter();
  /** When this process was cut off from the bus while its clock ran. */
  private readonly busOutages = new BusOutages();
  /** Where the actors' actions go: liveOutput, or the recovery's while the journal is replayed. */
  private output: ActorOutput;
  private readonly rootRng: Rng;
  private readonly host: ContextHost<Message>;
  private clock: EmulatedClock | undefined;
  private malformedLogged = 0;
  private delivered = 0;
  private fatal = false;
  readonly run: string;
  private readonly tally = new RunCounters();
  private readonly throttle: LatestValueThrottle | undefined;
  /** Messages sent, by type; `crossSite` only those between two locations. */
  readonly messages = this.tally.messages;
  /** What the actors and this runtime counted, and the transport's own counts. */
  get counters(): ReadonlyMap<string, number> {
    const own = this.tally.counters;
    const transport = this.options.transport.counts?.();
    if (!transport) return own;
    const all = new Map(own);
    for (const [name, n] of transport) all.set(name, (all.get(name) ?? 0) + n);
    return all;
  }
  /** Messages delivered to this process's actors, by type (topic messages once per receiver). */
  readonly received = new Map<string, number>();
  /** One-way wall latency of messages received from another location, per link `from->to`. */
  readonly latency: ReadonlyMap<string, LatencyHistogram> = this.meter.latency;
  /** How late timers fired against their wall deadline: event-loop lag plus timer granularity. */
  readonly timerLag: LatencyHistogram = this.meter.timerLag;
  /** Felt delay per link, wall ms (recordFelt). */
  readonly felt: ReadonlyMap<string, LatencyHistogram> = this.meter.felt;
  /** The same per message type, then per link: what one kind of message felt on a link. */
  readonly feltByType: ReadonlyMap<string, ReadonlyMap<string, LatencyHistogram>> = this.meter.feltByType;
  /** A felt delay between processes in two parts, by type then link: to the mailbox, and in it (LinkMeter). */
  readonly arrivedByType: ReadonlyMap<string, ReadonlyMap<string, LatencyHistogram>> = this.meter.arrivedByType;
  readonly waitedByType: ReadonlyMap<string, ReadonlyMap<string, LatencyHistogram>> = this.meter.waitedByType;
  /**
   * Both parts per link, then per window of the run (LinkMeter.arrivedTimeline, waitedTimeline),
   * in windows of one width, with how many of each type's messages each window holds; timers'
   * lateness, and the felt delays between this process's own actors, likewise per location;
   * undefined before any of them was recorded.
   */
  mailboxTimelines():
    | {
        bin_s: number;
        arrived: ReadonlyMap<string, ReadonlyMap<string, LatencyHistogram>>;
        waited: ReadonlyMap<string, ReadonlyMap<string, LatencyHistogram>>;
        arrivedCounts: WindowCounts;
        waitedCounts: WindowCounts;
        /** Timers' lateness before their mailbox per location, then window of when each was due. */
        timerFire: ReadonlyMap<string, ReadonlyMap<string, LatencyHistogram>>;
        /** Felt delays between this process's own actors, per location and window of when each was sent. */
        local: ReadonlyMap<string, ReadonlyMap<string, LatencyHistogram>>;
        localCounts: WindowCounts;
      }
    | undefined {
    const m = this.meter;
    return m.timelineBin_s === undefined
      ? undefined
      : {
          bin_s: m.timelineBin_s,
          arrived: m.arrivedTimeline,
          waited: m.waitedTimeline,
          arrivedCounts: m.arrivedWindowCounts,
          waitedCounts: m.waitedWindowCounts,
          timerFire: m.timerFireTimeline,
          local: m.localTimeline,
          localCounts: m.localWindowCounts,
        };
  }
  /** How late timers reached their mailbox against their wall deadline. */
  readonly timerFireLag: LatencyHistogram = this.meter.timerFireLag;
  /** The locations whose runtime address (`<location>/runtime`) this process answers on. */
  private readonly runtimeAddresses = new Set<string>();

  /**
   * What the actors log. With a journal, a line is output like any other: it is written once the
   * delivery that said it is stored, so the log never tells of a start the journal (and so the
   * restarted process) knows nothing of. The replay says again only the lines its predecessor may
   * have died before writing, marked (LiveRecovery).
   */
  private readonly actorLog: Logger = {
    debug: (f, m) => this.output.log((again) => this.options.log.debug(again ? replayedLine(f) : f, m)),
    info: (f, m) => this.output.log((again) => this.options.log.info(again ? replayedLine(f) : f, m)),
    warn: (f, m) => this.output.log((again) => this.options.log.warn(again ? replayedLine(f) : f, m)),
    error: (f, m) => this.output.log((again) => this.options.log.error(again ? replayedLine(f) : f, m)),
  };

  constructor(private readonly options: LiveRuntimeOptions) {
    this.run = checkRunId(options.run);
    this.rootRng = new Rng(options.seed);
    const latest = options.latestValue;
    this.throttle =
      latest && latest.interval_ms > 0
        ? new LatestValueThrottle(latest.interval_ms, () => this.tally.count('messages.superseded'))
        : undefined;
    this.journal = options.journal
      ? new JournalWriter(
          options.journal.store,
          this.tally,
          options.log,
          (err) => this.fail(err, 'journal'),
          (err) => this.superseded(err),
        )
      : undefined;
    this.answers = new AnswersDue(this.journal !== undefined);
    this.outbox = new DurableOutbox((target, from, bytes) => options.transport.publish(target, from, bytes));
    const reliable = options.reliable;
    // Every process is back on a restarted server within about 50 ms (docs/faults.md): a resend floor covers it.
    if (reliable) this.onBus('reconnect', () => this.outbox.connectionRestored(reliable.resend_ms));
    this.onBus('disconnect', () => {
      if (!this.clock) return;
      const at_s = this.clock.now_s();
      this.busOutages.disconnected(at_s);
      this.journalBusEdge('cut', at_s);
      options.log.warn(
        { at_s: Math.round(at_s) },
        'cut off from the bus: nothing crosses until the connection is back',
      );
    });
    this.onBus('reconnect', () => {
      if (!this.clock) return;
      const at_s = this.clock.now_s();
      this.busOutages.reconnected(at_s);
      this.journalBusEdge('back', at_s);
      options.log.info({ at_s: Math.round(at_s) }, 'back on the bus');
    });
    this.recovery =
      options.journal?.recovering === true
        ? new LiveRecovery({
            hostedAt: (address) => this.hosted.get(address),
            outbox: this.outbox,
            linkOrder: this.linkOrder,
            storedThrough: this.storedThrough,
            tally: this.tally,
            busOutageReplayed: (edge, at_s) =>
              edge === 'cut' ? this.busOutages.disconnected(at_s) : this.busOutages.reconnected(at_s),
            timerReplayed: (h, fired, heldByCrash) => {
              this.recordTimerFired(h, fired.due_s, fired.at_s, this.replaySpeedup!, heldByCrash);
              this.recordTimerHandled(fired.due_s, fired.handled_s, this.replaySpeedup!, heldByCrash);
            },
            redeliver: (h, msg, from, felt) => {
              this.delivered++;
              this.countReceived(msg.type);
              h.actor.receive(h.ctx, msg, from);
              if (felt) this.recordReplayedFelt(from, h.placement.address, msg.type, felt, h.now_s);
            },
            decodeStored: (bytes) => {
              const d = decodeEnvelope(bytes, this.run, this.options.check);
              if (!d.ok) throw new Error(`the journal holds a bus message that does not decode: ${d.reason}`);
              return d.envelope;
            },
          })
        : undefined;
    this.listening = this.recovery === undefined;
    this.output = this.liveOutput;
    this.mailboxes = new Mailboxes<Delivery>(this.journal ? () => this.journal!.commit() : undefined);
    this.timers = new TimerQueue((t, late_ms) => {
      this.timerHandles.delete(t.rid);
      // Armed only once the clock runs. When the queue found it due, on the run's clock, as a
      // restart reads it again from the journal (recordTimerFired). Not the clock read now: the
      // first timer of a batch posted to an idle process runs a turn before the next is posted,
      // and a replay puts that wait in the mailbox, behind what reached it first.
      const fired_s = t.due_s + (late_ms / 1000) * this.clock!.speedup;
      this.firedTimers.add(t.rid);
      this.recordTimerFired(t.h, t.due_s, fired_s, this.clock!.speedup, this.recovery?.heldByCrash(t.due_s) === true);
      this.enqueue(t.h, t.msg, t.h.placement.address, t.due_s, { k: 'timer', id: t.rid, fired_s });
    }, options.timerSpin_ms);
    this.host = {
      now: (self) => this.actorNow(self),
      send: (from, to, msg) => {
        const local = this.hosted.get(to);
        this.tally.sent(
          msg.type,
          from.location,
          local ? local.placement.location : siteOf(to),
          this.actorNow(from.address),
        );
        if (local) this.toLocal(local, msg, from.address);
        else this.toBus({ actor: to }, from.address, to, msg);
      },
      publish: (from, topic, msg) => {
        const here = this.topicSubscribers.get(topic) ?? [];
        for (const h of here) {
          this.tally.sent(msg.type, from.location, h.placement.location, this.actorNow(from.address));
          this.toLocal(h, msg, from.address);
        }
        // One publish for the subscribers in other processes (their deliveries are counted there).
        if (this.throttle && this.options.latestValue!.topics.has(topic)) {
          // Deferred, it leaves now: its felt delay is measured from then, as the replay draws it.
          this.output.latestValue(`${from.address} ${topic}`, (deferred) =>
            this.toBus({ topic }, from.address, topicRecipient(topic), msg, deferred ? this.clock?.now_s() : undefined),
          );
        } else {
          this.toBus({ topic }, from.address, topicRecipient(topic), msg);
        }
      },
      schedule: (self, delay_s, msg) => {
        const due_s = this.actorNow(self.address) + delay_s;
        const t: PendingTimer = { h: this.hosted.get(self.address)!, msg, due_s, rid: this.nextTimerId++ };
        this.output.timer(t);
        return t.rid;
      },
      cancel: (_self, timer) => {
        this.output.cancelTimer(timer);
      },
    };
  }

  /** What the actors do, as it leaves this process (or waits for the journal, with one). */
  private readonly liveOutput: ActorOutput = {
    bus: (target, from, durable, bytes) => {
      this.tally.count('bus.published');
      const encoded = bytes();
      const publish = () => this.options.transport.publish(target, from, encoded);
      if (durable !== undefined && 'actor' in target) {
        // Kept until the receiving runtime says it has it (listenForAcks); resent meanwhile.
        this.emit(() => {
          this.outbox.keep(durable.link, durable.n, target, from, encoded, wallNow_ms());
          publish();
        });
      } else {
        this.emit(publish);
      }
    },
    latestValue: (key, send) => this.throttle!.offer(key, send),
    local: (seq, m, sent_s) => this.enqueue(m.h, m.msg, m.from, undefined, { k: 'local', seq }, sent_s),
    timer: (t) => this.arm(t),
    cancelTimer: (rid) => {
      if (this.recovery?.cancelPending(rid) === true) return true;
      const id = this.timerHandles.get(rid);
      if (id === undefined) {
        // Fired, not yet handled: it stays in the mailbox, and is dropped there.
        if (!this.firedTimers.has(rid)) return false;
        this.cancelledFiredTimers.add(rid);
        return true;
      }
      this.timerHandles.delete(rid);
      this.timers.cancel(id);
      return true;
    },
    log: (write) => {
      if (this.journal) this.journal.emit(() => write(false), true);
      else write(false);
    },
  };

  /** Subscribes the actor (and its topics); what arrives waits in its mailbox until start(). */
  spawn(placement: ActorPlacement<Message>): void {
    const address = placement.address;
    if (this.hosted.has(address)) throw new Error(`actor ${address} already exists`);
    // The run id is on every line already (pinoLogger's base); location and actor are per actor.
    const log = withFields(this.actorLog, { site: placement.location, actor: address });
    // A trace line is output like any log line (journaled first); gridemu run gathers them into protocol-trace.csv.
    const raw = this.options.log.line?.bind(this.options.log);
    const tracer =
      this.options.trace !== true
        ? undefined
        : raw
          ? (job: string, event: string, detail = '') => {
              const fields = {
                run: this.run,
                site: placement.location,
                actor: address,
                job,
                event,
                detail,
                time_s: this.actorNow(address),
                wall_ms: Date.now(),
              };
              this.output.log((again) => raw(traceLine(again ? { ...fields, replayed: true } : fields)));
            }
          : (job: string, event: string, detail = '') =>
              log.info({ job, event, detail, time_s: this.actorNow(address) }, TRACE_LOG_MESSAGE);
    const ctx = makeContext(this.host, placement, this.rootRng.fork(address), log, this.tally.sinkFor(), tracer);
    const h: HostedActor = {
      placement,
      actor: placement.actor,
      ctx,
      inbox: this.mailboxes.inbox((d) => {
        if (d.src.k === 'timer') {
          this.firedTimers.delete(d.src.id);
          if (this.cancelledFiredTimers.delete(d.src.id)) {
            this.tally.count('timers.cancelled_after_firing');
            return;
          }
        }
        this.delivered++;
        this.countReceived(d.msg.type);
        // A timer's lateness is taken when its actor gets to it, as a message's felt delay is: the
        // replay (--network-from) sets the two against each other, and taken when the timer fired
        // it left out the wait in the mailbox that a felt delay includes, so a replay put timers
        // early against the messages racing them (docs/fidelity-notes.md). Read off the run's
        // clock: its actor's reads its due time.
        const handled_s = d.src.k === 'timer' && d.at_s !== undefined && this.clock ? this.now() : undefined;
        if (handled_s !== undefined)
          this.recordTimerHandled(
            d.at_s!,
            handled_s,
            this.clock!.speedup,
            this.recovery?.heldByCrash(d.at_s!) === true,
          );
        this.guard(
          h,
          d.at_s,
          () => h.actor.receive(h.ctx, d.msg, d.from),
          (t) => journalEntryOf(d, address, t, handled_s),
        );
        // Recorded in this turn's batch: its acknowledgement leaves with that batch's output.
        if (d.src.k === 'bus' && d.src.ack && !this.fatal) settleOwed(d.src.ack);
        if (d.sent_s !== undefined && this.clock) {
          if (this.heldByFault(d.from, address, d.sent_s, h.now_s)) this.tally.count('felt.held_by_fault');
          else {
            const felt_s = Math.max(0, h.now_s - d.sent_s);
            this.recordFelt(d.from, address, d.msg.type, d.sent_s, d.posted_s, felt_s, this.clock.speedup);
          }
        }
      }),
      now_s: Number.NEGATIVE_INFINITY,
      role: address.slice(address.indexOf('/') + 1),
    };
    this.hosted.set(address, h);
    if (this.options.reliable) this.listenForAcks(senderOf(address));
    this.subscribeOnBus(() =>
      this.options.transport.subscribe({ actor: address }, (bytes, subject, sender) =>
        this.fromBus(bytes, subject, sender, address, (from, msg, at_s, ack) =>
          this.enqueue(
            h,
            msg,
            from,
            undefined,
            { k: 'bus', topic: false, envelope: bytes, ...(ack ? { ack } : {}) },
            at_s,
          ),
        ),
      ),
    );
    for (const topic of placement.topics ?? []) {
      let list = this.topicSubscribers.get(topic);
      if (!list) {
        this.topicSubscribers.set(topic, (list = []));
        const recipient = topicRecipient(topic);
        this.subscribeOnBus(() =>
          this.options.transport.subscribe({ topic }, (bytes, subject, sender) =>
            this.fromBus(bytes, subject, sender, recipient, (from, msg, at_s, ack) => {
              // This process's own subscribers already had it from publish().
              if (this.hosted.has(from)) return;
              for (const s of list!) {
                // Counted here, once per receiver, as the simulator counts a topic message.
                this.tally.sent(msg.type, siteOf(from), s.placement.location, this.clock?.now_s());
                this.enqueue(
                  s,
                  msg,
                  from,
                  undefined,
                  { k: 'bus', topic: true, envelope: bytes, ...(ack ? { ack } : {}) },
                  at_s,
                );
              }
            }),
          ),
        );
      }
      list.push(h);
    }
  }

  /** Opens a subscription now, or at listen() if the actors do not hear the bus yet. */
  private subscribeOnBus(open: () => BusSubscription): void {
    if (this.listening) this.subscriptions.push(open());
    else this.unopened.push(open);
  }

  /**
   * A restart's actors hear the bus from now on (ready() then resolves once the bus has their
   * subscriptions). Until then what is sent to them is lost, or kept by its senders if durable, as
   * for a process that is down. resume() listens if this has not been called.
   */
  listen(): void {
    this.listening = true;
    for (const open of this.unopened.splice(0)) this.subscriptions.push(open());
  }

  /** Resolves once the bus has registered every subscription made so far. */
  async ready(): Promise<void> {
    await this.options.transport.flush();
  }

  /**
   * Starts the clock at `epoch_s` emulated seconds as of wall time `wallEpoch_ms`, then every actor.
   * The actors start at the epoch, as SimRuntime's do: this runs up to the start margin before it
   * (the clock reads earlier), and a period started here would otherwise be out of phase with the
   * simulation's, by a different amount in every process.
   */
  start(epoch_s: number, speedup: number, wallEpoch_ms = wallNow_ms()): void {
    if (this.recovery?.recovering === true)
      throw new Error('a recovering live runtime resumes from its journal; it does not start');
    this.startClock(epoch_s, speedup, wallEpoch_ms);
    this.mailboxes.start(() => {
      for (const h of this.hosted.values())
        this.guard(
          h,
          epoch_s,
          () => h.actor.start?.(h.ctx),
          (t) => ({ k: 'start', a: h.placement.address, t }),
        );
      this.journal?.commit();
    });
  }

  /**
   * A restarted process: replays its journal through its fresh actors unless replayJournal() has,
   * which brings back the state they had when the process was killed at emulated `crashed_s` (or,
   * if later, the last delivery the journal holds; -Infinity: not known), listens to the bus, then
   * starts the clock
   * the run started with and lets each actor `recover`, as SimRuntime does on a restart. Timers
   * still pending are armed again (those due while the process was down fire at once); a durable
   * message between its own actors that was sent and not delivered is delivered now, anything
   * else in flight inside the process died with it. Then what the bus brought meanwhile goes in.
   */
  async resume(
    epoch_s: number,
    speedup: number,
    wallEpoch_ms: number,
    crashed_s: number,
  ): Promise<{ batches: number; entries: number; died_s: number; resumed_s: number }> {
    const journal = this.journal;
    const recovery = this.recovery;
    if (!journal || !recovery || this.resumed)
      throw new Error('only a runtime made to recover, and only once, resumes from its journal');
    this.resumed = true;
    const replayed = await (this.replaying ?? this.replayJournal(speedup));
    this.listen();
    // What was sent before the crash and not acknowledged goes again now, before anything the
    // recovery says: a site's report that a run was lost should follow that run's start.
    this.resend(0);
    // The process died no earlier than the last delivery it stored.
    const died_s = Math.max(crashed_s, replayed.last_s, epoch_s);
    // An earlier life that died cut off from the bus was cut off until it died: this life's
    // connection is its own, and what reaches it did not cross that outage.
    this.busOutages.reconnected(died_s);
    this.startClock(epoch_s, speedup, wallEpoch_ms);
    // The process is back when the recovery's turn begins (its first actor recovers); resume()
    // resolves once that turn has run, with that time (a replay restarts the process then).
    const resumed_s = await new Promise<number>((resolve) =>
      this.mailboxes.start(() => {
        const back_s = this.now();
        try {
          this.recover(recovery, journal, epoch_s, died_s, back_s);
        } finally {
          // Said even if the recovery threw (a broken invariant is fatal already): resume() must end.
          resolve(back_s);
        }
      }),
    );
    return { batches: replayed.batches, entries: replayed.entries, died_s, resumed_s };
  }

  /** A restarted process's first turn (resume): its actors start if they never had, then recover. */
  private recover(
    recovery: LiveRecovery,
    journal: JournalWriter,
    epoch_s: number,
    died_s: number,
    resumed_s: number,
  ): void {
    // A process killed before its start turn was stored started for nobody: nothing that turn
    // sent left it (output waits for its batch). Its actors start now, at the epoch as start()
    // starts them, before they recover: else an actor whose start says hello to the world (an
    // external policy's first request) would never say it.
    for (const h of this.hosted.values())
      if (!recovery.startedInJournal(h.placement.address))
        this.guard(
          h,
          epoch_s,
          () => h.actor.start?.(h.ctx),
          (t) => ({ k: 'start', a: h.placement.address, t }),
        );
    // Journaled for every actor, a recover hook or none: a later restart's replay reads from it
    // when this one resumed, which tells the deliveries its crash held (LiveRecovery.feltOf).
    for (const h of this.hosted.values()) {
      const recover = h.actor.recover;
      this.guard(
        h,
        undefined,
        () => recover?.call(h.actor, h.ctx, died_s),
        (t) => ({ k: 'recover', a: h.placement.address, t, crashed_s: died_s }),
      );
    }
    const pending = recovery.takePending();
    for (const t of pending.timers) this.arm(t);
    const durable = this.options.reliable?.types;
    for (const [seq, m] of pending.locals) {
      if (durable === undefined || durable.has(m.msg.type))
        this.enqueue(m.h, m.msg, m.from, undefined, { k: 'local', seq });
      else this.tally.count('messages.lost_while_down');
    }
    journal.commit();
    recovery.restored(died_s, resumed_s);
  }

  /**
   * Replays the journal through the fresh actors, their actions going nowhere (LiveRecovery), with
   * no clock running and nothing heard from the bus: a restart does it while its crash's plan still
   * has it down, so that resume(), when due, has only to start the clock and rejoin. Replaying after
   * the due time put each restart of a 1,600-job run at 20,000x 0.1 to 0.9 wall s (2,000 to 18,000
   * emulated s) behind its plan (docs/faults.md). Once only; resume() replays if this was not called.
   * `speedup` is the run's, at which the felt delays of the replayed deliveries are recorded again.
   */
  replayJournal(speedup: number): Promise<ReplayCount> {
    const journal = this.journal;
    const recovery = this.recovery;
    if (!journal || !recovery || this.replaying || this.following === 'busy')
      return Promise.reject(new Error('only a runtime made to recover, and only once, replays its journal'));
    if (this.following === undefined) this.beginReplay(recovery, speedup);
    this.replaying = recovery.replay(journal, true).finally(() => (this.output = this.liveOutput));
    return this.replaying;
  }

  /**
   * A restart standing by while its predecessor still runs: replays what the predecessor's journal
   * gained since the last call (Journal.follow; nothing where the store cannot be followed), so
   * that, once the predecessor is dead and the journal taken over, replayJournal() has only the
   * last few batches to do. At 20,000x a replay of the whole journal after the take-over held the
   * chaos table's 2,000- to 4,000-s crashes down about 9,000 to 43,000 emulated s (docs/faults.md,
   * "Restarts are on time").
   * One call at a time, each awaited; none once replayJournal() is called.
   */
  async followJournal(speedup: number): Promise<ReplayCount> {
    const journal = this.journal;
    const recovery = this.recovery;
    if (!journal || !recovery || this.replaying || this.following === 'busy')
      throw new Error('only a runtime made to recover follows its journal, one call at a time, before its replay');
    if (this.following === undefined) this.beginReplay(recovery, speedup);
    this.following = 'busy';
    try {
      return await recovery.replay(journal, false);
    } finally {
      this.following = 'idle';
    }
  }

  private beginReplay(recovery: LiveRecovery, speedup: number): void {
    recovery.begin();
    this.output = recovery.output;
    this.replaySpeedup = speedup;
  }

  /**
   * A replayed delivery's felt delay, and its two parts when its entry kept its arrival, recorded
   * again as its first delivery recorded them (one held by a fault counted apart): else a crashed
   * process's report, and the network a replay of the run draws from, would hold its last life only.
   */
  private recordReplayedFelt(from: Address, to: Address, type: string, felt: ReplayedFelt, handled_s: number): void {
    if (felt.heldByCrash || this.heldByFault(from, to, felt.sent_s, handled_s)) this.tally.count('felt.held_by_fault');
    else {
      // Replayed only from replayJournal(), which sets the speed-up.
      const felt_s = Math.max(0, handled_s - felt.sent_s);
      this.recordFelt(from, to, type, felt.sent_s, felt.posted_s, felt_s, this.replaySpeedup!);
    }
  }

  private startClock(epoch_s: number, speedup: number, wallEpoch_ms: number): void {
    this.clock = new EmulatedClock(epoch_s, wallEpoch_ms, speedup);
    const reliable = this.options.reliable;
    if (reliable) this.outbox.startResending(reliable.resend_ms, (n) => this.countResent(n));
  }

  now(): number {
    if (!this.clock) throw new Error('the live runtime has not started');
    return this.clock.now_s();
  }

  /** Stops timers and subscriptions, and waits for messages already in mailboxes. */
  async stop(): Promise<void> {
    // Deaf to the connection from here on: it may be shared (a warm-up's runtimes run on the
    // process's connection) and outlive this runtime.
    for (const stopListening of this.busListeners.splice(0)) stopListening();
    this.outbox.stop();
    this.throttle?.clear();
    this.timers.clear();
    for (const s of this.subscriptions) s.unsubscribe();
    this.subscriptions.length = 0;
    await this.mailboxes.idle();
    this.answerFlush.flush();
    // What the last batches put on the bus goes out once they are stored.
    await this.journal?.stop();
    this.answerFlush.flush();
  }

  /**
   * How far this process runs behind the emulated clock: the lateness of the last timer it handled,
   * in emulated seconds. Growing, it says the speed-up is too high for the machine.
   */
  emulatedLag_s(): number {
    return this.clock ? this.meter.emulatedLag_s(this.clock.speedup) : 0;
  }

  /** Messages this process sent (and topic messages it received) per emulated hour. */
  messagesPerHour(): Map<number, number> {
    return this.tally.messagesPerHour();
  }

  /** Every value the actors observed (jobs.wait_s, …), in order, by name. */
  get observations(): ReadonlyMap<string, readonly number[]> {
    return this.tally.observations;
  }

  /** Each gauge the actors set (jobs.queued, processors.busy, …), summed over this process's actors. */
  gauges(): Map<string, number> {
    return this.tally.gauges();
  }

  /** Messages and timers handed to actors so far. */
  get deliveries(): number {
    return this.delivered;
  }

  private toBus(
    target: { actor: Address } | { topic: string },
    from: Address,
    to: string,
    msg: Message,
    sentAt_s?: number,
  ): void {
    const sent_ms = wallNow_ms();
    const at_s = sentAt_s ?? (this.clock ? this.actorNow(from) : undefined);
    // A durable message (to one actor) carries its number on its link, which the receiver
    // acknowledges. Numbered in send order, during a replay too, so a restart numbers on from where it was.
    const link =
      'actor' in target && this.options.reliable?.types.has(msg.type) === true ? linkOf(from, target.actor) : undefined;
    const durable = link === undefined ? undefined : { link, n: this.outbox.nextOnLink(link) };
    this.output.bus(target, from, durable, () =>
      encodeEnvelope(
        durable === undefined
          ? { run: this.run, from, to, msg, sent_ms, at_s }
          : { run: this.run, from, to, msg, sent_ms, at_s, lseq: durable.n },
      ),
    );
  }

  /** A message to an actor of this process. */
  private toLocal(h: HostedActor, msg: Message, from: Address): void {
    const seq = this.nextLocalSeq++;
    // While a journal is replayed no clock runs, but the sender's actor time is the one it had.
    const sent_s = this.clock ? this.actorNow(from) : this.hosted.get(from)?.now_s;
    this.output.local(seq, { h, msg, from }, sent_s !== undefined && Number.isFinite(sent_s) ? sent_s : undefined);
  }

  /**
   * Listens to the connection being lost or made again, until stop(). A warm-up's runtimes,
   * stopped, once went on listening to the connection they shared with the run: at the run's
   * server restart each journaled the edge through its closed file journal, whose descriptor the
   * run's journal had reused, so the run's journal held batches not its own, and a restart's replay
   * skipped the turn whose number one of them had taken (gridemu fuzz --live, seed 12).
   */
  private onBus(event: 'disconnect' | 'reconnect', listener: () => void): void {
    const transport = this.options.transport;
    const stopListening =
      event === 'disconnect' ? transport.onDisconnect?.(listener) : transport.onReconnect?.(listener);
    if (stopListening) this.busListeners.push(stopListening);
  }

  private arm(t: PendingTimer): void {
    this.timerHandles.set(t.rid, this.timers.set(this.clock!.wall_ms(t.due_s), t));
  }

  /** Puts something on the bus: now, or with a journal once the batch that caused it is stored. */
  private emit(publish: () => void): void {
    if (this.journal) this.journal.emit(publish);
    else publish();
  }

  /**
   * Journals an edge of this process's connection to the bus, stored with the next append (one of
   * its own within 10 ms if no turn makes one): a restart reads its earlier lives' outages back
   * (LiveRecovery), so that what crossed one is again the fault's, not its link's, and the run's
   * outages (network.json) keep them. A crash within those 10 ms loses the edge.
   */
  private journalBusEdge(edge: 'cut' | 'back', at_s: number): void {
    if (!this.journal) return;
    this.journal.record({ k: 'bus_outage', edge, at_s });
    this.journal.queueCommit();
  }

  /** Resends at once what `location` has not acknowledged: it has just rejoined the run after a crash. */
  resendTo(location: string): void {
    if (this.options.reliable) this.countResent(this.outbox.resendTo(location));
  }

  /** Resends what has waited over `after_ms` for its acknowledgement. */
  private resend(after_ms: number): void {
    this.countResent(this.outbox.resend(after_ms));
  }

  private countResent(n: number): void {
    if (n > 0) this.tally.count('bus.resent', n);
    const unanswered = this.outbox.takeResentUnanswered();
    if (unanswered > 0) this.tally.count('bus.resent_unanswered', unanswered);
  }

  /** Acknowledgements for the durable messages this process's actors at `location` sent. */
  private listenForAcks(location: string): void {
    if (this.runtimeAddresses.has(location)) return;
    this.runtimeAddresses.add(location);
    const address = runtimeAddress(location);
    this.subscribeOnBus(() =>
      this.options.transport.subscribe({ actor: address }, (bytes, subject, sender) =>
        this.fromBus(bytes, subject, sender, address, (from, msg) => {
          if (msg.type !== MessageType.BusAck) return;
          const receiver = senderOf(from);
          // The link the answer is about: from here to the location that answers.
          const link = `${location}>${receiver}`;
          this.countResent(this.outbox.heardFrom(receiver, msg.boot));
          if (msg.received !== undefined) this.outbox.receipts(link, receiver, msg.received, msg.more === true);
          if (msg.upto !== undefined) {
            // Recorded with the next append, so a restart does not resend them (JournalWriter.recordAck).
            if (this.outbox.acknowledged(link, msg.upto) > 0) this.journal?.recordAck(link, msg.upto);
            this.outbox.answerEnded(receiver, false);
          }
        }),
      ),
    );
  }

  /** Decodes and checks what the bus brought for `recipient`; anything wrong is counted and dropped. */
  private fromBus(bytes: Uint8Array, subject: string, sender: string, recipient: string, accept: AcceptFromBus): void {
    // Judged after the replay, which rebuilds what was delivered already.
    if (this.recovery?.hold(() => this.fromBus(bytes, subject, sender, recipient, accept))) return;
    const decoded = decodeEnvelope(bytes, this.run, this.options.check);
    if (!decoded.ok || decoded.envelope.to !== recipient) {
      this.malformed(
        subject,
        decoded.ok ? `addressed to ${decoded.envelope.to}, received as ${recipient}` : decoded.reason,
        bytes.byteLength,
      );
      return;
    }
    const { msg, from, sent_ms, at_s, lseq } = decoded.envelope;
    if (senderOf(from) !== sender) {
      // A forged sender: the bus says who published it, and it is not who the envelope claims.
      this.tally.count('messages.forged_sender');
      if (this.malformedLogged++ < MALFORMED_LOG_LIMIT)
        this.options.log.warn(
          { subject, claimed: from, sender, type: msg.type },
          'dropped a message whose sender does not match its subject',
        );
      return;
    }
    if (sent_ms !== undefined) this.recordLatency(from, recipient, wallNow_ms() - sent_ms);
    if (lseq === undefined) return accept(from, msg, at_s, undefined);
    // A durable message: answer every copy, deliver the first (a resend must do no harm).
    const here = senderOf(recipient);
    const link = linkOf(from, recipient);
    if (this.linkOrder.passed(link, lseq)) {
      this.tally.count('bus.duplicates');
      // Stored already: acknowledged again (cumulatively). Else its delivery is not yet recorded,
      // and its acknowledgement will answer this copy too; meanwhile the sender hears again that it arrived.
      if (lseq <= this.storedThrough.through(link)) this.acknowledge(here, sender, this.storedThrough.through(link));
      else this.receipt(here, sender, lseq);
      return;
    }
    const deliver = () => this.deliverDurable(here, from, link, lseq, msg, at_s, accept);
    // In its link's order: one that overtook an earlier one waits for it (LinkOrder).
    const order = this.linkOrder.admit(link, lseq, deliver);
    if (order === 'held') {
      this.tally.count('bus.held_for_order');
      // Arrived, not delivered: a journaled receiver says so, so it is not resent while it waits
      // (it goes again if this process restarts); without a journal it is acknowledged once delivered.
      if (this.journal) this.receipt(here, sender, lseq);
    } else if (order === 'passed') {
      this.fail(new Error(`assertion: durable message ${lseq} of link ${link} was delivered twice`), recipient);
    }
  }

  /**
   * Delivers a durable message's first copy (in its link's order), and acknowledges it: without a
   * journal at once, with one once every delivery it makes is recorded (OwedAck) and then that
   * batch is stored (acknowledge). The sender hears at once that it arrived, so it does not resend
   * it while it waits behind this process's backlog.
   */
  private deliverDurable(
    here: string,
    from: Address,
    link: string,
    lseq: number,
    msg: Message,
    at_s: number | undefined,
    accept: AcceptFromBus,
  ): void {
    const sender = senderOf(from);
    const settle = () => {
      const through = this.storedThrough.settled(link, lseq);
      if (through !== undefined) this.acknowledge(here, sender, through);
    };
    if (!this.journal) {
      accept(from, msg, at_s, undefined);
      settle();
      return;
    }
    this.receipt(here, sender, lseq);
    const owed = owedAck(settle);
    accept(from, msg, at_s, owed);
    settleOwed(owed);
  }

  /**
   * Acknowledges to `sender` every durable message of its link to `here` numbered up to `upto`:
   * with a journal once the append that stores their deliveries is stored (one answer per append
   * and link, AckBatches), without one at once; then in one `bus.ack` per link every ANSWERS_EVERY_MS.
   */
  private acknowledge(here: string, sender: string, upto: number): void {
    const journal = this.journal;
    if (!journal) return this.owe(here, sender, upto);
    let batches = this.ackBatches.get(here);
    if (batches === undefined) {
      batches = new AckBatches(
        () => journal.outputBatch,
        () => ({ upto: 0 }),
        (to, answer) => journal.emit(() => this.owe(here, to, answer.upto)),
      );
      this.ackBatches.set(here, batches);
    }
    batches.add(sender, (answer) => (answer.upto = Math.max(answer.upto, upto)));
  }

  /**
   * `here` may acknowledge `sender`'s link up to `upto`: it goes with the next flush, even a
   * number said before (the copy that asks again may be answering a lost acknowledgement).
   */
  private owe(here: string, sender: string, upto: number): void {
    this.answers.owe(here, sender, upto);
    this.queueAnswers();
  }

  /**
   * Tells `sender` that `here` has its durable message `lseq`, not yet stored (a journaled
   * process), with the others gathered until the next flush, unless an acknowledgement has said
   * it by then (AnswersDue).
   */
  private receipt(here: string, sender: string, lseq: number): void {
    this.answers.received(here, sender, lseq);
    this.queueAnswers();
  }

  /** Says what is due every ANSWERS_EVERY_MS: to each location, in one turn, so in one NATS message. */
  private queueAnswers(): void {
    if (this.answersQueued) return;
    this.answersQueued = true;
    this.answerFlush.later(() => {
      this.answersQueued = false;
      for (const a of this.answers.take()) {
        if (a.upto !== undefined) this.tally.count('bus.acks_sent');
        if (a.received !== undefined && a.received.length > 0) this.tally.count('bus.receipts_sent');
        this.answer(a.at, a.to, {
          type: MessageType.BusAck,
          ...(a.upto !== undefined ? { upto: a.upto } : {}),
          ...(a.received !== undefined ? { received: a.received } : {}),
          ...(a.more ? { more: true } : {}),
          boot: this.boot,
        });
      }
    });
  }

  /** Publishes `msg` from `here`'s runtime to `to`'s. */
  private answer(here: string, to: string, msg: Message): void {
    const me = runtimeAddress(here);
    const them = runtimeAddress(to);
    this.options.transport.publish({ actor: them }, me, encodeEnvelope({ run: this.run, from: me, to: them, msg }));
  }

  private countReceived(type: string): void {
    this.received.set(type, (this.received.get(type) ?? 0) + 1);
  }

  /** Queues a delivery in the actor's mailbox; a timer passes its due time as `at_s`. */
  private enqueue(
    h: HostedActor,
    msg: Message,
    from: Address,
    at_s: number | undefined,
    src: DeliverySource,
    sent_s?: number,
  ): void {
    if (src.k === 'bus' && src.ack) src.ack.owed++;
    // When a message from another process reached the mailbox: a timer firing later waits behind it.
    const posted_s = src.k === 'bus' && sent_s !== undefined && this.clock ? this.now() : undefined;
    this.mailboxes.post(
      h.inbox,
      sent_s === undefined
        ? { msg, from, at_s, src }
        : posted_s === undefined
          ? { msg, from, at_s, src, sent_s }
          : { msg, from, at_s, src, sent_s, posted_s },
    );
  }

  /**
   * Runs one delivery with the actor's clock set once. The clock used to be read afresh
   * at every ctx.now(): the executor scheduled a job's end from one read and recorded its start and
   * end from later ones, and a pause of a fraction of a millisecond inside the handler (a GC, at
   * speed-up 100,000 tens of emulated seconds) made the record say the job ended later than the
   * timer that freed its processors, so the next job on them overlapped it in jobs.csv. Now every
   * read inside a handler gives the same time, a timer is handled at the time it was due (its lag
   * shows in wall time, not in the schedule), and an actor's clock never goes back.
   */
  private guard(h: HostedActor, at_s: number | undefined, fn: () => void, entry: (t: number) => JournalEntry): void {
    if (this.fatal) return;
    h.now_s = Math.max(h.now_s, at_s ?? this.now());
    this.journal?.record(entry(h.now_s));
    const onHandled = this.options.onHandled;
    const t0 = onHandled ? performance.now() : 0;
    try {
      fn();
      if (onHandled) onHandled(h.role, (performance.now() - t0) / 1000);
    } catch (err) {
      this.tally.count('actor.errors');
      this.fail(err instanceof Error ? err : new Error(String(err)), h.placement.address);
    }
  }

  /**
   * Held by this process's crash, by its being cut off from the bus while the message was on its
   * way (between processes), or across a fault the experiment names (heldByFault).
   */
  private heldByFault(from: Address, to: Address, sent_s: number, handled_s: number): boolean {
    if (this.recovery?.heldByCrash(sent_s) === true) return true;
    // Asked first: with no outage it is one check, and the lookup below is made only in one.
    if (this.busOutages.crossed(sent_s, handled_s) && !this.hosted.has(from)) return true;
    const held = this.options.heldByFault;
    // Without partitions nothing is asked per delivery (the message path stays as it was).
    return held !== undefined && held(senderOf(from), senderOf(to), sent_s, handled_s);
  }

  /** When this process was cut off from the bus while its clock ran, emulated seconds (one still open ends now). */
  outageSpans(): OutageSpan[] {
    return this.busOutages.spans(this.clock?.now_s() ?? Number.NEGATIVE_INFINITY);
  }

  private superseded(e: Error): void {
    if (this.fatal) return;
    this.fatal = true;
    this.tally.count('journal.superseded');
    this.options.log.warn(
      { err: e.message },
      'a newer incarnation of this process holds the journal: stopping this one',
    );
    if (this.options.onSuperseded) this.options.onSuperseded(e);
    else this.options.onFatal?.(e);
  }

  private fail(e: Error, where: string): void {
    if (this.fatal) return;
    this.fatal = true;
    this.options.log.error({ address: where, err: e.message }, 'actor failed: stopping this process');
    this.options.onFatal?.(e);
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
    this.meter.recordLatency(a, b, ms);
    this.options.onLatency?.(a, ms / 1000);
  }

  /**
   * The delay a delivery's schedule felt, from the sender's actor time to the receiver's handling
   * time (hop, timer lag, encoding, queues), in wall ms per link between the two actors' locations
   * (`driver` for the driver; a location to itself too), and per message type on each link
   * (LinkMeter.recordDelivery). One from another process (`posted_s`: when it reached the
   * mailbox) also in its two parts, which add up to it (a clock read before the epoch cannot split
   * it otherwise). `simulate --network-from` replays them.
   */
  private recordFelt(
    from: Address,
    to: Address,
    type: string,
    sent_s: number,
    posted_s: number | undefined,
    felt_s: number,
    speedup: number,
  ): void {
    const arrived_s = posted_s === undefined ? undefined : Math.min(felt_s, Math.max(0, posted_s - sent_s));
    this.meter.recordDelivery(senderOf(from), senderOf(to), type, sent_s, felt_s, arrived_s, speedup);
  }

  /**
   * A timer of `h`, due at `due_s`, fired into its mailbox at `fired_s` (the run's clock), live or
   * read again from the journal. One due before its process resumed from a crash fired late by
   * the crash, which a replay of the run applies itself: counted apart (`timers.held_by_crash`),
   * not in the location's timer timeline, whose window then held nothing but the downtime (on the
   * K = 4 chaos spec two such timers made a site's every timer in the 10,000 s before its crash
   * fire 7,600 emulated s late in the replays, and its jobs run past the crash and be lost).
   */
  private recordTimerFired(
    h: HostedActor,
    due_s: number,
    fired_s: number,
    speedup: number,
    heldByCrash: boolean,
  ): void {
    if (heldByCrash) this.tally.count('timers.held_by_crash');
    else
      this.meter.recordTimerFireLag(
        (Math.max(0, fired_s - due_s) / speedup) * 1000,
        senderOf(h.placement.address),
        due_s,
        speedup,
      );
  }

  /** The same timer handled by its actor at `handled_s`: its lateness against the messages racing it. */
  private recordTimerHandled(due_s: number, handled_s: number, speedup: number, heldByCrash: boolean): void {
    if (!heldByCrash) this.meter.recordTimerLag((Math.max(0, handled_s - due_s) / speedup) * 1000);
  }

  private malformed(subject: string, reason: string, bytes: number): void {
    this.tally.count('messages.malformed');
    if (this.malformedLogged++ < MALFORMED_LOG_LIMIT)
      this.options.log.warn({ subject, reason, bytes }, 'dropped a malformed message');
  }
}
