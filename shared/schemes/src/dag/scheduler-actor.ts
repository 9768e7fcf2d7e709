import { DRIVER, MessageType, type Address, type Message } from '@gridemu/protocol';
import type { Actor, ActorContext } from '@gridemu/runtime';
import { rescheduleRound, taskKey, type RunningTaskReport } from './adaptive-round.js';
import { DagJob } from './dag-job.js';
import { asDagTask, type DagTaskJob } from './dag-sources.js';
import { SERVICES, type DagGrid } from './dag-grid.js';
import { estimatedTask_s, inputsOf } from './estimated-length.js';
import { relocateInitialTasks, type InitialTaskPlace } from './interrupt-initial.js';
import type { DagStatus, DagTaskProgress } from './messages.js';
import type { ResourceLoad } from './reschedule.js';
import { scheduleReady, type ReadyGroup } from './schedule-ready.js';
import { REFERENCE_MIPS } from './site-actor.js';

export type DagScheme = 'dag-static' | 'dag-adaptive';

export interface DagSchedulerOptions {
  readonly scheme: DagScheme;
  readonly grid: DagGrid;
  readonly siteActor: (site: string) => Address;
  readonly informationService: Address;
  /** How often the adaptive scheduler collects progress and reschedules (steps 1 and 2). */
  readonly round_period_s: number;
  /** MP (§4): a migration must shorten the task's predicted time by at least this fraction. */
  readonly min_improvement: number;
  /**
   * A DAG job still running at its submission + `limit_factor` × its initially estimated length
   * (the longest chain of its tasks' rough estimates on the reference CR, each with its inputs'
   * staging: estimatedTask_s) fails: its tasks are stopped and reported failed (§4's 200% limit:
   * 2). Absent: no job is ever stopped.
   */
  readonly limit_factor?: number;
}

/** jobs.csv's reason for a task whose DAG job passed its limit. */
export const LIMIT_REASON = 'growth_limit';

/**
 * Paper 003's grid scheduler, GSched (§3, §4). Both schemes place each task once it is ready
 * (every parent finished) and its Job has arrived, sending its parents' outputs to it:
 * - `dag-static`: on a resource drawn at random, and never moves it (the paper's baseline);
 * - `dag-adaptive`: step 3 of §3 on each batch of ready tasks (scheduleReady), and every
 *   `round_period_s` steps 1 and 2: it asks the IS for the tasks' progress and migrates tasks
 *   of fully scheduled parent sets (rescheduleRound). A migration is a checkpoint at the old CR,
 *   the checkpoint through the CS, and a restart with it and the task's inputs on the new CR.
 *   After each placement and each round, the initial tasks on a resource that a dependent task
 *   now uses are interrupted and moved to the slowest free resources (relocateInitialTasks), by
 *   the same checkpoint and restart.
 */
export class DagSchedulerActor implements Actor<Message> {
  /** The DAGs as their tasks arrive (a task's id in its DagJob is its job id), in arrival order. */
  private readonly dags = new Map<string, DagJob>();
  private readonly jobs = new Map<string, DagTaskJob>();
  private readonly placement = new Map<string, string>();
  private readonly outputAt = new Map<string, string>();
  private readonly load = new Map<string, number>();
  private readonly readySince = new Map<string, number>();
  private readonly started = new Set<string>();
  private readonly migrations = new Map<string, number>();
  /** Tasks stopped for a migration, and where they go once their checkpoint is stored. */
  private readonly moving = new Map<string, string>();
  /** Each DAG's submission and the time its limit passes, and whether its timer is armed. */
  private readonly limits = new Map<string, { submit_s: number; deadline_s: number; armed: boolean }>();
  /** DAG jobs that passed their limit: nothing more of them is placed, and their tasks are failed. */
  private readonly failed = new Set<string>();
  private round = 0;

  constructor(private readonly o: DagSchedulerOptions) {
    for (const r of o.grid.resources) this.load.set(r.id, 0);
  }

  start(ctx: ActorContext<Message>): void {
    if (this.o.scheme === 'dag-adaptive') ctx.schedule(this.o.round_period_s, { type: 'timer.dag-round' });
  }

  receive(ctx: ActorContext<Message>, msg: Message): void {
    switch (msg.type) {
      case MessageType.JobSubmit: {
        const job = asDagTask(msg.job);
        let dag = this.dags.get(job.dag);
        if (!dag) this.dags.set(job.dag, (dag = new DagJob(job.dag)));
        dag.add({ id: job.id, parents: job.parents, work_mi: job.estimate_s * REFERENCE_MIPS });
        this.jobs.set(job.id, job);
        // A task that reaches GSched after its job failed (delayed on the bus) fails with it.
        if (this.failed.has(job.dag)) return this.failTask(ctx, job.id);
        if (dag.stateOf(job.id) === 'ready') this.readySince.set(job.id, ctx.now());
        this.limit(ctx, dag, job.submit_s);
        this.dispatch(ctx);
        return;
      }
      case 'timer.dag-limit':
        return this.limitDue(ctx, msg.dag);
      case 'dag.done':
        if (this.failed.has(this.jobs.get(msg.jobId)?.dag ?? '') && !this.moving.has(msg.jobId)) return; // released at the failure
        return this.done(ctx, msg.jobId, msg.resource);
      case 'dag.stopped':
        return this.restart(ctx, msg.jobId, msg.done_mi, msg.begun);
      case 'timer.dag-round':
        this.round++;
        ctx.metrics.count('dag.rounds');
        ctx.send(this.o.informationService, { type: 'dag.status-query', round: this.round });
        ctx.schedule(this.o.round_period_s, { type: 'timer.dag-round' });
        return;
      case 'dag.status':
        if (msg.round === this.round) this.reschedule(ctx, msg);
        return;
      default:
        ctx.log.warn({ type: msg.type }, 'DAG scheduler ignored an unexpected message');
        ctx.metrics.count('messages.unexpected');
    }
  }

  private where(jobId: string): { dag: DagJob; task: string } {
    const dag = this.dags.get(this.jobs.get(jobId)?.dag ?? '');
    if (!dag) throw new Error(`assertion: ${jobId} is no task of a known DAG`);
    return { dag, task: jobId };
  }

  /** Places every ready task whose Job has arrived. */
  private dispatch(ctx: ActorContext<Message>): void {
    const ready: { jobId: string; dag: DagJob; task: string }[] = [];
    // A finished DAG stays known: a task of it delayed on the bus still finds its parents done.
    for (const dag of this.dags.values())
      if (!dag.done && !this.failed.has(dag.name))
        for (const task of dag.ready()) ready.push({ jobId: task, dag, task });
    if (this.o.scheme === 'dag-static') {
      const rs = this.o.grid.resources;
      for (const r of ready) this.run(ctx, r.jobId, rs[ctx.rng.int(0, rs.length - 1)]!.id, 0, true);
      return;
    }
    if (ready.length > 0) this.scheduleReadyTasks(ctx, ready);
    this.relocateInitial(ctx);
  }

  /** Step 3 (§3). */
  private scheduleReadyTasks(
    ctx: ActorContext<Message>,
    ready: readonly { jobId: string; dag: DagJob; task: string }[],
  ): void {
    // Step 3: a group per parent set (the smallest holding the task), partly processed sets first.
    const groups = new Map<
      string,
      { set: string; partlyProcessed: boolean; readySince_s: number; tasks: { id: string; estimate_mi: number }[] }
    >();
    for (const r of ready) {
      const set = r.dag.parentSets.find((s) => s.members.includes(r.task));
      const key = set ? `${r.dag.name}:${set.child}` : r.jobId;
      const g = groups.get(key) ?? {
        set: key,
        partlyProcessed: set !== undefined && r.dag.partlyProcessed(set),
        readySince_s: Number.POSITIVE_INFINITY,
        tasks: [],
      };
      // The scheduler knows only the rough estimate a task came with (§3), never its true length.
      g.tasks.push({ id: r.jobId, estimate_mi: this.jobs.get(r.jobId)!.estimate_s * REFERENCE_MIPS });
      g.readySince_s = Math.min(g.readySince_s, this.readySince.get(r.jobId) ?? ctx.now());
      groups.set(key, g);
    }
    const byId = new Map(ready.map((r) => [r.jobId, r]));
    for (const a of scheduleReady([...groups.values()] as ReadyGroup[], this.loads()))
      this.run(ctx, byId.get(a.task)!.jobId, a.resource, 0, true);
  }

  /** Sends a task to its CR, with its inputs (or its checkpoint and inputs) on the way. */
  /** `first`: the run whose begin the site reports as the job's start (it never began before). */
  private run(
    ctx: ActorContext<Message>,
    jobId: string,
    resource: string,
    done_mi: number,
    reserve: boolean,
    first = true,
  ): void {
    const { dag, task } = this.where(jobId);
    const job = this.jobs.get(jobId)!;
    const parents = dag.task(task).parents;
    const grid = this.o.grid;
    const file = grid.params.file_bytes;
    const initial = parents.length === 0;
    // Its inputs from outside the grid come through the user interface at the services.
    const { external, fromParents } = inputsOf(job, file);
    const inputs = fromParents.reduce((a, b) => a + b, external);
    let delay_s: number;
    if (this.started.has(jobId)) {
      // A restart: the checkpoint and the inputs come from the checkpoint server.
      delay_s = grid.transfer_s(SERVICES, resource, file + inputs);
      ctx.metrics.count('dag.bytes.checkpoint', file);
      ctx.metrics.count('dag.bytes.restart_input', inputs);
    } else {
      const arrivals = parents.map((p, i) => grid.transfer_s(this.outputAt.get(p)!, resource, fromParents[i]!));
      if (external > 0) arrivals.push(grid.transfer_s(SERVICES, resource, external));
      delay_s = Math.max(0, ...arrivals);
    }
    ctx.metrics.count('dag.bytes.input', inputs);
    if (dag.stateOf(task) === 'ready') dag.start(task);
    this.readySince.delete(jobId);
    this.placement.set(jobId, resource);
    if (reserve && !initial) this.load.set(resource, this.load.get(resource)! + 1);
    this.started.add(jobId);
    ctx.send(this.o.siteActor(grid.resource(resource).site), {
      type: 'dag.run',
      job: this.jobs.get(jobId)!,
      resource,
      done_mi,
      delay_s,
      initial,
      first,
      migrations: this.migrations.get(jobId) ?? 0,
    });
  }

  private done(ctx: ActorContext<Message>, jobId: string, resource: string): void {
    const { dag, task } = this.where(jobId);
    const target = this.moving.get(jobId);
    if (target !== undefined) {
      // It finished before the stop reached it: the reserved place is not needed.
      this.moving.delete(jobId);
      if (!dag.isInitial(task)) {
        this.load.set(target, this.load.get(target)! - 1);
        this.load.set(resource, this.load.get(resource)! + 1);
      }
    }
    if (!dag.isInitial(task)) this.load.set(resource, this.load.get(resource)! - 1);
    this.placement.delete(jobId);
    this.outputAt.set(jobId, resource);
    const now = ctx.now();
    for (const next of dag.finish(task)) this.readySince.set(next, now);
    this.dispatch(ctx);
  }

  /** Its checkpoint is stored: the migrating task starts on its new CR (§3). */
  private restart(ctx: ActorContext<Message>, jobId: string, done_mi: number, begun: boolean): void {
    const to = this.moving.get(jobId);
    if (to === undefined) throw new Error(`assertion: ${jobId} was stopped, but no move was planned for it`);
    this.moving.delete(jobId);
    const { dag, task } = this.where(jobId);
    if (this.failed.has(dag.name)) {
      // Its job failed while its checkpoint was on the way: it is at no CR, so it fails here.
      if (!dag.isInitial(task)) this.load.set(to, this.load.get(to)! - 1);
      this.placement.delete(jobId);
      this.failTask(ctx, jobId);
      return;
    }
    this.migrations.set(jobId, (this.migrations.get(jobId) ?? 0) + 1);
    ctx.metrics.count('dag.migrations');
    this.run(ctx, jobId, to, done_mi, false, !begun);
  }

  /** Steps 1 and 2 (§3): the IS's picture of progress, then the moves of rescheduleRound. */
  private reschedule(ctx: ActorContext<Message>, status: DagStatus): void {
    const reports: RunningTaskReport[] = [];
    for (const p of status.tasks as readonly DagTaskProgress[]) {
      // Only what the scheduler itself believes runs there now: a report may be older than a move.
      if (this.placement.get(p.jobId) !== p.resource || this.moving.has(p.jobId)) continue;
      const dag = this.jobs.get(p.jobId)?.dag;
      // A failed job's tasks are no longer rescheduled (the IS's picture may still show one running).
      if (dag !== undefined && !this.failed.has(dag))
        reports.push({ job: dag, task: p.jobId, resource: p.resource, done_mi: p.done_mi, progress: p.progress });
    }
    const active = [...this.dags.values()].filter((d) => !d.done && !this.failed.has(d.name));
    const moves = rescheduleRound(active, reports, this.loads(), {
      migration_s: this.typicalMigration_s(),
      min_improvement: this.o.min_improvement,
    });
    const keyed = new Map(reports.map((r) => [taskKey(r.job, r.task), r.task]));
    for (const m of moves) {
      const jobId = keyed.get(m.task)!;
      this.moving.set(jobId, m.to);
      this.load.set(m.from, this.load.get(m.from)! - 1);
      this.load.set(m.to, this.load.get(m.to)! + 1);
      ctx.send(this.o.siteActor(this.o.grid.resource(m.from).site), { type: 'dag.stop', jobId });
    }
    this.relocateInitial(ctx);
  }

  /**
   * Step 1's rule (§3): initial tasks on a resource that a dependent task uses stand still there,
   * so they are interrupted and moved to the slowest free resources, if any are free.
   */
  private relocateInitial(ctx: ActorContext<Message>): void {
    const initials = new Map(this.o.grid.resources.map((r) => [r.id, 0]));
    const places: InitialTaskPlace[] = [];
    for (const [jobId, resource] of this.placement) {
      if (!this.where(jobId).dag.isInitial(jobId)) continue;
      const target = this.moving.get(jobId);
      initials.set(target ?? resource, initials.get(target ?? resource)! + 1);
      if (target === undefined) places.push({ id: jobId, resource });
    }
    if (places.length === 0) return;
    const holdings = this.o.grid.resources.map((r) => ({
      id: r.id,
      mips: r.mips,
      dependents: this.load.get(r.id)!,
      initials: initials.get(r.id)!,
    }));
    for (const m of relocateInitialTasks(places, holdings)) {
      this.moving.set(m.task, m.to);
      ctx.metrics.count('dag.initial_interruptions');
      ctx.send(this.o.siteActor(this.o.grid.resource(m.from).site), { type: 'dag.stop', jobId: m.task });
    }
  }

  /**
   * §4's limit: the job's deadline from what the scheduler knows at submission, its tasks' rough
   * estimates (recomputed as its tasks arrive, all at its submission), and one timer for it.
   */
  private limit(ctx: ActorContext<Message>, dag: DagJob, submit_s: number): void {
    const factor = this.o.limit_factor;
    if (factor === undefined) return;
    const known = this.limits.get(dag.name);
    const first = Math.min(submit_s, known?.submit_s ?? submit_s);
    const { file_bytes, bandwidth_bps } = this.o.grid.params;
    const estimated_s = dag.longestChain((t) => estimatedTask_s(this.jobs.get(t.id)!, file_bytes, bandwidth_bps));
    const deadline_s = first + factor * estimated_s;
    const armed = known?.armed === true;
    this.limits.set(dag.name, { submit_s: first, deadline_s, armed: true });
    if (!armed) ctx.schedule(Math.max(0, deadline_s - ctx.now()), { type: 'timer.dag-limit', dag: dag.name });
  }

  private limitDue(ctx: ActorContext<Message>, name: string): void {
    const limit = this.limits.get(name)!;
    const dag = this.dags.get(name)!;
    if (dag.done) return;
    const now = ctx.now();
    if (now < limit.deadline_s) {
      // A task that came after the timer was set moved the deadline later.
      ctx.schedule(limit.deadline_s - now, { type: 'timer.dag-limit', dag: name });
      return;
    }
    this.failed.add(name);
    ctx.metrics.count('dag.jobs_failed_at_limit');
    for (const t of dag.tasks) {
      const id = t.id;
      if (dag.stateOf(id) === 'done' || this.moving.has(id)) continue; // a moving task fails when its checkpoint is stored
      const resource = this.placement.get(id);
      if (resource === undefined) {
        this.failTask(ctx, id);
        continue;
      }
      // At a CR (or on its way there): the site stops it, and reports it failed unless it has finished.
      if (!dag.isInitial(id)) this.load.set(resource, this.load.get(resource)! - 1);
      this.placement.delete(id);
      ctx.send(this.o.siteActor(this.o.grid.resource(resource).site), {
        type: 'dag.kill',
        jobId: id,
        reason: LIMIT_REASON,
      });
    }
    this.dispatch(ctx);
  }

  /** A task of a failed job that is at no CR: the driver hears of its failure from here. */
  private failTask(ctx: ActorContext<Message>, jobId: string): void {
    this.readySince.delete(jobId);
    ctx.send(DRIVER, {
      type: MessageType.JobFailed,
      jobId,
      time_s: ctx.now(),
      reason: LIMIT_REASON,
      trail: { copies: 1, migrations: this.migrations.get(jobId) ?? 0, replans: 0 },
    });
  }

  private loads(): ResourceLoad[] {
    return this.o.grid.resources.map((r) => ({ id: r.id, mips: r.mips, running: this.load.get(r.id)! }));
  }

  /** What step 2 charges a move: the mean checkpoint delay and the checkpoint's way through the CS over the slowest WAN link. */
  private typicalMigration_s(): number {
    const p = this.o.grid.params;
    const hop = p.wan_latency_ms[1] / 1000 + (p.file_bytes * 8) / p.bandwidth_bps;
    return (p.checkpoint_delay_s[0] + p.checkpoint_delay_s[1]) / 2 + 2 * hop;
  }
}
