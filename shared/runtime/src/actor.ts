import type { Address } from '@gridemu/protocol';
import type { Rng } from './rng.js';

export type TimerId = number;

/** What an actor may do: everything that touches time, randomness or the outside world goes here. */
export interface ActorContext<M extends { readonly type: string }> {
  readonly self: Address;
  /** The grid site this actor belongs to, or undefined for run-wide actors (the driver). */
  readonly site: string | undefined;
  /** Emulated seconds. */
  now(): number;
  /** Sends a message; between two sites it arrives after the link's latency. */
  send(to: Address, msg: M): void;
  /** Delivers `msg` back to this actor after `delay_s` emulated seconds. */
  schedule(delay_s: number, msg: M): TimerId;
  cancel(timer: TimerId): void;
  readonly rng: Rng;
  readonly log: Logger;
  readonly metrics: MetricsSink;
}

/** A state machine that handles one message at a time. */
export interface Actor<M extends { readonly type: string }> {
  start?(ctx: ActorContext<M>): void;
  receive(ctx: ActorContext<M>, msg: M): void;
}

export interface Logger {
  debug(fields: Record<string, unknown>, msg: string): void;
  info(fields: Record<string, unknown>, msg: string): void;
  warn(fields: Record<string, unknown>, msg: string): void;
  error(fields: Record<string, unknown>, msg: string): void;
}

/** Counters actors bump; the runtime decides where they go (summary.json, Prometheus). */
export interface MetricsSink {
  count(name: string, by?: number): void;
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** A logger that adds `fields` (run, site, actor) to every line it writes. */
export function withFields(log: Logger, fields: Record<string, unknown>): Logger {
  return {
    debug: (f, m) => log.debug({ ...fields, ...f }, m),
    info: (f, m) => log.info({ ...fields, ...f }, m),
    warn: (f, m) => log.warn({ ...fields, ...f }, m),
    error: (f, m) => log.error({ ...fields, ...f }, m),
  };
}
