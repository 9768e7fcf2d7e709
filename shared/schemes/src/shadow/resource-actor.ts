import { intervalSet, ProcessorIds } from '@gridemu/actors';
import type { Job } from '@gridemu/model';
import { DRIVER, MessageType, type Address, type Message } from '@gridemu/protocol';
import type { Actor, ActorContext, TimerId } from '@gridemu/runtime';
import { OutPort } from './link-port.js';
import { ROUTER } from './names.js';
import { taskData, type TaskDataSpec } from './task-data.js';
import { countJobCompleted, countJobStarted, reportSiteState } from '../site-metrics.js';

/** A resource's link to the scheduler and what moves on it (paper 004 §4). */
export interface ResourceLink {
  readonly link_mbps: number;
  readonly state_message_bytes: number;
  readonly data: TaskDataSpec;
  readonly seed: number;
}

interface Queued {
  readonly job: Job;
  readonly Lhat: number;
}

interface Running extends Queued {
  readonly ids: [number, number][];
  readonly start_s: number;
  /** Its `timer.sr-task-ends`, cancelled if the run dies in a crash. */
  readonly timer: TimerId;
}

/**
 * A dedicated resource of paper 004 (§3.1, §4): `cpus` CPUs of true rate μ behind one FIFO queue. A
 * task of length L (reference seconds) runs L / μ here. It answers MCT's and JSQ*'s state queries
 * from what it holds, in estimated terms (the tasks' L̂ and its own μ̂), as a real resource could.
 * Answers and task outputs leave through its own link, one at a time: an answer waits behind the
 * outputs already on it. A task's output leaves when it ends; its flowtime runs until the output is
 * in at the scheduler (router-actor.ts).
 *
 * Its queue is durable state: a crash of its process loses only the runs on its CPUs, which go back
 * to the head of the queue (recover). Paper 004 routes a task once and says nothing of failures;
 * this is docs/faults.md's rule for every scheme, a lost run goes back to the queue that placed it.
 */
export class ResourceActor implements Actor<Message> {
  private readonly queue: Queued[] = [];
  private readonly running = new Map<string, Running>();
  private readonly ids: ProcessorIds;
  private free: number;
  private readonly out: OutPort;

  constructor(
    readonly site: string,
    private readonly cpus: number,
    private readonly mu: number,
    private readonly muHat: number,
    private readonly link: ResourceLink,
  ) {
    this.ids = new ProcessorIds(cpus);
    this.free = cpus;
    this.out = new OutPort(link.link_mbps);
  }

  receive(ctx: ActorContext<Message>, msg: Message, from: Address): void {
    this.handle(ctx, msg, from);
    this.reportState(ctx);
  }

  /** The site's state as its gauges (site-metrics.ts), after each message and after a restart. */
  private reportState(ctx: ActorContext<Message>): void {
    reportSiteState(ctx, {
      queued: this.queue.length,
      running: this.running.size,
      busy: this.cpus - this.free,
      total: this.cpus,
    });
  }

  private handle(ctx: ActorContext<Message>, msg: Message, from: Address): void {
    switch (msg.type) {
      case 'sr.task':
        if (msg.job.procs > this.cpus) {
          ctx.send(DRIVER, {
            type: MessageType.JobRejected,
            jobId: msg.job.id,
            site: this.site,
            reason: 'wider_than_site',
          });
          return;
        }
        this.queue.push({ job: msg.job, Lhat: msg.Lhat });
        this.startWhatFits(ctx);
        return;
      case 'sr.query':
        this.out.send(
          ctx,
          from,
          {
            type: 'sr.answer',
            queryId: msg.queryId,
            site: this.site,
            value:
              msg.kind === 'queue'
                ? this.queue.length + this.running.size
                : this.expectedCompletion(ctx.now(), msg.Lhat),
          },
          this.link.state_message_bytes,
        );
        return;
      case 'timer.sr-send':
        return this.out.sent(ctx, msg.slot);
      case 'timer.sr-task-ends': {
        const r = this.running.get(msg.jobId);
        if (!r) throw new Error(`assertion: ${msg.jobId} ended at ${this.site} but was not running`);
        this.running.delete(msg.jobId);
        this.ids.give(r.ids);
        this.free += r.job.procs;
        // jobs.csv's finish is the end of the run (the CPU is free then). A task with an output is
        // done for its user when the output is in at the scheduler, which reports the completion
        // then (router-actor.ts): the run ends with every output in, and the flowtime counts them all.
        // The run's end is its start and run time, the timer's due time, not when a late timer was handled (executor-actor.ts).
        const ended_s = r.start_s + r.job.run_s / this.mu;
        // Its run is done here; with an output, the driver hears of it once the output is in.
        countJobCompleted(ctx);
        const output = taskData(this.link.data, msg.jobId, this.link.seed).output;
        if (output > 0)
          this.out.send(
            ctx,
            ROUTER,
            { type: 'sr.output', jobId: msg.jobId, site: this.site, bytes: output, ended_s },
            output,
          );
        else ctx.send(DRIVER, { type: MessageType.JobCompleted, jobId: msg.jobId, site: this.site, time_s: ended_s });
        this.startWhatFits(ctx);
        return;
      }
      default:
        ctx.log.warn({ type: msg.type, site: this.site }, 'resource ignored an unexpected message');
        ctx.metrics.count('messages.unexpected');
    }
  }

  /**
   * The resource's process died at `crashed_s` and is back: every task running here died with it.
   * Each is reported lost to the results and goes back to the head of the queue, in the order the
   * runs started, to run again from the start; the answers and outputs already on the link still go.
   */
  recover(ctx: ActorContext<Message>, crashed_s: number): void {
    const lost = [...this.running.values()];
    for (const r of lost) {
      ctx.cancel(r.timer);
      this.ids.give(r.ids);
      this.free += r.job.procs;
      ctx.metrics.count('jobs.lost_runs');
      ctx.metrics.count('jobs.lost_processor_s', r.job.procs * (crashed_s - r.start_s));
      ctx.log.info(
        { event: 'job.lost', jobId: r.job.id, time_s: crashed_s, started_s: r.start_s },
        'job lost in a crash',
      );
      ctx.send(DRIVER, {
        type: MessageType.JobLost,
        jobId: r.job.id,
        site: this.site,
        started_s: r.start_s,
        time_s: crashed_s,
      });
    }
    this.running.clear();
    this.queue.unshift(...lost.map((r) => ({ job: r.job, Lhat: r.Lhat })));
    this.startWhatFits(ctx);
    this.reportState(ctx);
  }

  /** FIFO: the head starts when its CPUs are free; nothing overtakes it. */
  private startWhatFits(ctx: ActorContext<Message>): void {
    while (this.queue.length > 0 && this.queue[0]!.job.procs <= this.free) {
      const q = this.queue.shift()!;
      const ids = this.ids.take(q.job.procs);
      this.free -= q.job.procs;
      const timer = ctx.schedule(q.job.run_s / this.mu, { type: 'timer.sr-task-ends', jobId: q.job.id });
      this.running.set(q.job.id, { ...q, ids, start_s: ctx.now(), timer });
      // The evidence, besides jobs.csv, that a task ran once (gridemu check reads it).
      ctx.log.info({ event: 'job.started', jobId: q.job.id, time_s: ctx.now(), procs: q.job.procs }, 'job started');
      countJobStarted(ctx, ctx.now() - q.job.submit_s);
      ctx.send(DRIVER, {
        type: MessageType.JobStarted,
        jobId: q.job.id,
        site: this.site,
        time_s: ctx.now(),
        resources: intervalSet(ids),
        trail: { copies: 1, migrations: 0, replans: 0 },
      });
    }
  }

  /**
   * MCT's question (§2): when would a task of estimated length L̂ complete here? The work ahead of
   * it, in estimated seconds at μ̂ (what the running tasks have left and the queue), spread over
   * the CPUs, then its own L̂ / μ̂.
   */
  private expectedCompletion(now: number, Lhat: number): number {
    let ahead = 0;
    for (const r of this.running.values()) ahead += Math.max(0, r.start_s + r.Lhat / this.muHat - now) * r.job.procs;
    for (const q of this.queue) ahead += (q.Lhat / this.muHat) * q.job.procs;
    return now + ahead / this.cpus + Lhat / this.muHat;
  }
}
