import { DRIVER, MessageType, siteAddress, type Address, type JobTrail, type Message } from '@gridemu/protocol';
import { transferTime_s, type Job } from '@gridemu/model';
import type { Actor, ActorContext, TimerId } from '@gridemu/runtime';
import { intervalSet, ProcessorIds, type ConfirmedRuns } from '@gridemu/actors';
import { Paper001MessageType } from './messages.js';
import { countJobCompleted, countJobStarted } from '../site-metrics.js';

export interface ExecutorOptions {
  /** Where job reports go (the driver). */
  readonly resultsTo?: Address;
  /** Who decides what runs here and must hear when processors free up (the site's scheduler, or the central one). */
  readonly scheduler?: Address;
  /** With a transfer cost (paper 001 §7), a job from another site first moves its memory at this rate. */
  readonly transferBandwidth_mbps?: number;
}

interface Running {
  readonly job: Job;
  readonly trail: JobTrail;
  readonly ids: [number, number][];
  /** When its processors were taken (its transfer, if any, starts then). */
  readonly allocated_s: number;
  /** When it starts computing: after its transfer. */
  readonly start_s: number;
  /** When its run ends: its timer's due time. */
  readonly ends_s: number;
  readonly timer: TimerId;
  /** Started optimistically and not yet confirmed: nothing is reported until it is. */
  provisional: boolean;
  /** When a provisional job ended, if it ended before its confirmation came. */
  ended_s?: number;
}

/**
 * Runs jobs: gives each the lowest free processor ids, lets it run for its actual run time on the
 * runtime's clock, then frees the processors and tells the scheduler and the results collector.
 * A job started optimistically (paper 001's K copies, `meta.claim: optimistic`) is reported only
 * once confirmed; killed, it reports nothing, and its processor-seconds are counted as wasted.
 */
export class ExecutorActor implements Actor<Message>, ConfirmedRuns {
  private readonly ids: ProcessorIds;
  private readonly running = new Map<string, Running>();
  private readonly scheduler: Address;
  private readonly resultsTo: Address;

  constructor(
    readonly siteId: string,
    cpus: number,
    private readonly options: ExecutorOptions = {},
  ) {
    this.ids = new ProcessorIds(cpus);
    this.scheduler = options.scheduler ?? siteAddress(siteId, 'scheduler');
    this.resultsTo = options.resultsTo ?? DRIVER;
  }

  /** Jobs running here for good (started and not provisional): a job must never be in two sites' lists at once. */
  *confirmedRuns(): Iterable<string> {
    for (const [id, r] of this.running) if (!r.provisional && r.ended_s === undefined) yield id;
  }

  receive(ctx: ActorContext<Message>, msg: Message): void {
    switch (msg.type) {
      case Paper001MessageType.JobStart: {
        const { job } = msg;
        if (this.running.has(job.id)) throw new Error(`assertion: ${job.id} started twice at ${this.siteId}`);
        const ids = this.ids.take(job.procs);
        const bandwidth = this.options.transferBandwidth_mbps;
        const transfer_s = bandwidth !== undefined && job.origin !== this.siteId ? transferTime_s(job, bandwidth) : 0;
        if (transfer_s > 0) {
          ctx.metrics.count('transfers');
          ctx.metrics.count('transfers.seconds', transfer_s);
        }
        const lasts_s = transfer_s + job.run_s;
        const timer = ctx.schedule(lasts_s, { type: MessageType.JobEnds, jobId: job.id });
        // Processors are taken now, and given back when JobEnds is handled: the record says the same.
        const r: Running = {
          job,
          trail: msg.trail,
          ids,
          allocated_s: ctx.now(),
          start_s: ctx.now() + transfer_s,
          ends_s: ctx.now() + lasts_s,
          timer,
          provisional: msg.provisional === true,
        };
        this.running.set(job.id, r);
        if (!r.provisional) this.reportStart(ctx, r);
        return;
      }
      case MessageType.JobEnds: {
        const r = this.running.get(msg.jobId);
        if (!r) throw new Error(`assertion: ${msg.jobId} ended at ${this.siteId} but was not running`);
        this.ids.give(r.ids);
        ctx.send(this.scheduler, { type: Paper001MessageType.JobFinished, jobId: msg.jobId });
        // The end is recorded when the job's run ended: the time its timer was due. A
        // late timer's handler reads the actor's clock, which a later delivery may already have
        // moved past that (live, a busy turn; replayed, the same rule), and recorded there a job ran
        // up to 2,000 emulated s longer than it did. The lag shows in when the scheduler hears of
        // the end and starts what waits, not in the job's own run time.
        const end_s = r.ends_s;
        if (r.provisional) {
          r.ended_s = end_s;
          return;
        }
        this.running.delete(msg.jobId);
        countJobCompleted(ctx);
        ctx.send(this.resultsTo, {
          type: MessageType.JobCompleted,
          jobId: msg.jobId,
          site: this.siteId,
          time_s: end_s,
        });
        return;
      }
      case Paper001MessageType.JobConfirm: {
        const r = this.running.get(msg.jobId);
        if (!r?.provisional)
          throw new Error(`assertion: confirmation for ${msg.jobId}, which is not provisional at ${this.siteId}`);
        r.provisional = false;
        this.reportStart(ctx, r);
        if (r.ended_s !== undefined) {
          this.running.delete(msg.jobId);
          countJobCompleted(ctx);
          ctx.send(this.resultsTo, {
            type: MessageType.JobCompleted,
            jobId: msg.jobId,
            site: this.siteId,
            time_s: r.ended_s,
          });
        }
        return;
      }
      case Paper001MessageType.JobKill: {
        const r = this.running.get(msg.jobId);
        if (!r?.provisional)
          throw new Error(`assertion: kill for ${msg.jobId}, which is not provisional at ${this.siteId}`);
        this.running.delete(msg.jobId);
        const stopped_s = r.ended_s ?? ctx.now();
        if (r.ended_s === undefined) {
          ctx.cancel(r.timer);
          this.ids.give(r.ids);
          ctx.send(this.scheduler, { type: Paper001MessageType.JobFinished, jobId: msg.jobId });
        }
        ctx.metrics.count('optimistic.killed');
        ctx.metrics.count('optimistic.wasted_processor_s', r.job.procs * (stopped_s - r.allocated_s));
        return;
      }
      default:
        ctx.log.warn({ type: msg.type, site: this.siteId }, 'executor ignored an unexpected message');
        ctx.metrics.count('messages.unexpected');
    }
  }

  /**
   * The site's process died at `crashed_s`: every job running here died with it. Each
   * is reported lost, to the scheduler, which queues it again, and, if its start was reported, to
   * the results; it runs again from the start.
   */
  recover(ctx: ActorContext<Message>, crashed_s: number): void {
    for (const [jobId, r] of this.running) {
      if (r.ended_s === undefined) {
        ctx.cancel(r.timer);
        this.ids.give(r.ids);
      }
      this.running.delete(jobId);
      ctx.metrics.count('jobs.lost_runs');
      ctx.metrics.count(
        'jobs.lost_processor_s',
        r.job.procs * (Math.min(crashed_s, r.ended_s ?? crashed_s) - r.allocated_s),
      );
      // `provisional`: an optimistic run before its verdict (paper 001 §7), never reported as a start.
      ctx.log.info(
        {
          event: 'job.lost',
          jobId,
          time_s: crashed_s,
          started_s: r.start_s,
          ...(r.provisional ? { provisional: true } : {}),
        },
        'job lost in a crash',
      );
      const lost = {
        type: MessageType.JobLost,
        jobId,
        site: this.siteId,
        started_s: r.start_s,
        time_s: crashed_s,
      } as const;
      ctx.send(this.scheduler, lost);
      if (!r.provisional) ctx.send(this.resultsTo, lost);
    }
  }

  private reportStart(ctx: ActorContext<Message>, r: Running): void {
    // One line per start in a live site's log: the evidence, besides jobs.csv, that a job ran once.
    ctx.log.info({ event: 'job.started', jobId: r.job.id, time_s: r.start_s, procs: r.job.procs }, 'job started');
    countJobStarted(ctx, r.start_s - r.job.submit_s);
    ctx.send(this.resultsTo, {
      type: MessageType.JobStarted,
      jobId: r.job.id,
      site: this.siteId,
      time_s: r.start_s,
      resources: intervalSet(r.ids),
      trail: r.trail,
    });
  }
}
