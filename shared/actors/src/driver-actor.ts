import type { Job } from '@gridemu/model';
import { newRecord, type JobRecord } from '@gridemu/metrics';
import { MessageType, type Address, type Message } from '@gridemu/protocol';
import type { Actor, ActorContext } from '@gridemu/runtime';

/**
 * Replays the workload: submits each job to its origin site at its submission time, and keeps
 * exactly one record per job from what the sites report. Jobs that can never run (no processor
 * count in the trace) are recorded as REJECTED at their submission time without being sent.
 */
export class DriverActor implements Actor<Message> {
  readonly records: JobRecord[];
  private readonly byId = new Map<string, JobRecord>();
  private next = 0;
  private finishedCount = 0;
  /** Runs reported lost before their start arrived, by job. */
  private readonly lostBeforeStart = new Map<string, { site: string; start_s: number }[]>();

  constructor(
    private readonly jobs: readonly Job[],
    private readonly submitTo: (job: Job) => Address,
  ) {
    this.records = jobs.map((j) => newRecord(j));
    for (const r of this.records) this.byId.set(r.job.id, r);
  }

  /** Whether every job has its final outcome (finished or rejected). */
  get done(): boolean {
    return this.finishedCount === this.jobs.length;
  }

  /** Jobs with a final outcome (finished or rejected). */
  get finished(): number {
    return this.finishedCount;
  }

  get total(): number {
    return this.jobs.length;
  }

  start(ctx: ActorContext<Message>): void {
    this.scheduleNext(ctx);
  }

  receive(ctx: ActorContext<Message>, msg: Message): void {
    this.handle(ctx, msg);
    // The run's progress, for the driver process's /metrics.
    ctx.metrics.set('run.jobs_finished', this.finished);
    ctx.metrics.set('run.jobs_total', this.total);
  }

  private handle(ctx: ActorContext<Message>, msg: Message): void {
    switch (msg.type) {
      case MessageType.SubmitDue:
        this.submitDue(ctx);
        return;
      case MessageType.JobStarted: {
        const r = this.record(msg.jobId);
        if (this.forgetLostRun(msg.jobId, msg.site, msg.time_s)) return;
        if (r.start_s !== undefined)
          throw new Error(`assertion: ${msg.jobId} started twice (at ${r.execSite} and ${msg.site})`);
        r.start_s = msg.time_s;
        r.execSite = msg.site;
        r.resources = msg.resources;
        // What the actors did to the job on its way here, as they reported it (DESIGN.md, "Results").
        r.copies = msg.trail.copies;
        r.migrations = msg.trail.migrations;
        r.replans = msg.trail.replans;
        return;
      }
      case MessageType.JobLost: {
        // The run died in a crash: forget its start; the job's next start is its run.
        const r = this.record(msg.jobId);
        const current = r.execSite === msg.site && r.start_s === msg.started_s;
        if (r.finish_s !== undefined && current)
          throw new Error(`assertion: ${msg.jobId} lost at ${msg.site} after it finished there`);
        r.lostRuns.push({ site: msg.site, start_s: msg.started_s, end_s: msg.time_s });
        if (!current) {
          // The start of the lost run has not arrived yet. A durable message is resent, not
          // ordered: a start published just before the crash, or lost with a nats-server restart,
          // is resent after the restarted site's report of the loss. Skip it when it comes.
          const runs = this.lostBeforeStart.get(msg.jobId) ?? [];
          runs.push({ site: msg.site, start_s: msg.started_s });
          this.lostBeforeStart.set(msg.jobId, runs);
          return;
        }
        r.start_s = undefined;
        r.execSite = undefined;
        r.resources = undefined;
        return;
      }
      case MessageType.JobCompleted: {
        const r = this.record(msg.jobId);
        r.finish_s = msg.time_s;
        if (msg.trail) {
          // Moves made while it ran (a migrated DAG task, paper 003): the trail at its end is the whole of it.
          r.copies = msg.trail.copies;
          r.migrations = msg.trail.migrations;
          r.replans = msg.trail.replans;
        }
        this.finishedCount++;
        return;
      }
      case MessageType.JobFailed: {
        const r = this.record(msg.jobId);
        if (r.finish_s !== undefined || r.failReason !== undefined)
          throw new Error(`assertion: ${msg.jobId} given up after it had an outcome`);
        r.failReason = msg.reason;
        r.failed_s = msg.time_s;
        r.copies = msg.trail.copies;
        r.migrations = msg.trail.migrations;
        r.replans = msg.trail.replans;
        this.finishedCount++;
        return;
      }
      case MessageType.JobRejected: {
        const r = this.record(msg.jobId);
        r.rejectReason = msg.reason;
        this.finishedCount++;
        return;
      }
      default:
        ctx.log.warn({ type: msg.type }, 'driver ignored an unexpected message');
        ctx.metrics.count('messages.unexpected');
    }
  }

  private submitDue(ctx: ActorContext<Message>): void {
    const now = ctx.now();
    for (let job = this.jobs[this.next]; job !== undefined && job.submit_s <= now; job = this.jobs[this.next]) {
      this.next++;
      if (job.rejectReason !== undefined) {
        this.record(job.id).rejectReason = job.rejectReason;
        this.finishedCount++;
        ctx.metrics.count(`jobs.rejected.${job.rejectReason}`);
        continue;
      }
      ctx.send(this.submitTo(job), { type: MessageType.JobSubmit, job });
    }
    this.scheduleNext(ctx);
  }

  private scheduleNext(ctx: ActorContext<Message>): void {
    const job = this.jobs[this.next];
    if (job !== undefined) ctx.schedule(Math.max(0, job.submit_s - ctx.now()), { type: MessageType.SubmitDue });
  }

  /** Whether the start of (site, start_s) is of a run already reported lost; if so, it is forgotten. */
  private forgetLostRun(jobId: string, site: string, start_s: number): boolean {
    const runs = this.lostBeforeStart.get(jobId);
    const i = runs?.findIndex((l) => l.site === site && l.start_s === start_s) ?? -1;
    if (i < 0) return false;
    runs!.splice(i, 1);
    if (runs!.length === 0) this.lostBeforeStart.delete(jobId);
    return true;
  }

  private record(id: string): JobRecord {
    const r = this.byId.get(id);
    if (!r) throw new Error(`assertion: report about unknown job ${id}`);
    return r;
  }
}
