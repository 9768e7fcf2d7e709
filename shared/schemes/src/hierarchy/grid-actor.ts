import type { Address, Message } from '@gridemu/protocol';
import type { Actor, ActorContext, TimerId } from '@gridemu/runtime';
import { runJob, type GridPool } from './grid-pool.js';
import { GRID_TOPIC } from './names.js';

interface GridJob {
  readonly jobId: string;
  readonly queue: Address;
  readonly work_s: number;
  readonly priority: number;
  /** The overhead timer while it is being matched, then its end timer while it runs. */
  timer?: TimerId;
  started_s?: number;
  evicted?: boolean;
}

/**
 * One grid (paper 000 §2.1, §5): a pool of CPUs behind a submission interface the scheduler cannot
 * change. A job submitted here is matched after the grid's invocation overhead, then waits for a
 * free CPU, lower priority numbers first (§5: Q3's jobs go before Q4's on the Madison pool, and may
 * preempt them); it runs its work at the grid's speed, unless it is evicted first (volatility).
 * Every end, eviction and preemption is reported to the queue that submitted the job. The grid
 * publishes its free CPUs on the grid topic every `period_s`.
 */
export class GridActor implements Actor<Message> {
  private readonly jobs = new Map<string, GridJob>();
  /** Matched jobs waiting for a CPU, by priority, each FIFO. */
  private readonly waiting = new Map<number, GridJob[]>();
  private readonly running = new Set<GridJob>();
  private busy = 0;

  constructor(
    readonly id: string,
    private readonly pool: GridPool & { readonly beta: number; readonly preempt: boolean },
    private readonly period_s: number,
  ) {}

  start(ctx: ActorContext<Message>): void {
    this.publish(ctx);
  }

  receive(ctx: ActorContext<Message>, msg: Message, from: Address): void {
    switch (msg.type) {
      case 'hq.job-submit': {
        if (this.jobs.has(msg.jobId)) throw new Error(`assertion: job ${msg.jobId} submitted twice to grid ${this.id}`);
        const job: GridJob = { jobId: msg.jobId, queue: from, work_s: msg.work_s, priority: msg.priority };
        this.jobs.set(msg.jobId, job);
        const overhead_s = this.pool.overhead_s > 0 ? ctx.rng.exponential(this.pool.overhead_s) : 0;
        job.timer = ctx.schedule(overhead_s, { type: 'timer.hq-job-ready', jobId: msg.jobId });
        return;
      }
      case 'timer.hq-job-ready': {
        const job = this.jobs.get(msg.jobId);
        if (!job) return; // cancelled while being matched
        job.timer = undefined;
        const list = this.waiting.get(job.priority) ?? [];
        if (list.length === 0) this.waiting.set(job.priority, list);
        list.push(job);
        this.dispatch(ctx);
        return;
      }
      case 'timer.hq-job-ends': {
        const job = this.jobs.get(msg.jobId);
        if (!job || job.started_s === undefined)
          throw new Error(`assertion: job ${msg.jobId} ended on grid ${this.id} but was not running`);
        this.finish(ctx, job, job.evicted === true, 'hierarchy.evictions');
        return;
      }
      case 'hq.job-cancel':
        this.cancel(ctx, msg.prefix);
        return;
      case 'timer.hq-grid-tick':
        this.publish(ctx);
        return;
      default:
        ctx.log.warn({ type: msg.type, grid: this.id }, 'grid ignored an unexpected message');
        ctx.metrics.count('messages.unexpected');
    }
  }

  private publish(ctx: ActorContext<Message>): void {
    let waiting = 0;
    for (const list of this.waiting.values()) waiting += list.length;
    ctx.publish(GRID_TOPIC, {
      type: 'hq.grid-status',
      grid: this.id,
      cpus: this.pool.cpus,
      free: this.pool.cpus - this.busy,
      waiting,
    });
    ctx.schedule(this.period_s, { type: 'timer.hq-grid-tick' });
  }

  /** Starts waiting jobs, highest priority first, while CPUs are free; then lets priority preempt. */
  private dispatch(ctx: ActorContext<Message>): void {
    const priorities = [...this.waiting.keys()].sort((a, b) => a - b);
    for (const p of priorities) {
      const list = this.waiting.get(p)!;
      while (list.length > 0) {
        if (this.busy >= this.pool.cpus && !(this.pool.preempt && this.preemptBelow(ctx, p))) return;
        this.run(ctx, list.shift()!);
      }
    }
  }

  /** Frees a CPU held by the most recently started job of a lower priority than `p`, if any. */
  private preemptBelow(ctx: ActorContext<Message>, p: number): boolean {
    let victim: GridJob | undefined;
    for (const j of this.running)
      if (
        j.priority > p &&
        (victim === undefined ||
          j.priority > victim.priority ||
          (j.priority === victim.priority && j.started_s! > victim.started_s!))
      )
        victim = j;
    if (!victim) return false;
    ctx.cancel(victim.timer!);
    this.finish(ctx, victim, true, 'hierarchy.preemptions', false);
    return true;
  }

  private run(ctx: ActorContext<Message>, job: GridJob): void {
    this.busy++;
    if (this.busy > this.pool.cpus)
      throw new Error(`assertion: grid ${this.id} runs ${this.busy} jobs on ${this.pool.cpus} CPUs`);
    const draw = runJob(this.pool, job.work_s, this.pool.beta, ctx.rng);
    job.started_s = ctx.now();
    job.evicted = draw.evicted;
    job.timer = ctx.schedule(draw.run_s, { type: 'timer.hq-job-ends', jobId: job.jobId });
    this.running.add(job);
    ctx.send(job.queue, { type: 'hq.job-started', jobId: job.jobId });
  }

  /** A running job leaves its CPU: done, evicted or preempted. */
  private finish(
    ctx: ActorContext<Message>,
    job: GridJob,
    evicted: boolean,
    counter: string,
    thenDispatch = true,
  ): void {
    const ran_s = ctx.now() - job.started_s!;
    this.running.delete(job);
    this.jobs.delete(job.jobId);
    this.busy--;
    ctx.metrics.count(`hierarchy.grid.${this.id}.cpu_s`, ran_s);
    if (evicted) {
      ctx.metrics.count(counter);
      ctx.metrics.count(`hierarchy.grid.${this.id}.lost_cpu_s`, ran_s);
    }
    ctx.send(job.queue, { type: 'hq.job-done', jobId: job.jobId, evicted, ran_s });
    if (thenDispatch) this.dispatch(ctx);
  }

  /** A task migrated: its jobs here are dropped; the CPU time of those running is lost. */
  private cancel(ctx: ActorContext<Message>, prefix: string): void {
    for (const [jobId, job] of this.jobs) {
      if (!jobId.startsWith(prefix)) continue;
      this.jobs.delete(jobId);
      if (job.timer !== undefined) ctx.cancel(job.timer);
      if (job.started_s !== undefined) {
        this.running.delete(job);
        this.busy--;
        const ran_s = ctx.now() - job.started_s;
        ctx.metrics.count(`hierarchy.grid.${this.id}.cpu_s`, ran_s);
        ctx.metrics.count(`hierarchy.grid.${this.id}.lost_cpu_s`, ran_s);
      } else {
        const list = this.waiting.get(job.priority);
        const i = list?.indexOf(job) ?? -1;
        if (i >= 0) list!.splice(i, 1);
      }
    }
    this.dispatch(ctx);
  }
}
