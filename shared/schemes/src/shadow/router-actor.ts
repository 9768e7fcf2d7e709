import type { Job } from '@gridemu/model';
import { DRIVER, MessageType, type Message } from '@gridemu/protocol';
import type { Actor, ActorContext } from '@gridemu/runtime';
import { estimatedLength, type ErrorModel } from './estimates.js';
import { InPort, OutPort } from './link-port.js';
import type { RouterScheme } from './names.js';
import { resourceAddress } from './names.js';
import { ShadowRouting } from './shadow-routing.js';
import { taskData, type TaskDataSpec } from './task-data.js';

export interface RouterOptions {
  readonly scheme: RouterScheme;
  readonly sites: readonly string[];
  /** Estimated rates μ̂, in site order. */
  readonly muHat: readonly number[];
  readonly eta: number;
  readonly errors: ErrorModel;
  readonly seed: number;
  readonly link_mbps: number;
  readonly state_message_bytes: number;
  readonly data: TaskDataSpec;
  readonly query_timeout_s: number;
  /** `shadow-classes`: each task class's length, ascending. */
  readonly class_lengths_s: readonly number[];
  /** Per site, in site order: the periods it is away, [leave, join), sorted. */
  readonly away: readonly (readonly (readonly [number, number])[])[];
}

interface Round {
  readonly id: number;
  readonly job: Job;
  readonly Lhat: number;
  readonly answers: Map<string, number>;
  /** Answers the round waits for: one from each resource present when it asked. */
  readonly expected: number;
  /** When the last answer so far is through the link into the scheduler. */
  in_s: number;
  timedOut: boolean;
}

/**
 * The grid scheduler of paper 004. Every arriving task is routed to one resource:
 * - `shadow` (Figure 1) from its virtual queues alone: no message but the task;
 * - `shadow-classes`, the class-based Shadow Routing §3.2 starts from, the same way (shadow-routing.ts);
 * - `mct` asks every resource when the task would complete there, and picks the earliest;
 * - `jsq` asks every resource how many tasks it holds, and picks the fewest (ties: the fastest estimate).
 * MCT and JSQ* decide one task at a time, after every answer (or the timeout). The scheduler's
 * link (§4: 10 Mbps) carries one message at a time each way: queries and task inputs out, answers
 * and task outputs in. Each resource's own link does the same on its side (resource-actor.ts). So
 * the state a decision needs costs time as well as latency, and waits behind the tasks' data.
 */
export class RouterActor implements Actor<Message> {
  private readonly shadow?: ShadowRouting;
  private readonly waiting: { job: Job; Lhat: number }[] = [];
  private round?: Round;
  private rounds = 0;
  private readonly out: OutPort;
  private readonly in: InPort;
  /** Whether any resource is ever away: without, routing never looks at the schedule. */
  private readonly anyAway: boolean;

  constructor(private readonly o: RouterOptions) {
    if (o.scheme === 'shadow') this.shadow = new ShadowRouting(o.muHat, o.eta);
    if (o.scheme === 'shadow-classes') this.shadow = new ShadowRouting(o.muHat, o.eta, o.class_lengths_s);
    this.out = new OutPort(o.link_mbps);
    this.in = new InPort(o.link_mbps);
    this.anyAway = o.away.some((periods) => periods.length > 0);
  }

  receive(ctx: ActorContext<Message>, msg: Message): void {
    switch (msg.type) {
      case MessageType.JobSubmit: {
        const Lhat = estimatedLength(msg.job.run_s, msg.job.id, this.o.errors, this.o.seed);
        if (this.shadow) {
          this.syncShadow(ctx.now());
          const before = this.shadow.normalizations;
          const r = this.shadow.route(Lhat);
          if (this.shadow.normalizations > before) ctx.metrics.count('routing.normalizations');
          this.dispatch(ctx, msg.job, Lhat, r);
          return;
        }
        this.waiting.push({ job: msg.job, Lhat });
        if (!this.round) this.nextRound(ctx);
        return;
      }
      case 'sr.answer': {
        const round = this.round;
        if (!round || msg.queryId !== round.id) {
          ctx.metrics.count('routing.late_answers');
          return;
        }
        ctx.metrics.count('routing.state_messages');
        // In through the scheduler's link, one message after another.
        round.in_s = this.in.receive(ctx.now(), this.o.state_message_bytes);
        round.answers.set(msg.site, msg.value);
        if (round.answers.size === round.expected) this.decideAt(ctx, round);
        return;
      }
      case 'timer.sr-timeout':
        if (this.round?.id === msg.round) {
          ctx.metrics.count('routing.timeouts');
          this.round.timedOut = true;
          this.decideAt(ctx, this.round);
        }
        return;
      case 'timer.sr-decide':
        if (this.round?.id === msg.round) this.decide(ctx, this.round);
        return;
      case 'timer.sr-send':
        return this.out.sent(ctx, msg.slot);
      case 'sr.output': {
        // The user has the result when the output is in through the scheduler's link: that wait,
        // after the task's end, is part of its flowtime (summary.ts).
        const in_s = this.in.receive(ctx.now(), msg.bytes);
        ctx.metrics.count('routing.outputs');
        ctx.metrics.count('routing.output_return_s', in_s - msg.ended_s);
        // The task's completion, with the end of its run as its finish: reported once its output is
        // here, so the run does not end while an output is still on its way.
        ctx.send(DRIVER, { type: MessageType.JobCompleted, jobId: msg.jobId, site: msg.site, time_s: msg.ended_s });
        return;
      }
      default:
        ctx.log.warn({ type: msg.type }, 'router ignored an unexpected message');
        ctx.metrics.count('messages.unexpected');
    }
  }

  private nextRound(ctx: ActorContext<Message>): void {
    const next = this.waiting.shift();
    if (!next) {
      this.round = undefined;
      return;
    }
    const present = this.present(ctx.now());
    const round: Round = {
      id: ++this.rounds,
      job: next.job,
      Lhat: next.Lhat,
      answers: new Map(),
      expected: present.length,
      in_s: ctx.now(),
      timedOut: false,
    };
    this.round = round;
    const kind = this.o.scheme === 'mct' ? 'completion' : 'queue';
    for (const r of present) {
      const site = this.o.sites[r]!;
      ctx.metrics.count('routing.state_messages');
      this.out.send(
        ctx,
        resourceAddress(site),
        { type: 'sr.query', queryId: round.id, kind, Lhat: next.Lhat },
        this.o.state_message_bytes,
      );
    }
    ctx.schedule(this.o.query_timeout_s, { type: 'timer.sr-timeout', round: round.id });
  }

  private decideAt(ctx: ActorContext<Message>, round: Round): void {
    if (round.in_s > ctx.now()) ctx.schedule(round.in_s - ctx.now(), { type: 'timer.sr-decide', round: round.id });
    else this.decide(ctx, round);
  }

  /** The earliest completion (MCT) or the fewest tasks (JSQ*, ties to the fastest estimated rate); without answers, the fastest. */
  private decide(ctx: ActorContext<Message>, round: Round): void {
    let best = -1;
    for (let r = 0; r < this.o.sites.length; r++) {
      const v = round.answers.get(this.o.sites[r]!);
      if (v === undefined) continue;
      if (best < 0) {
        best = r;
        continue;
      }
      const bv = round.answers.get(this.o.sites[best]!)!;
      if (v < bv || (v === bv && this.o.muHat[r]! > this.o.muHat[best]!)) best = r;
    }
    if (best < 0) {
      const present = this.present(ctx.now());
      best = present.reduce((a, r) => (this.o.muHat[r]! > this.o.muHat[a]! ? r : a), present[0]!);
    }
    this.round = undefined;
    this.dispatch(ctx, round.job, round.Lhat, best);
    this.nextRound(ctx);
  }

  /**
   * The resources present at `t` (§4: resources join and leave), in site order. Should every one be
   * away at once, all are taken as present: a task must go somewhere.
   */
  private present(t: number): number[] {
    const all = this.o.sites.map((_, r) => r);
    if (!this.anyAway) return all;
    const here = all.filter((r) => !this.isAway(r, t));
    return here.length > 0 ? here : all;
  }

  private isAway(r: number, t: number): boolean {
    return (this.o.away[r] ?? []).some(([leave, back]) => t >= leave && t < back);
  }

  /** Grid Shadow hears of every resource that left or came back since its last task. */
  private syncShadow(t: number): void {
    if (!this.anyAway) return;
    const here = new Set(this.present(t));
    for (let r = 0; r < this.o.sites.length; r++) {
      const away = !here.has(r);
      if (away && !this.shadow!.isAway(r)) this.shadow!.leave(r);
      else if (!away && this.shadow!.isAway(r)) this.shadow!.join(r);
    }
  }

  private dispatch(ctx: ActorContext<Message>, job: Job, Lhat: number, r: number): void {
    ctx.metrics.count('routing.decisions');
    const bytes = taskData(this.o.data, job.id, this.o.seed).input;
    this.out.send(ctx, resourceAddress(this.o.sites[r]!), { type: 'sr.task', job, Lhat }, bytes);
  }
}
