import { DRIVER, MessageType, type Address, type Message } from '@gridemu/protocol';
import type { Actor, ActorContext, TimerId } from '@gridemu/runtime';
import type { Job } from '@gridemu/model';
import type { DagResource } from './dag-grid.js';
import type { DagRun, DagTaskProgress } from './messages.js';
import { progressAt, type PredictionModel } from './progress-model.js';
import { siteBusyCounter } from './names.js';
import { SharedResource } from './shared-resource.js';
import { countJobCompleted, countJobStarted, reportSiteState } from '../site-metrics.js';

/** A task's true length in MI: its run time on the 1000-MIPS reference machine (tornado.ts, §4). */
export const REFERENCE_MIPS = 1000;

export const trueWork_mi = (job: Job): number => job.run_s * REFERENCE_MIPS;

export interface DagSiteOptions {
  readonly site: string;
  readonly resources: readonly DagResource[];
  readonly model: PredictionModel;
  /** The power models' exponent a (P = x^a), when the experiment gives one. */
  readonly model_exponent?: number;
  /** How often its CRs report their tasks' progress to the IS (§3, step 1). */
  readonly progress_period_s: number;
  /** A checkpoint takes this long to write, drawn per checkpoint (§4: 0.1 to 1 s). */
  readonly checkpoint_delay_s: readonly [number, number];
  readonly checkpoint_bytes: number;
  readonly scheduler: Address;
  readonly informationService: Address;
  readonly checkpointServer: Address;
}

interface Hosted {
  readonly run: DagRun;
  readonly total_mi: number;
  phase: 'arriving' | 'running' | 'checkpointing';
  timer?: TimerId;
  /** MI done when it stopped (checkpointing). */
  done_mi?: number;
  /** It began to run, here or on an earlier CR (checkpointing). */
  begun?: boolean;
}

/**
 * The computational resources of one site (paper 003, §4): each CR a SharedResource whose power
 * its tasks share. A task starts once its inputs have arrived, runs its true length (which only
 * the CR knows; the scheduler sees the progress P it reports, through the run's prediction
 * model), and on a stop writes a checkpoint and sends it to the checkpoint server.
 *
 * What it was sent is durable state, and so are its disks: a crash of its process loses only the
 * work its CRs did since each task's last checkpoint (recover).
 */
export class DagSiteActor implements Actor<Message> {
  private readonly crs = new Map<string, SharedResource>();
  private readonly due = new Map<string, TimerId>();
  private readonly tasks = new Map<string, Hosted>();

  constructor(private readonly o: DagSiteOptions) {
    for (const r of o.resources) this.crs.set(r.id, new SharedResource(r.id, r.mips));
  }

  start(ctx: ActorContext<Message>): void {
    ctx.schedule(this.o.progress_period_s, { type: 'timer.dag-report' });
  }

  receive(ctx: ActorContext<Message>, msg: Message): void {
    this.handle(ctx, msg);
    this.reportState(ctx);
  }

  /** The site's state as its gauges (site-metrics.ts), after each message and after a restart. */
  private reportState(ctx: ActorContext<Message>): void {
    // Queued: tasks whose inputs or checkpoint are on their way here. Busy: CRs running a task.
    let running = 0;
    let arriving = 0;
    for (const t of this.tasks.values()) {
      if (t.phase === 'running') running++;
      else if (t.phase === 'arriving') arriving++;
    }
    let busy = 0;
    for (const cr of this.crs.values()) if (cr.size > 0) busy++;
    reportSiteState(ctx, { queued: arriving, running, busy, total: this.crs.size });
  }

  private handle(ctx: ActorContext<Message>, msg: Message): void {
    switch (msg.type) {
      case 'dag.run':
        return this.accept(ctx, msg);
      case 'timer.dag-begin':
        return this.begin(ctx, msg.jobId);
      case 'timer.dag-resource':
        return this.finishDue(ctx, msg.resource, msg.due_s);
      case 'dag.stop':
        return this.stop(ctx, msg.jobId);
      case 'dag.kill':
        return this.kill(ctx, msg.jobId, msg.reason);
      case 'timer.dag-checkpointed':
        return this.checkpointed(ctx, msg.jobId);
      case 'timer.dag-report':
        ctx.send(this.o.informationService, {
          type: 'dag.progress',
          site: this.o.site,
          tasks: this.progress(ctx.now()),
        });
        ctx.schedule(this.o.progress_period_s, { type: 'timer.dag-report' });
        return;
      default:
        ctx.log.warn({ type: msg.type, site: this.o.site }, 'DAG site ignored an unexpected message');
        ctx.metrics.count('messages.unexpected');
    }
  }

  private accept(ctx: ActorContext<Message>, run: DagRun): void {
    if (!this.crs.has(run.resource))
      throw new Error(`assertion: ${run.job.id} sent to resource ${run.resource}, which is not at ${this.o.site}`);
    if (this.tasks.has(run.job.id))
      throw new Error(`assertion: ${run.job.id} sent to ${this.o.site} while it is still here`);
    const hosted: Hosted = { run, total_mi: trueWork_mi(run.job), phase: 'arriving' };
    this.tasks.set(run.job.id, hosted);
    hosted.timer = ctx.schedule(run.delay_s, { type: 'timer.dag-begin', jobId: run.job.id });
  }

  /** Its inputs (or checkpoint) are here: it runs the work it has left. */
  private begin(ctx: ActorContext<Message>, jobId: string): void {
    const t = this.tasks.get(jobId)!;
    const now = ctx.now();
    t.phase = 'running';
    t.timer = undefined;
    this.crs.get(t.run.resource)!.start(now, jobId, Math.max(0, t.total_mi - t.run.done_mi), t.run.initial);
    this.arm(ctx, t.run.resource);
    // Each run on a CR, begin and end, with the work done: the evidence that a task ran in one place at a time and kept its checkpoint.
    ctx.log.info(
      { event: 'dag.begin', jobId, resource: t.run.resource, time_s: now, done_mi: t.run.done_mi },
      'task run begins',
    );
    if (t.run.first) {
      // One line per task's first start: the evidence, besides jobs.csv, that it ran once.
      ctx.log.info({ event: 'job.started', jobId, time_s: now, procs: t.run.job.procs }, 'job started');
      countJobStarted(ctx, now - t.run.job.submit_s);
      ctx.send(DRIVER, {
        type: MessageType.JobStarted,
        jobId,
        site: this.o.site,
        time_s: now,
        resources: '',
        trail: { copies: 1, migrations: 0, replans: 0 },
      });
    }
  }

  /**
   * A CR's next task ends. Its end is when its work ran out, the timer's due time, even where a
   * busy live process handles the timer later; nothing changed the CR's shares since the timer was
   * set (each change re-arms it), only a progress report may have read it since.
   */
  private finishDue(ctx: ActorContext<Message>, resource: string, due_s: number): void {
    this.due.delete(resource);
    const cr = this.crs.get(resource)!;
    const end_s = Math.max(due_s, cr.time_s ?? due_s);
    for (const jobId of cr.finished(end_s)) {
      cr.stop(end_s, jobId);
      const t = this.tasks.get(jobId)!;
      this.tasks.delete(jobId);
      ctx.log.info(
        { event: 'dag.end', jobId, resource, time_s: end_s, done_mi: t.total_mi, why: 'done' },
        'task run ends',
      );
      countJobCompleted(ctx);
      ctx.send(this.o.scheduler, { type: 'dag.done', jobId, resource });
      // Its migrations happened while it ran, after its start was reported: the completion carries them.
      const trail = t.run.migrations > 0 ? { trail: { copies: 1, migrations: t.run.migrations, replans: 0 } } : {};
      ctx.send(DRIVER, { type: MessageType.JobCompleted, jobId, site: this.o.site, time_s: end_s, ...trail });
      if (t.run.migrations > 0) ctx.metrics.count('dag.migrated_tasks_completed');
    }
    this.arm(ctx, resource);
  }

  /**
   * The site's process died at `crashed_s` and is back: every task running on its CRs lost the
   * work it did since its last checkpoint (its run's `done_mi`: none on a first run; §3 checkpoints
   * only to migrate) and runs again from there, on the same CR, now; its inputs are still on the
   * site's disk. Tasks whose inputs were on their way, or whose checkpoint was being written, carry
   * on (their timers come due now). The task is not lost: its start stays its first one.
   */
  recover(ctx: ActorContext<Message>, crashed_s: number): void {
    const now = ctx.now();
    for (const [resource, cr] of this.crs) {
      const lost = cr.running(crashed_s);
      if (lost.length === 0) continue;
      for (const r of lost) {
        const t = this.tasks.get(r.id)!;
        cr.stop(crashed_s, r.id);
        const done_mi = t.total_mi - Math.max(0, r.remaining_mi);
        const lost_mi = Math.max(0, done_mi - t.run.done_mi);
        ctx.metrics.count('dag.crash_restarts');
        ctx.metrics.count('dag.lost_mi', lost_mi);
        ctx.metrics.count('jobs.lost_processor_s', lost_mi / cr.mips);
        ctx.log.info(
          { event: 'dag.end', jobId: r.id, resource, time_s: crashed_s, done_mi, why: 'crashed' },
          'task run ends',
        );
      }
      for (const r of lost) {
        const t = this.tasks.get(r.id)!;
        cr.start(now, r.id, Math.max(0, t.total_mi - t.run.done_mi), t.run.initial);
        ctx.log.info(
          { event: 'dag.begin', jobId: r.id, resource, time_s: now, done_mi: t.run.done_mi },
          'task run begins',
        );
      }
      this.arm(ctx, resource);
    }
    this.reportState(ctx);
  }

  /** Checkpoint and stop (§3): the work done so far is kept, at the checkpoint server. */
  private stop(ctx: ActorContext<Message>, jobId: string): void {
    const t = this.tasks.get(jobId);
    if (!t || t.phase === 'checkpointing') {
      // It finished (or is already stopping) before the stop arrived: its dag.done is on its way.
      ctx.metrics.count('dag.stops_too_late');
      return;
    }
    const now = ctx.now();
    t.begun = !t.run.first || t.phase === 'running';
    if (t.phase === 'arriving') {
      ctx.cancel(t.timer!);
      t.done_mi = t.run.done_mi;
    } else {
      const left = this.crs.get(t.run.resource)!.stop(now, jobId);
      t.done_mi = t.total_mi - left;
      this.arm(ctx, t.run.resource);
      ctx.log.info(
        { event: 'dag.end', jobId, resource: t.run.resource, time_s: now, done_mi: t.done_mi, why: 'stopped' },
        'task run ends',
      );
    }
    t.phase = 'checkpointing';
    const [lo, hi] = this.o.checkpoint_delay_s;
    t.timer = ctx.schedule(ctx.rng.uniform(lo, hi), { type: 'timer.dag-checkpointed', jobId });
  }

  /** Its job failed (§4's limit): it stops, no checkpoint kept, and the driver hears it failed. */
  private kill(ctx: ActorContext<Message>, jobId: string, reason: string): void {
    const t = this.tasks.get(jobId);
    if (!t || t.phase === 'checkpointing') {
      // It finished before the kill arrived (its completion is on its way), or a checkpoint is being
      // written for a move, and the scheduler fails it when the checkpoint is stored.
      ctx.metrics.count('dag.kills_too_late');
      return;
    }
    const now = ctx.now();
    this.tasks.delete(jobId);
    if (t.phase === 'arriving') {
      ctx.cancel(t.timer!);
    } else {
      const left = this.crs.get(t.run.resource)!.stop(now, jobId);
      this.arm(ctx, t.run.resource);
      ctx.log.info(
        { event: 'dag.end', jobId, resource: t.run.resource, time_s: now, done_mi: t.total_mi - left, why: 'killed' },
        'task run ends',
      );
    }
    ctx.metrics.count('dag.tasks_killed');
    ctx.send(DRIVER, {
      type: MessageType.JobFailed,
      jobId,
      time_s: now,
      reason,
      trail: { copies: 1, migrations: t.run.migrations, replans: 0 },
    });
  }

  private checkpointed(ctx: ActorContext<Message>, jobId: string): void {
    const t = this.tasks.get(jobId)!;
    this.tasks.delete(jobId);
    ctx.metrics.count('dag.checkpoints');
    ctx.metrics.count('dag.bytes.checkpoint', this.o.checkpoint_bytes);
    ctx.send(this.o.checkpointServer, {
      type: 'dag.checkpoint',
      jobId,
      resource: t.run.resource,
      done_mi: t.done_mi!,
      bytes: this.o.checkpoint_bytes,
      begun: t.begun!,
    });
  }

  /** One timer per CR, at its next task's end at the current shares. */
  private arm(ctx: ActorContext<Message>, resource: string): void {
    const old = this.due.get(resource);
    if (old !== undefined) ctx.cancel(old);
    this.due.delete(resource);
    const now = ctx.now();
    const cr = this.crs.get(resource)!;
    // Every change to a CR passes here: what it ran since, the site's busy time (its utilization).
    const busy_s = cr.takeBusy_s();
    if (busy_s > 0) ctx.metrics.count(siteBusyCounter(this.o.site), busy_s);
    // After a late timer the CR's time is its last end's, behind the clock: the next end counts from there.
    const next = cr.nextFinish_s(cr.time_s ?? now);
    if (next !== undefined)
      this.due.set(
        resource,
        ctx.schedule(Math.max(0, next - now), { type: 'timer.dag-resource', resource, due_s: next }),
      );
  }

  private progress(now: number): DagTaskProgress[] {
    const out: DagTaskProgress[] = [];
    for (const cr of this.crs.values()) {
      for (const r of cr.running(now)) {
        const t = this.tasks.get(r.id)!;
        const done = Math.max(0, t.total_mi - r.remaining_mi);
        out.push({
          jobId: r.id,
          resource: cr.id,
          done_mi: done,
          progress:
            t.total_mi > 0
              ? Math.min(1, Math.max(0, progressAt(this.o.model, done / t.total_mi, this.o.model_exponent)))
              : 1,
        });
      }
    }
    return out;
  }
}
