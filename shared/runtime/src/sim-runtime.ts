import type { Address } from '@gridemu/protocol';
import type { Actor, ActorContext, Logger, TimerId } from './actor.js';
import { silentLogger } from './actor.js';
import { EventHeap } from './event-heap.js';
import { LinkModel } from './network.js';
import { Rng } from './rng.js';
import { RunCounters } from './run-counters.js';
import type { NetworkSpec } from '@gridemu/model';

interface Delivery<M> {
  readonly time: number;
  readonly seq: number;
  readonly to: Address;
  readonly msg: M;
  /** Set for timers, so a cancelled timer is skipped when it comes up. */
  readonly timer?: TimerId;
}

interface Registered<M extends { readonly type: string }> {
  readonly actor: Actor<M>;
  readonly ctx: ActorContext<M>;
}

export interface SimRuntimeOptions {
  readonly seed: number;
  readonly network: NetworkSpec;
  readonly log?: Logger;
  readonly faults?: SimFaults;
}

/** Faults the simulator injects on purpose, for scenario tests (STYLE.md 8). */
export interface SimFaults {
  /** Messages for which this returns true are lost on the wire (counted as `messages.dropped`). */
  readonly drop?: (from: Address, to: Address, msg: { readonly type: string }) => boolean;
}

/**
 * The deterministic single-process runtime: a virtual clock and an agenda ordered by
 * (time, sequence). Same actors, seed and inputs give the same sequence of deliveries.
 */
export class SimRuntime<M extends { readonly type: string }> {
  private readonly agenda = new EventHeap<Delivery<M>>();
  private readonly actors = new Map<Address, Registered<M>>();
  private readonly cancelled = new Set<TimerId>();
  private readonly links: LinkModel;
  private readonly networkRng: Rng;
  private readonly rootRng: Rng;
  private readonly log: Logger;
  private readonly faults: SimFaults;
  private clock = 0;
  private seq = 0;
  private nextTimer = 1;
  private delivered = 0;
  private readonly tally = new RunCounters();
  /** Messages sent, by type; `crossSite` only those that crossed a link between two sites. */
  readonly messages = this.tally.messages;
  /** Counters bumped by actors through ctx.metrics. */
  readonly counters = this.tally.counters;

  constructor(options: SimRuntimeOptions) {
    this.rootRng = new Rng(options.seed);
    this.networkRng = this.rootRng.fork('network');
    this.links = new LinkModel(options.network);
    this.log = options.log ?? silentLogger;
    this.faults = options.faults ?? {};
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

  spawn(address: Address, site: string | undefined, actor: Actor<M>): void {
    if (this.actors.has(address)) throw new Error(`actor ${address} already exists`);
    const ctx = this.makeContext(address, site);
    this.actors.set(address, { actor, ctx });
  }

  /** Calls every actor's start hook, in spawn order. */
  start(): void {
    for (const { actor, ctx } of this.actors.values()) actor.start?.(ctx);
  }

  /**
   * Delivers messages until none are left, `maxDeliveries` have been made, or `stop()` says so
   * (checked after each delivery); returns whether any are left.
   */
  step(maxDeliveries = Number.POSITIVE_INFINITY, stop?: () => boolean): boolean {
    let n = 0;
    while (n < maxDeliveries && !(stop?.() ?? false)) {
      const d = this.agenda.pop();
      if (d === undefined) return false;
      if (d.timer !== undefined && this.cancelled.delete(d.timer)) continue;
      this.clock = d.time;
      const target = this.actors.get(d.to);
      if (!target) throw new Error(`message ${d.msg.type} to unknown actor ${d.to} at t=${d.time}`);
      target.actor.receive(target.ctx, d.msg);
      this.delivered++;
      n++;
    }
    return this.agenda.size > 0;
  }

  run(): void {
    this.step();
  }

  private enqueue(time: number, to: Address, msg: M, timer?: TimerId): void {
    this.agenda.push(timer === undefined ? { time, seq: this.seq++, to, msg } : { time, seq: this.seq++, to, msg, timer });
  }

  private makeContext(self: Address, site: string | undefined): ActorContext<M> {
    return {
      self,
      site,
      now: () => this.clock,
      send: (to, msg) => {
        const target = this.actors.get(to);
        if (!target) throw new Error(`${self} sent ${msg.type} to unknown actor ${to}`);
        const delay = this.links.delay_s(site, target.ctx.site, this.networkRng);
        this.tally.sent(msg.type, site, target.ctx.site);
        if (this.faults.drop?.(self, to, msg)) {
          this.tally.count('messages.dropped');
          return;
        }
        this.enqueue(this.clock + delay, to, msg);
      },
      schedule: (delay_s, msg) => {
        if (!(delay_s >= 0)) throw new Error(`${self} scheduled ${msg.type} with delay ${delay_s}`);
        const id = this.nextTimer++;
        this.enqueue(this.clock + delay_s, self, msg, id);
        return id;
      },
      cancel: (timer) => {
        this.cancelled.add(timer);
      },
      rng: this.rootRng.fork(self),
      log: this.log,
      metrics: this.tally.sink,
    };
  }
}
