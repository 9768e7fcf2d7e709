import type { Address } from '@gridemu/protocol';
import type { Rng } from './rng.js';

export type TimerId = number;

/** What an actor may do: everything that touches time, randomness or the outside world goes here. */
export interface ActorContext<M extends { readonly type: string }> {
  readonly self: Address;
  /**
   * Where this actor is placed (its ActorPlacement): a site id, `central`, a scheme's own service,
   * or undefined for run-wide actors (the driver), which sit next to every location.
   */
  readonly location: string | undefined;
  /** Emulated seconds: the time of the delivery being handled, the same at every read inside it. */
  now(): number;
  /** Sends a message; between two locations it arrives after the link's latency. */
  send(to: Address, msg: M): void;
  /**
   * One message for every actor subscribed to `topic` (placement's `topics`), each after the
   * latency of its own link: load reports, monitor reports, availability samples.
   */
  publish(topic: string, msg: M): void;
  /** Delivers `msg` back to this actor after `delay_s` emulated seconds. */
  schedule(delay_s: number, msg: M): TimerId;
  cancel(timer: TimerId): void;
  readonly rng: Rng;
  readonly log: Logger;
  readonly metrics: MetricsSink;
  /**
   * Records one protocol step of one job (a claim sent, granted, denied, timed out, a copy
   * cancelled) at this actor's time and location, for the run's `protocol-trace.csv` (per-job
   * traces of a protocol, in both modes). Absent unless the experiment asks for traces
   * (`protocol_trace: true`), so an actor calls it as `ctx.trace?.(…)` and builds no detail otherwise.
   */
  readonly trace?: JobTracer;
}

/** `event` names the step (`claim.sent`); `detail` says the rest in a few `key=value` words. */
export type JobTracer = (jobId: string, event: string, detail?: string) => void;

/** One line of `protocol-trace.csv`: a protocol step of a job, where and when (emulated seconds) it happened. */
export interface TraceRecord {
  readonly time_s: number;
  readonly job_id: string;
  readonly location: string;
  readonly event: string;
  readonly detail: string;
}

/** A state machine that handles one message at a time. */
export interface Actor<M extends { readonly type: string }> {
  start?(ctx: ActorContext<M>): void;
  /** `from` is the sender's address (the actor itself for its timers), so a reply goes to whoever asked. */
  receive(ctx: ActorContext<M>, msg: M, from: Address): void;
  /**
   * The process hosting this actor crashed at `crashed_s` and has come back. What the
   * actor keeps is its durable state; here it gives up what lived only in the process, such as the
   * jobs running on its processors. Timers and durable messages due while it was down come after.
   */
  recover?(ctx: ActorContext<M>, crashed_s: number): void;
}

/** One actor and where a plan puts it; both runtimes spawn these. */
export interface ActorPlacement<M extends { readonly type: string }> {
  readonly address: Address;
  /** The location hosting it (a site id, `central`, a scheme's service), or undefined for run-wide actors. */
  readonly location: string | undefined;
  readonly actor: Actor<M>;
  /** Topics it hears (ctx.publish). */
  readonly topics?: readonly string[];
}

export interface Logger {
  debug(fields: Record<string, unknown>, msg: string): void;
  info(fields: Record<string, unknown>, msg: string): void;
  warn(fields: Record<string, unknown>, msg: string): void;
  error(fields: Record<string, unknown>, msg: string): void;
  /**
   * Writes out what is buffered, now. A journaled process calls it once a stored turn's lines are
   * logged, so its log is as durable as its journal: a SIGKILL cannot take lines of a turn
   * whose messages the rest of the run may already have.
   */
  flush?(): void;
  /**
   * Writes one log line already formatted as JSON (without its newline) as it is: no level, no
   * added fields. For lines so frequent that formatting them as fields costs the run, the
   * protocol trace's (docs/usage.md).
   */
  line?(json: string): void;
}

/** Counters actors bump; the runtime decides where they go (summary.json, Prometheus). */
export interface MetricsSink {
  count(name: string, by?: number): void;
  /** The current value of something the actor keeps (a queue's length): a gauge. */
  set(name: string, value: number): void;
  /** One observation of a distribution (a job's wait): a histogram. */
  observe(name: string, value: number): void;
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * A logger whose every line is written out at once (Logger.flush), for a process's few lines of
 * its own (its start, its replay, its rejoin): a SIGKILL a moment later must not take them. The
 * actors' lines, thousands a second, stay buffered (or wait for their turn's append).
 */
export function flushedEachLine(log: Logger): Logger {
  const now = (write: () => void) => {
    write();
    log.flush?.();
  };
  return {
    debug: (f, m) => now(() => log.debug(f, m)),
    info: (f, m) => now(() => log.info(f, m)),
    warn: (f, m) => now(() => log.warn(f, m)),
    error: (f, m) => now(() => log.error(f, m)),
    ...(log.flush ? { flush: () => log.flush!() } : {}),
  };
}

/**
 * A logger that adds `fields` (run, site, actor) to every line it writes, before the line's own
 * (which win on a clash). Object.assign, not a spread: spreading the caller's object, whose shape
 * differs from line to line, took 5 µs a line against 0.5 (Node 20), and a live site logs every
 * job it starts.
 */
export function withFields(log: Logger, fields: Record<string, unknown>): Logger {
  const lineOf = (f: Record<string, unknown>) => Object.assign({}, fields, f);
  return {
    debug: (f, m) => log.debug(lineOf(f), m),
    info: (f, m) => log.info(lineOf(f), m),
    warn: (f, m) => log.warn(lineOf(f), m),
    error: (f, m) => log.error(lineOf(f), m),
    ...(log.flush ? { flush: () => log.flush!() } : {}),
    ...(log.line ? { line: (json: string) => log.line!(json) } : {}),
  };
}
