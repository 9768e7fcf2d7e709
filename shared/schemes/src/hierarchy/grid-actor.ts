import type { Address, Message } from '@gridemu/protocol';
import { Rng, type Actor, type ActorContext, type TimerId } from '@gridemu/runtime';
import { AlternatingPeriods } from '../alternating-periods.js';
import { CycleTicks } from '../cycle-ticks.js';
import { runJob, type GridPool } from './grid-pool.js';
import type { GridSpec } from './meta.js';
import { GRID_TOPIC, gridCpuCounter } from './names.js';
import { reportSiteState } from '../site-metrics.js';

/** What a grid actor is given: the pool, the application's β, whether priority preempts, and its Condor negotiation. */
export type PoolModel = GridPool &
  Pick<GridSpec, 'cycle_s' | 'matches_per_cycle' | 'others_share' | 'outages'> & {
    readonly beta: number;
    readonly preempt: boolean;
  };

interface GridJob {
  readonly jobId: string;
  readonly queue: Address;
  readonly work_s: number;
  readonly priority: number;
  readonly flock: boolean;
  /** The overhead timer while it is being matched, then its end timer while it runs. */
  timer?: TimerId;
  started_s?: number;
  /** When its run ends (or its owner evicts it), set at its start: a live timer may be handled later. */
  ends_s?: number;
  evicted?: boolean;
}

/**
 * One grid (paper 000 §2.1, §5): a Condor pool of CPUs behind a submission interface the scheduler
 * cannot change. Lower priority numbers go first (§5: Q3's jobs before Q4's on the Madison pool,
 * and may preempt them); a job runs its work at the grid's speed, unless it is evicted first
 * (volatility). Every end, eviction and preemption is reported to the queue that submitted it.
 *
 * How a job gets a CPU:
 * - with `cycle_s`, as Condor's negotiator does: only at a cycle's tick, when the cycle reaches
 *   this user (other users' fair share, `others_share`, may take a whole cycle), and at most the
 *   user's part of `matches_per_cycle`; a job a cycle leaves unmatched waits for the next, or, if
 *   its queue flocks, is handed back (`hq.job-unmatched`) to go on to the queue's next pool;
 * - without, after its own invocation overhead (`overhead_s`), then as soon as a CPU is free.
 *
 * During an outage every running job is evicted and nothing starts. The grid publishes its free
 * CPUs on the grid topic every `period_s`.
 *
 * A crash of its process is an outage it did not plan (recover): the jobs running die with it and
 * are reported evicted; those submitted and not yet running are its durable state, as a Condor
 * schedd's queue is, and wait for it.
 */
export class GridActor implements Actor<Message> {
  private readonly jobs = new Map<string, GridJob>();
  /** Jobs ready for a CPU (matched, or past their overhead), by priority, each FIFO. */
  private readonly waiting = new Map<number, GridJob[]>();
  /** With a negotiation cycle: jobs submitted and not yet matched, by priority, each FIFO. */
  private readonly idle = new Map<number, GridJob[]>();
  private readonly running = new Set<GridJob>();
  private busy = 0;
  private readonly cycle: CycleTicks;
  private readonly outages: AlternatingPeriods | undefined;
  /** Draws whether a cycle reaches this user, apart from the run's other draws. */
  private readonly order: Rng;
  private cyclePending = false;

  constructor(
    readonly id: string,
    private readonly pool: PoolModel,
    private readonly period_s: number,
    seed: number,
  ) {
    this.cycle = new CycleTicks(pool.cycle_s, seed, `hierarchy/negotiation/${id}`);
    this.order = new Rng(seed, `hierarchy/negotiation-order/${id}`);
    this.outages = pool.outages
      ? new AlternatingPeriods(pool.outages.mean_s, pool.outages.mean_between_s, seed, `hierarchy/outage/${id}`)
      : undefined;
  }

  start(ctx: ActorContext<Message>): void {
    this.publish(ctx);
    if (this.outages) ctx.schedule(this.outages.nextChange(ctx.now()) - ctx.now(), { type: 'timer.hq-outage' });
  }

  receive(ctx: ActorContext<Message>, msg: Message, from: Address): void {
    this.handle(ctx, msg, from);
    this.reportState(ctx);
  }

  /** The site's state as its gauges (site-metrics.ts), after each message and after a restart. */
  private reportState(ctx: ActorContext<Message>): void {
    // Its queued jobs are every one submitted here and not running: waiting for a cycle, an
    // overhead or a CPU.
    reportSiteState(ctx, {
      queued: this.jobs.size - this.running.size,
      running: this.running.size,
      busy: this.busy,
      total: this.pool.cpus,
    });
  }

  private handle(ctx: ActorContext<Message>, msg: Message, from: Address): void {
    switch (msg.type) {
      case 'hq.job-submit': {
        if (this.jobs.has(msg.jobId)) throw new Error(`assertion: job ${msg.jobId} submitted twice to grid ${this.id}`);
        const job: GridJob = {
          jobId: msg.jobId,
          queue: from,
          work_s: msg.work_s,
          priority: msg.priority,
          flock: msg.flock,
        };
        this.jobs.set(msg.jobId, job);
        if (this.pool.cycle_s > 0) {
          push(this.idle, job);
          this.awaitCycle(ctx);
          return;
        }
        const overhead_s = this.pool.overhead_s > 0 ? ctx.rng.exponential(this.pool.overhead_s) : 0;
        job.timer = ctx.schedule(overhead_s, { type: 'timer.hq-job-ready', jobId: msg.jobId });
        return;
      }
      case 'timer.hq-negotiate':
        this.cyclePending = false;
        return this.negotiate(ctx);
      case 'timer.hq-outage':
        return this.outageChanges(ctx);
      case 'timer.hq-job-ready': {
        const job = this.jobs.get(msg.jobId);
        if (!job) return; // cancelled while being matched
        job.timer = undefined;
        push(this.waiting, job);
        this.dispatch(ctx);
        return;
      }
      case 'timer.hq-job-ends': {
        const job = this.jobs.get(msg.jobId);
        if (!job || job.started_s === undefined)
          throw new Error(`assertion: job ${msg.jobId} ended on grid ${this.id} but was not running`);
        this.finish(ctx, job, job.evicted === true, 'hierarchy.evictions', true, job.ends_s);
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
    for (const list of [...this.waiting.values(), ...this.idle.values()]) waiting += list.length;
    ctx.publish(GRID_TOPIC, {
      type: 'hq.grid-status',
      grid: this.id,
      cpus: this.pool.cpus,
      free: this.down(ctx) ? 0 : this.pool.cpus - this.busy,
      waiting,
    });
    ctx.schedule(this.period_s, { type: 'timer.hq-grid-tick' });
  }

  private down(ctx: ActorContext<Message>): boolean {
    return this.outages?.inPeriodAt(ctx.now()) ?? false;
  }

  /** A cycle is due while any job waits unmatched. */
  private awaitCycleIfIdle(ctx: ActorContext<Message>): void {
    for (const list of this.idle.values()) if (list.length > 0) return this.awaitCycle(ctx);
  }

  /** Makes sure a negotiation cycle is coming for the jobs still unmatched. */
  private awaitCycle(ctx: ActorContext<Message>): void {
    if (this.cyclePending) return;
    this.cyclePending = true;
    // The next tick strictly after now: a cycle that just ran does not run again at once.
    const now = ctx.now();
    let at = this.cycle.nextTick(now);
    if (at <= now) at = this.cycle.nextTick(now + this.pool.cycle_s / 2);
    ctx.schedule(at - now, { type: 'timer.hq-negotiate' });
  }

  /**
   * One negotiation cycle: the user's part of the cycle's matches goes to idle jobs, highest
   * priority first, while a CPU is free (or priority may preempt); the rest wait for the next
   * cycle, or flock on.
   */
  private negotiate(ctx: ActorContext<Message>): void {
    if (this.down(ctx)) return; // the outage's end brings the next cycle
    // Fair share: the negotiator serves users in priority order, and a cycle may spend itself on
    // those ahead of ours. Modelled as: ours is reached with chance 1 − others_share, and then gets
    // that part of the cycle's matches.
    const share = 1 - this.pool.others_share;
    const reached = this.pool.others_share === 0 || this.order.next() < share;
    let budget = !reached
      ? 0
      : this.pool.matches_per_cycle === undefined
        ? Infinity
        : Math.max(1, Math.floor(this.pool.matches_per_cycle * share));
    if (!reached) ctx.metrics.count('hierarchy.negotiation_passed_over');
    let matched = 0;
    for (const p of [...this.idle.keys()].sort((a, b) => a - b)) {
      const list = this.idle.get(p)!;
      while (list.length > 0 && budget > 0) {
        if (this.busy >= this.pool.cpus && !(this.pool.preempt && this.preemptBelow(ctx, p))) break;
        this.run(ctx, list.shift()!);
        budget--;
        matched++;
      }
    }
    ctx.metrics.count('hierarchy.negotiation_cycles');
    ctx.metrics.count('hierarchy.negotiation_matches', matched);
    for (const [p, list] of this.idle) {
      for (const job of list.filter((j) => j.flock)) {
        this.jobs.delete(job.jobId);
        ctx.metrics.count('hierarchy.flocked');
        ctx.send(job.queue, { type: 'hq.job-unmatched', jobId: job.jobId });
      }
      this.idle.set(
        p,
        list.filter((j) => !j.flock),
      );
    }
    this.awaitCycleIfIdle(ctx);
  }

  /**
   * The grid's process died at `crashed_s` and is back: every job running here was evicted then,
   * and its queue hears so now (it reschedules an evicted job as after an outage, §5). What waits
   * for a CPU is matched again as usual.
   */
  recover(ctx: ActorContext<Message>, crashed_s: number): void {
    for (const job of [...this.running]) {
      ctx.cancel(job.timer!);
      const ran_s = Math.max(0, crashed_s - job.started_s!);
      this.running.delete(job);
      this.jobs.delete(job.jobId);
      this.busy--;
      // A task's job, not the task: the task runs on, and summary.json's faults.lost_runs (tasks) stays 0.
      ctx.metrics.count('hierarchy.crash_evictions');
      ctx.metrics.count('jobs.lost_processor_s', ran_s);
      ctx.metrics.count(gridCpuCounter(this.id), ran_s);
      ctx.metrics.count(`hierarchy.grid.${this.id}.lost_cpu_s`, ran_s);
      ctx.send(job.queue, { type: 'hq.job-done', jobId: job.jobId, evicted: true, ran_s });
    }
    if (this.pool.cycle_s === 0) this.dispatch(ctx);
    else this.awaitCycleIfIdle(ctx);
    this.reportState(ctx);
  }

  /** An outage starts (every running job is evicted) or ends (matching resumes). */
  private outageChanges(ctx: ActorContext<Message>): void {
    const now = ctx.now();
    if (this.down(ctx)) {
      ctx.metrics.count('hierarchy.outages');
      for (const job of [...this.running]) {
        ctx.cancel(job.timer!);
        this.finish(ctx, job, true, 'hierarchy.outage_evictions', false);
      }
    } else if (this.pool.cycle_s > 0) {
      this.awaitCycleIfIdle(ctx);
    } else {
      this.dispatch(ctx);
    }
    ctx.schedule(this.outages!.nextChange(now) - now, { type: 'timer.hq-outage' });
  }

  /** Starts waiting jobs, highest priority first, while CPUs are free; then lets priority preempt. */
  private dispatch(ctx: ActorContext<Message>): void {
    if (this.down(ctx)) return;
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
    job.ends_s = job.started_s + draw.run_s;
    job.evicted = draw.evicted;
    job.timer = ctx.schedule(draw.run_s, { type: 'timer.hq-job-ends', jobId: job.jobId });
    this.running.add(job);
    ctx.send(job.queue, { type: 'hq.job-started', jobId: job.jobId });
  }

  /** A running job leaves its CPU: done or evicted at `left_s` (its end timer's due time), or preempted now. */
  private finish(
    ctx: ActorContext<Message>,
    job: GridJob,
    evicted: boolean,
    counter: string,
    thenDispatch = true,
    left_s = ctx.now(),
  ): void {
    const ran_s = left_s - job.started_s!;
    this.running.delete(job);
    this.jobs.delete(job.jobId);
    this.busy--;
    ctx.metrics.count(gridCpuCounter(this.id), ran_s);
    if (evicted) {
      ctx.metrics.count(counter);
      ctx.metrics.count(`hierarchy.grid.${this.id}.lost_cpu_s`, ran_s);
    }
    ctx.send(job.queue, { type: 'hq.job-done', jobId: job.jobId, evicted, ran_s });
    if (!thenDispatch) return;
    if (this.pool.cycle_s === 0) return this.dispatch(ctx);
    // Condor's claim reuse: the submitting machine keeps the CPU it claimed and runs its next idle
    // job there at once, without a new cycle (unless the owner took the CPU back: an eviction).
    const next = evicted || this.down(ctx) ? undefined : this.firstIdleOf(job.queue);
    if (next) this.run(ctx, next);
    this.awaitCycleIfIdle(ctx);
  }

  /** Takes the highest-priority idle job `queue` submitted, if any. */
  private firstIdleOf(queue: Address): GridJob | undefined {
    for (const p of [...this.idle.keys()].sort((a, b) => a - b)) {
      const list = this.idle.get(p)!;
      const i = list.findIndex((j) => j.queue === queue);
      if (i >= 0) return list.splice(i, 1)[0];
    }
    return undefined;
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
        ctx.metrics.count(gridCpuCounter(this.id), ran_s);
        ctx.metrics.count(`hierarchy.grid.${this.id}.lost_cpu_s`, ran_s);
      } else {
        for (const lists of [this.waiting, this.idle]) {
          const list = lists.get(job.priority);
          const i = list?.indexOf(job) ?? -1;
          if (i >= 0) list!.splice(i, 1);
        }
      }
    }
    if (this.pool.cycle_s === 0) this.dispatch(ctx);
    else this.awaitCycleIfIdle(ctx);
  }
}

function push(lists: Map<number, GridJob[]>, job: GridJob): void {
  const list = lists.get(job.priority) ?? [];
  if (list.length === 0) lists.set(job.priority, list);
  list.push(job);
}
