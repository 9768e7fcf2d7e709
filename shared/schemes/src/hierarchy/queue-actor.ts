import { DRIVER, MessageType, type Address, type Message } from '@gridemu/protocol';
import { Rng, type Actor, type ActorContext, type TimerId } from '@gridemu/runtime';
import { DivisibleTask } from './divisible-task.js';
import type { DivisibleTaskJob } from './task-source.js';
import { complexityBound, initialLooseness, type EstimatorParams } from './estimator.js';
import {
  expectedCompletion_s,
  pushTarget,
  smoothAvailability,
  type LoadSharingParams,
  type QueueView,
} from './load-sharing.js';
import type { HqQueueStatus, TaskState } from './messages.js';
import { QUEUE_TOPIC, gridAddress, queueAddress } from './names.js';
import { countJobCompleted, countJobStarted } from '../site-metrics.js';
import {
  afterEstimation,
  enforceQueueLimits,
  phi,
  processNewTask,
  type Departure,
  type QueueLimits,
} from './queue-limits.js';

/** Where a queue runs a task's jobs: its grids, with the CPUs one queue may hold there. */
export interface Lane {
  readonly grids: readonly { readonly id: string; readonly N: number }[];
  readonly N: number;
  readonly P: number;
  readonly job_s: number;
  readonly parallel: boolean;
  readonly priority: number;
  readonly level: number;
  /** Condor flocking over `grids`, in order (§5); else each job to the grid with most room. */
  readonly flock: boolean;
  /** The largest complexity this lane's level takes (FCFS over the hierarchy places by it). */
  readonly C_e: number;
}

export interface QueueConfig {
  readonly id: string;
  readonly level: number;
  /** MQ: limits and migrations (§3.2); FCFS: one queue, no limits, every task served in turn. */
  readonly mode: 'mq' | 'fcfs';
  readonly limits: QueueLimits;
  /** The lanes: one for an MQ queue; under FCFS over the hierarchy, one per level. */
  readonly lanes: readonly Lane[];
  /** The first queue of the next level (absent at the last). */
  readonly next?: string;
  readonly peers: readonly string[];
  readonly estimator: EstimatorParams & { readonly stop_ratio: number };
  readonly load_sharing: LoadSharingParams & { readonly period_s: number };
  readonly enforce_period_s: number;
  /** DAGMan's delay in seeing a parallel task's last job end (§6). */
  readonly dagman_s: number;
  readonly beta: number;
  readonly seed: number;
  /** Every level's entry: its N, P and C_e, to say which level a task belongs to (Figure 7). */
  readonly levels: readonly { readonly level: number; readonly N: number; readonly P: number; readonly C_e: number }[];
}

interface Entry {
  readonly task: TaskState;
  readonly lane: Lane;
  readonly dt: DivisibleTask;
  readonly arrived_s: number;
  readonly invoked_s: number;
  readonly inflight: Map<string, { readonly index: number; grid: string; started: boolean }>;
  first_submit_s?: number;
  first_start_s?: number;
  /** Its jobs running now, and since when at least one has been. */
  running: number;
  busy_since_s: number;
}

/**
 * One queue of the grid execution hierarchy (paper 000 §3). A task arrives from the portal (the
 * driver) or from another queue; ProcessNewTask (Figure 1) moves it on, estimates its complexity
 * for up to αT_e, or invokes it. Invoked tasks are served FCFS, split into jobs on the queue's
 * grids, at most N at once; a later task gets CPUs only when the tasks before it have no job left
 * to submit (§3.2.2). EnforceQueueLimits (Figure 2) runs every `enforce_period_s` and before each
 * new task. Queues of one level push whole tasks to each other when another would finish them
 * sooner (§3.3). Everything crosses the network as messages: the grids, the other queues, the driver.
 */
export class QueueActor implements Actor<Message> {
  private readonly estimating = new Map<
    string,
    { readonly task: TaskState; readonly arrived_s: number; readonly for_s: number; readonly timer: TimerId }
  >();
  private readonly entries: Entry[] = [];
  /** Tasks whose last job has ended, waiting for DAGMan to see it. */
  private readonly finishing = new Map<string, Entry>();
  private readonly byJob = new Map<string, Entry>();
  private readonly laneInflight = new Map<Lane, number>();
  private readonly gridInflight = new Map<string, number>();
  private readonly gridFree = new Map<string, number>();
  private readonly peerViews = new Map<string, HqQueueStatus & { readonly smoothed: number }>();
  private jobCounter = 0;
  private Q = 0;

  constructor(private readonly c: QueueConfig) {}

  start(ctx: ActorContext<Message>): void {
    if (this.c.mode === 'mq') ctx.schedule(this.c.enforce_period_s, { type: 'timer.hq-queue-tick' });
    if (this.c.mode === 'mq') ctx.schedule(this.c.load_sharing.period_s, { type: 'timer.hq-share-tick' });
  }

  receive(ctx: ActorContext<Message>, msg: Message, from: Address): void {
    switch (msg.type) {
      case MessageType.JobSubmit:
        return this.arrive(ctx, this.newTask(msg.job), 'submit', from);
      case 'hq.task':
        return this.arrive(ctx, msg.task, msg.reason, from);
      case 'timer.hq-estimated':
        return this.estimated(ctx, msg.taskId);
      case 'hq.job-started':
        return this.jobStarted(ctx, msg.jobId);
      case 'hq.job-unmatched':
        return this.jobUnmatched(ctx, msg.jobId);
      case 'hq.job-done':
        return this.jobDone(ctx, msg.jobId, msg.evicted, msg.ran_s);
      case 'hq.grid-status':
        this.gridFree.set(msg.grid, smoothAvailability(this.gridFree.get(msg.grid), msg.free, this.c.load_sharing));
        return;
      case 'hq.queue-status': {
        if (msg.queue === this.c.id || !this.c.peers.includes(msg.queue)) return;
        const previous = this.peerViews.get(msg.queue);
        this.peerViews.set(msg.queue, {
          ...msg,
          smoothed: smoothAvailability(previous?.smoothed, msg.available, this.c.load_sharing),
        });
        return;
      }
      case 'timer.hq-dagman-done': {
        const e = this.finishing.get(msg.taskId)!;
        this.finishing.delete(msg.taskId);
        return this.report(ctx, e);
      }
      case 'timer.hq-queue-tick':
        this.enforce(ctx);
        ctx.schedule(this.c.enforce_period_s, { type: 'timer.hq-queue-tick' });
        return;
      case 'timer.hq-share-tick':
        this.share(ctx);
        ctx.schedule(this.c.load_sharing.period_s, { type: 'timer.hq-share-tick' });
        return;
      default:
        ctx.log.warn({ type: msg.type, queue: this.c.id }, 'queue ignored an unexpected message');
        ctx.metrics.count('messages.unexpected');
    }
  }

  private newTask(job: DivisibleTaskJob): TaskState {
    const k = initialLooseness(this.c.estimator, new Rng(this.c.seed, `estimator/${job.id}`));
    return {
      id: job.id,
      submit_s: job.submit_s,
      work_s: job.run_s,
      done_s: 0,
      ...(job.split_jobs !== undefined ? { split_jobs: job.split_jobs } : {}),
      k,
      estimated_s: 0,
      moves: 0,
      grid_wait_s: 0,
      queueing_s: 0,
      evicted_cpu_s: 0,
      cpu_s: 0,
      compute_s: 0,
      jobs_run: 0,
      jobs_evicted: 0,
      alloc_sum: 0,
      alloc_samples: 0,
    };
  }

  /** A task reaches this queue: Figure 1 (MQ), or straight into the FCFS queue. */
  private arrive(ctx: ActorContext<Message>, task: TaskState, reason: string, from: Address): void {
    if (reason === 'push' && this.declinePush(ctx, task, from)) return;
    if (this.c.mode === 'fcfs') {
      if (this.c.lanes.length === 1) return this.invoke(ctx, task, this.c.lanes[0]!, ctx.now());
      return this.startEstimation(ctx, task, ctx.now(), this.c.limits.alpha * this.c.limits.T_e);
    }
    this.enforce(ctx);
    const d = processNewTask(this.c.limits, this.Q, task.bound === undefined ? undefined : task.bound - task.done_s);
    if (d.kind === 'invoke') return this.invoke(ctx, task, this.c.lanes[0]!, ctx.now());
    if (d.kind === 'estimate') return this.startEstimation(ctx, task, ctx.now(), d.for_s);
    this.depart(ctx, task, d);
  }

  /** §3.3: the target reassesses a pushed task; if the queue it came from is now clearly better, it goes back (once). */
  private declinePush(ctx: ActorContext<Message>, task: TaskState, from: Address): boolean {
    const sender = [...this.peerViews.values()].find((v) => queueAddress(v.queue) === from);
    if (!sender) return false;
    const remaining = task.work_s - task.done_s;
    const here = expectedCompletion_s({ remaining }, this.view(this.workload()));
    const there = expectedCompletion_s({ remaining }, this.peerView(sender));
    if (!(there < here * (1 - this.c.load_sharing.margin))) return false;
    ctx.metrics.count('hierarchy.push.declined');
    ctx.send(from, { type: 'hq.task', task, reason: 'push-declined' });
    return true;
  }

  /** Figure 1 step 2: estimation runs until its bound is within stop_ratio of the truth, or for `for_s` at most. */
  private startEstimation(ctx: ActorContext<Message>, task: TaskState, arrived_s: number, for_s: number): void {
    const { tau_s, stop_ratio } = this.c.estimator;
    const converged_s = task.k <= stop_ratio ? 0 : tau_s * Math.log((task.k - 1) / (stop_ratio - 1));
    const run_s = Math.max(0, Math.min(for_s, converged_s - task.estimated_s));
    const timer = ctx.schedule(run_s, { type: 'timer.hq-estimated', taskId: task.id });
    this.estimating.set(task.id, { task, arrived_s, for_s: run_s, timer });
  }

  private estimated(ctx: ActorContext<Message>, taskId: string): void {
    const e = this.estimating.get(taskId);
    if (!e) throw new Error(`assertion: estimation of ${taskId} ended at ${this.c.id} but was not running`);
    this.estimating.delete(taskId);
    const task = e.task;
    task.estimated_s += e.for_s;
    task.bound = complexityBound(task.work_s, task.k, task.estimated_s, this.c.estimator);
    ctx.metrics.count('hierarchy.estimations');
    if (this.c.mode === 'fcfs') {
      // FCFS over the hierarchy: the level whose range holds the bound, else the last.
      const lane = this.c.lanes.find((l) => task.bound! <= l.C_e) ?? this.c.lanes[this.c.lanes.length - 1]!;
      return this.invoke(ctx, task, lane, e.arrived_s);
    }
    const d = afterEstimation(this.c.limits, task.bound - task.done_s);
    if (d.kind === 'invoke') return this.invoke(ctx, task, this.c.lanes[0]!, e.arrived_s);
    this.depart(ctx, task, d);
  }

  private invoke(ctx: ActorContext<Message>, task: TaskState, lane: Lane, arrived_s: number): void {
    const remaining = task.work_s - task.done_s;
    const jobWork = task.split_jobs !== undefined ? task.work_s / task.split_jobs : lane.job_s * lane.P * this.c.beta;
    const jobs = lane.parallel ? Math.max(1, Math.round(remaining / jobWork)) : 1;
    const entry: Entry = {
      task,
      lane,
      dt: new DivisibleTask(task.id, remaining, jobs),
      arrived_s,
      invoked_s: ctx.now(),
      inflight: new Map(),
      running: 0,
      busy_since_s: 0,
    };
    this.entries.push(entry);
    ctx.metrics.count('hierarchy.invocations');
    this.dispatch(ctx);
  }

  /** FCFS: each task's jobs go out while its lane has room; a later task's only once the earlier ones have none left to send. */
  private dispatch(ctx: ActorContext<Message>): void {
    for (const e of this.entries) {
      while (e.dt.pending > 0) {
        const inflight = this.laneInflight.get(e.lane) ?? 0;
        if (inflight >= e.lane.N) return;
        const grid = this.gridFor(e.lane);
        if (!grid) return;
        const index = e.dt.startJob()!;
        const jobId = `${e.task.id}~${this.c.id}~${++this.jobCounter}`;
        e.inflight.set(jobId, { index, grid: grid.id, started: false });
        this.byJob.set(jobId, e);
        this.laneInflight.set(e.lane, inflight + 1);
        this.countOnGrid(grid.id, +1);
        if (e.first_submit_s === undefined) {
          e.first_submit_s = ctx.now();
          e.task.queueing_s += ctx.now() - e.invoked_s;
        }
        this.submit(ctx, e, jobId, grid.id);
      }
    }
  }

  /**
   * Flocking: the first of the lane's grids with room. Otherwise the grid where this queue has the
   * most room left (a flat pool's jobs land mostly on its big grids). Undefined when none has room.
   */
  private gridFor(lane: Lane, after = -1): Lane['grids'][number] | undefined {
    const room = (g: Lane['grids'][number]) => g.N - (this.gridInflight.get(g.id) ?? 0);
    if (lane.flock) {
      const order = [...lane.grids.slice(after + 1), ...lane.grids.slice(0, after + 1)];
      return order.find((g) => room(g) > 0);
    }
    let grid = lane.grids[0]!;
    for (const g of lane.grids) if (room(g) > room(grid)) grid = g;
    return room(grid) > 0 ? grid : undefined;
  }

  private submit(ctx: ActorContext<Message>, e: Entry, jobId: string, grid: string): void {
    const last = e.lane.grids[e.lane.grids.length - 1]!.id;
    ctx.send(gridAddress(grid), {
      type: 'hq.job-submit',
      jobId,
      work_s: e.dt.jobWork_s,
      priority: e.lane.priority,
      // The last pool of the flock keeps a job it cannot match yet.
      flock: e.lane.flock && grid !== last,
    });
  }

  /** The task and in-flight record of a grid's report; undefined (counted) for a report that came too late. */
  private inflight(ctx: ActorContext<Message>, jobId: string) {
    const e = this.byJob.get(jobId);
    const job = e?.inflight.get(jobId);
    if (!e || !job) {
      ctx.metrics.count('hierarchy.late_reports');
      return undefined;
    }
    return { e, job };
  }

  /** Jobs this queue has on `grid` go up or down by one. */
  private countOnGrid(grid: string, delta: 1 | -1): void {
    this.gridInflight.set(grid, (this.gridInflight.get(grid) ?? 0) + delta);
  }

  /** A pool's negotiation cycle left the job unmatched: it flocks on to the next pool with room (§5). */
  private jobUnmatched(ctx: ActorContext<Message>, jobId: string): void {
    const found = this.inflight(ctx, jobId);
    if (!found) return;
    const { e, job } = found;
    this.countOnGrid(job.grid, -1);
    const next = this.gridFor(
      e.lane,
      e.lane.grids.findIndex((g) => g.id === job.grid),
    )!;
    job.grid = next.id;
    this.countOnGrid(next.id, +1);
    this.submit(ctx, e, jobId, next.id);
  }

  private jobStarted(ctx: ActorContext<Message>, jobId: string): void {
    const found = this.inflight(ctx, jobId);
    if (!found) return;
    const { e, job } = found;
    job.started = true;
    if (e.running++ === 0) e.busy_since_s = ctx.now();
    if (e.first_start_s === undefined) {
      e.first_start_s = ctx.now();
      e.task.grid_wait_s += ctx.now() - e.first_submit_s!;
    }
    if (e.task.first_start_s === undefined) {
      e.task.first_start_s = ctx.now();
      countJobStarted(ctx, ctx.now() - e.task.submit_s);
    }
    this.sampleAllocation(e);
  }

  private jobDone(ctx: ActorContext<Message>, jobId: string, evicted: boolean, ran_s: number): void {
    const found = this.inflight(ctx, jobId);
    if (!found) return;
    const { e, job } = found;
    this.release(e, jobId, job.grid);
    if (job.started) this.stopped(e, ctx.now());
    e.task.cpu_s += ran_s;
    e.task.jobs_run++;
    if (evicted) {
      e.dt.evictJob(job.index);
      e.task.jobs_evicted++;
      e.task.evicted_cpu_s += ran_s;
    } else {
      e.dt.finishJob(job.index);
      e.task.done_s += e.dt.jobWork_s;
    }
    this.sampleAllocation(e);
    if (e.dt.finished) this.complete(ctx, e);
    this.dispatch(ctx);
  }

  /** One of its jobs left its CPU: while none runs, the task is not computing. */
  private stopped(e: Entry, now: number): void {
    if (--e.running === 0) e.task.compute_s += now - e.busy_since_s;
  }

  private release(e: Entry, jobId: string, grid: string): void {
    e.inflight.delete(jobId);
    this.byJob.delete(jobId);
    this.laneInflight.set(e.lane, (this.laneInflight.get(e.lane) ?? 1) - 1);
    this.countOnGrid(grid, -1);
  }

  /** Table 3, rows 3-4: jobs running at each start or end while the task still has jobs to submit. */
  private sampleAllocation(e: Entry): void {
    if (e.dt.pending === 0) return;
    let running = 0;
    for (const j of e.inflight.values()) if (j.started) running++;
    e.task.alloc_sum += running;
    e.task.alloc_samples++;
  }

  /** Its last job has ended: it leaves the queue now, and is done once DAGMan sees it (§6; not under Q1's local runs). */
  private complete(ctx: ActorContext<Message>, e: Entry): void {
    this.entries.splice(this.entries.indexOf(e), 1);
    if (e.lane.parallel && this.c.dagman_s > 0) {
      this.finishing.set(e.task.id, e);
      ctx.schedule(this.c.dagman_s, { type: 'timer.hq-dagman-done', taskId: e.task.id });
      return;
    }
    this.report(ctx, e);
  }

  /** The task is done: the driver hears it, and Figures 4-7's and Table 3's counts take it. */
  private report(ctx: ActorContext<Message>, e: Entry): void {
    const t = e.task;
    t.done_s = t.work_s; // rounding of the job split
    const trail = { copies: 1, migrations: t.moves, replans: 0 };
    // Reported once, where it finished: jobs.csv's exec_site is the queue it completed in.
    ctx.send(DRIVER, {
      type: MessageType.JobStarted,
      jobId: t.id,
      site: this.c.id,
      time_s: t.first_start_s ?? ctx.now(),
      resources: '',
      trail,
    });
    ctx.send(DRIVER, { type: MessageType.JobCompleted, jobId: t.id, site: this.c.id, time_s: ctx.now() });
    countJobCompleted(ctx);
    const q = `hierarchy.queue.${this.c.id}`;
    const count = (name: string, by = 1) => ctx.metrics.count(`${q}.${name}`, by);
    count('completed');
    count('accumulated_s', ctx.now() - t.submit_s);
    count('estimation_s', t.estimated_s);
    count('grid_wait_s', t.grid_wait_s);
    count('queueing_s', t.queueing_s);
    count('cpu_s', t.cpu_s);
    count('evicted_cpu_s', t.evicted_cpu_s);
    count('jobs_run', t.jobs_run);
    count('jobs_evicted', t.jobs_evicted);
    count('moves', t.moves);
    // Figure 5's overhead is the accumulated time less the time of actual computation.
    count('compute_s', t.compute_s);
    const parallelism = t.alloc_samples > 0 ? Math.max(1, t.alloc_sum / t.alloc_samples) : 1;
    if (e.dt.jobs > 1) {
      count('parallel_tasks');
      count('jobs_per_task', e.dt.jobs);
      count('job_duration_s', e.dt.jobWork_s / (e.lane.P * this.c.beta));
      count('alloc_mean', parallelism);
      // Table 3 row 4: normalised by the task's jobs, as the paper does.
      count('alloc_share', parallelism / e.dt.jobs);
      count('volatility_runtime', t.cpu_s > 0 ? t.evicted_cpu_s / t.cpu_s : 0);
      count('volatility_jobs', t.jobs_run > 0 ? t.jobs_evicted / t.jobs_run : 0);
    }
    // Figure 7: the level a task ran at against the level its true complexity belongs to (the
    // first whose C_e holds it): ideally the same. Its expected duration is its time there.
    const best = this.c.levels.find((l) => t.work_s <= l.C_e) ?? this.c.levels[this.c.levels.length - 1]!;
    ctx.metrics.count(`hierarchy.fig7.L${best.level}.L${e.lane.level}`);
    count('expected_s', t.work_s / (best.N * best.P * this.c.beta));
  }

  /** Figure 2 over the invoked tasks, head first; what leaves is checkpointed and moved on or terminated. */
  private enforce(ctx: ActorContext<Message>): void {
    if (this.c.mode !== 'mq') return;
    const now = ctx.now();
    const tasks = this.entries.map((e) => ({
      id: e.task.id,
      waited_s: now - e.arrived_s,
      executed_s: e.first_start_s === undefined ? 0 : now - e.first_start_s,
      remaining: e.dt.remainingWork_s,
    }));
    const { Q, departures } = enforceQueueLimits(this.c.limits, tasks);
    this.Q = Q;
    for (const { id, departure } of departures) {
      const e = this.entries.find((x) => x.task.id === id)!;
      this.leave(ctx, e);
      this.depart(ctx, e.task, departure);
    }
    if (departures.length > 0) this.dispatch(ctx);
  }

  /** The master's checkpoint (§2.2): finished jobs' results stay with the task; its jobs on the grids are dropped. */
  private leave(ctx: ActorContext<Message>, e: Entry): void {
    this.entries.splice(this.entries.indexOf(e), 1);
    for (const [jobId, job] of [...e.inflight]) {
      this.release(e, jobId, job.grid);
      if (job.started) this.stopped(e, ctx.now());
    }
    const abandoned = e.dt.checkpointForMigration();
    ctx.metrics.count('hierarchy.jobs_abandoned', abandoned);
    if (e.first_submit_s === undefined) e.task.queueing_s += ctx.now() - e.invoked_s;
    for (const g of e.lane.grids)
      ctx.send(gridAddress(g.id), { type: 'hq.job-cancel', prefix: `${e.task.id}~${this.c.id}~` });
  }

  private depart(ctx: ActorContext<Message>, task: TaskState, d: Departure): void {
    ctx.metrics.count(`hierarchy.${d.kind}.${d.policy}`);
    const trail = { copies: 1, migrations: task.moves, replans: 0 };
    if (d.kind === 'migrate') {
      task.moves++;
      ctx.send(queueAddress(this.c.next!), { type: 'hq.task', task, reason: `migrate:${d.policy}` });
    } else if (d.kind === 'reject') {
      ctx.send(DRIVER, { type: MessageType.JobRejected, jobId: task.id, site: this.c.id, reason: 'beyond_last_level' });
    } else {
      ctx.send(DRIVER, {
        type: MessageType.JobFailed,
        jobId: task.id,
        time_s: ctx.now(),
        reason: `terminated:${d.policy}`,
        trail,
      });
    }
  }

  private workload(): number {
    let w = 0;
    for (const e of this.entries) w += e.dt.remainingWork_s;
    return w;
  }

  /** CPUs a task could get here: at most N, of those free on the queue's grids plus its own running jobs. */
  private available(): number {
    const lane = this.c.lanes[0]!;
    let free = 0;
    for (const g of lane.grids) free += Math.min(g.N, this.gridFree.get(g.id) ?? g.N);
    return Math.min(lane.N, free + (this.laneInflight.get(lane) ?? 0));
  }

  private view(workload_ahead: number): QueueView {
    const lane = this.c.lanes[0]!;
    return { id: this.c.id, available_cpus: this.available(), N: lane.N, P: lane.P, beta: this.c.beta, workload_ahead };
  }

  private peerView(p: HqQueueStatus & { readonly smoothed: number }): QueueView {
    return { id: p.queue, available_cpus: p.smoothed, N: p.N, P: p.P, beta: this.c.beta, workload_ahead: p.workload };
  }

  /** §3.3: tell the level what this queue offers, then push at most one task to a queue that would finish it sooner. */
  private share(ctx: ActorContext<Message>): void {
    const lane = this.c.lanes[0]!;
    ctx.publish(QUEUE_TOPIC, {
      type: 'hq.queue-status',
      queue: this.c.id,
      level: this.c.level,
      workload: this.workload(),
      available: this.available(),
      N: lane.N,
      P: lane.P,
    });
    const others = [...this.peerViews.values()].map((p) => this.peerView(p));
    if (others.length === 0) return;
    let ahead = 0;
    for (const e of this.entries) {
      const remaining = e.dt.remainingWork_s;
      if (e.task.pushed_level !== this.c.level) {
        const target = pushTarget(
          { remaining, pending_jobs: e.dt.pending },
          this.view(ahead),
          others,
          this.c.load_sharing,
        );
        if (target !== undefined) {
          this.leave(ctx, e);
          e.task.pushed_level = this.c.level;
          e.task.moves++;
          ctx.metrics.count('hierarchy.pushes');
          ctx.send(queueAddress(target), { type: 'hq.task', task: e.task, reason: 'push' });
          this.dispatch(ctx);
          return;
        }
      }
      ahead += remaining;
    }
  }
}

export { phi };
