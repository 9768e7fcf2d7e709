import { FRESH_TRAIL, type Job, type SiteSpec } from '@gridemu/model';
import { DRIVER, MessageType, type Address, type Message } from '@gridemu/protocol';
import type { Actor, ActorContext, TimerId } from '@gridemu/runtime';
import { intervalSet, ProcessorIds } from '@gridemu/actors';
import { attemptFate, SITE_CRASH, type AttemptFate, type FailureDraw } from './failures.js';
import type { VoUsage } from './messages.js';
import type { CycleTicks } from '../cycle-ticks.js';
import { managerCycle } from './manager.js';
import { burstCap, type GruberMeta } from './meta.js';
import type { AlternatingPeriods } from '../alternating-periods.js';
import { misbehaviourOf } from './misbehaviour.js';
import { SiteQueue, type QueuedJob } from './site-queue.js';
import { countJobCompleted, countJobStarted, reportSiteState } from '../site-metrics.js';

interface Entry {
  readonly job: Job;
  /** 0 for a local user's job (from the driver); else the submit host's attempt number. */
  readonly attempt: number;
  /** Who hears of it: the submit host that sent it, or the driver for local jobs. */
  readonly owner: Address;
  readonly queued_s: number;
  readonly fate: AttemptFate | undefined;
  /** While it runs: its processors, since when, when its run ends (or fails), and the timer that ends it. */
  ids?: [number, number][];
  started_s?: number;
  ends_s?: number;
  timer?: TimerId;
}

/**
 * A site's local resource manager (Condor, PBS or LSF on Grid3): queues the jobs sent to it,
 * starts them within each VO's limit (its burst share of the site), runs each for its run time
 * over the site's CPU speed, and fails the attempts the failure model says fail, at submission,
 * at stage-in or part-way through the run (Tables XI, XII). Local users' jobs come from the driver
 * and never fail; grid jobs come from submit hosts, which hear of every start, end and failure.
 *
 * Its queue is durable state, as a Condor schedd's or a PBS server's is: a crash of its process
 * loses only the runs on its CPUs (recover).
 */
export class GruberSiteActor implements Actor<Message> {
  private readonly queue: SiteQueue;
  private readonly ids: ProcessorIds;
  private readonly entries = new Map<string, Entry>();
  private readonly speed: number;
  private readonly disk: Map<string, number> = new Map();
  private readonly epochCpu = new Map<string, number>();
  private accounted_s = 0;
  private readonly draw: FailureDraw;
  private readonly cycle: CycleTicks;
  /** Present where the site's manager is prone to starting no grid job for a while (§4.2.1). */
  private readonly misbehaviour: AlternatingPeriods | undefined;
  /** The time of the manager's next pass already scheduled, if any. */
  private passAt_s: number | undefined;

  constructor(
    private readonly site: SiteSpec,
    private readonly meta: GruberMeta,
    seed: number,
    /** What the seed drew for this site: a manager prone to misbehave (§4.2.1), a missing environment (§4.2.3). */
    drawn: { readonly prone: boolean; readonly misconfigured: boolean } = { prone: false, misconfigured: false },
  ) {
    const policy = meta.site_policy[site.id] ?? {};
    this.queue = new SiteQueue(
      site.cpus,
      new Map(Object.entries(policy).map(([vo, p]) => [vo, burstCap(p.burst, site.cpus)])),
    );
    this.ids = new ProcessorIds(site.cpus);
    this.speed = site.speed ?? 1;
    this.draw = {
      seed,
      rate: meta.failures.site_rates[site.id] ?? meta.failures.rate,
      categories: meta.failures.categories,
      misconfigured: drawn.misconfigured,
    };
    const manager = meta.managers[site.id];
    this.cycle = managerCycle(manager === undefined ? 0 : meta.manager_cycle_s[manager], seed, site.id);
    this.misbehaviour = drawn.prone && meta.misbehaving ? misbehaviourOf(meta.misbehaving, seed, site.id) : undefined;
  }

  receive(ctx: ActorContext<Message>, msg: Message, from: Address): void {
    this.handle(ctx, msg, from);
    this.reportState(ctx);
  }

  /** The site's state as its gauges (site-metrics.ts), after each message and after a restart. */
  private reportState(ctx: ActorContext<Message>): void {
    reportSiteState(ctx, {
      queued: this.queue.waitingJobs,
      running: this.queue.runningJobs,
      busy: this.queue.cpus - this.queue.freeCpus,
      total: this.queue.cpus,
    });
  }

  private handle(ctx: ActorContext<Message>, msg: Message, from: Address): void {
    switch (msg.type) {
      case MessageType.JobSubmit:
        return this.arrive(ctx, { job: msg.job, attempt: 0, owner: DRIVER, queued_s: ctx.now(), fate: undefined });
      case 'gruber.submit': {
        const fate = attemptFate(this.draw, this.site.id, msg.job.id, msg.attempt);
        if (fate?.stage === 'submit') {
          // Refused at the gatekeeper: it never reaches the queue.
          ctx.metrics.count(`gruber.failures.${fate.category}`);
          ctx.send(from, {
            type: 'gruber.failed',
            jobId: msg.job.id,
            attempt: msg.attempt,
            site: this.site.id,
            time_s: ctx.now(),
            category: fate.category,
          });
          return;
        }
        return this.arrive(ctx, { job: msg.job, attempt: msg.attempt, owner: from, queued_s: ctx.now(), fate });
      }
      case 'gruber.withdraw': {
        const e = this.entries.get(msg.jobId);
        if (!e || e.attempt !== msg.attempt || !this.queue.withdraw(msg.jobId)) return; // it started, or is gone: its owner hears that instead
        this.entries.delete(msg.jobId);
        this.releaseDisk(e);
        ctx.send(from, { type: 'gruber.withdrawn', jobId: msg.jobId, attempt: msg.attempt });
        return;
      }
      case MessageType.JobEnds:
        return this.ended(ctx, msg.jobId, undefined);
      case 'timer.gruber-run-fails':
        return this.ended(ctx, msg.jobId, 'application');
      case 'timer.gruber-manager-pass':
        this.passAt_s = undefined;
        return this.pass(ctx);
      case 'gruber.usage-query':
        ctx.send(from, this.usage(ctx.now()));
        return;
      default:
        ctx.log.warn({ type: msg.type, site: this.site.id }, 'resource manager ignored an unexpected message');
        ctx.metrics.count('messages.unexpected');
    }
  }

  /** The site's usage by VO now, as its monitor reports it. */
  usage(now: number): Message {
    this.account(now);
    const vos = new Map<string, { running_cpus: number; queued_cpus: number; queued_jobs: number; disk_mb: number }>();
    const of = (vo: string) => {
      let u = vos.get(vo);
      if (!u)
        vos.set(
          vo,
          (u = {
            running_cpus: this.queue.runningCpus(vo),
            queued_cpus: 0,
            queued_jobs: 0,
            disk_mb: this.disk.get(vo) ?? 0,
          }),
        );
      return u;
    };
    for (const vo of Object.keys(this.meta.site_policy[this.site.id] ?? {})) of(vo);
    for (const q of this.queue.queued()) {
      const u = of(q.vo);
      u.queued_cpus += q.cpus;
      u.queued_jobs += q.jobs;
    }
    const list: VoUsage[] = [...vos].map(([vo, u]) => ({ vo, ...u, epoch_cpu_s: this.epochCpu.get(vo) ?? 0 }));
    return {
      type: 'gruber.usage',
      site: this.site.id,
      time_s: now,
      cpus: this.site.cpus,
      free_cpus: this.queue.freeCpus,
      vos: list,
    };
  }

  private arrive(ctx: ActorContext<Message>, e: Entry): void {
    const vo = e.job.vo ?? '';
    if (this.entries.has(e.job.id)) throw new Error(`assertion: ${e.job.id} arrived twice at ${this.site.id}`);
    if (!this.queue.fits({ id: e.job.id, vo, procs: e.job.procs })) {
      if (e.attempt === 0) {
        const reason = e.job.procs > this.site.cpus ? 'wider_than_site' : 'wider_than_vo_limit';
        ctx.metrics.count(`jobs.rejected.${reason}`);
        ctx.send(DRIVER, { type: MessageType.JobRejected, jobId: e.job.id, site: this.site.id, reason });
      } else if (this.meta.cannot_run === 'queue') {
        // Queued all the same: it never starts, and its submit host's starvation re-plan takes it away.
        ctx.metrics.count('gruber.queued_cannot_run');
        return this.accept(ctx, e, vo);
      } else {
        ctx.metrics.count('gruber.failures.too_wide');
        ctx.send(e.owner, {
          type: 'gruber.failed',
          jobId: e.job.id,
          attempt: e.attempt,
          site: this.site.id,
          time_s: ctx.now(),
          category: 'too_wide',
        });
      }
      return;
    }
    this.accept(ctx, e, vo);
  }

  private accept(ctx: ActorContext<Message>, e: Entry, vo: string): void {
    this.entries.set(e.job.id, e);
    this.disk.set(vo, (this.disk.get(vo) ?? 0) + (e.job.disk_mb ?? 0));
    this.queue.add(queuedJob(e));
    this.startWhatFits(ctx);
  }

  /**
   * The manager's pass over its queue: at once for a manager that starts what fits on every event,
   * else at its cycle's next tick. While a prone site misbehaves, grid jobs stay queued (its own
   * users' jobs still start), and a pass is due when the period ends.
   */
  private startWhatFits(ctx: ActorContext<Message>): void {
    const now = ctx.now();
    const tick = this.cycle.nextTick(now);
    if (tick > now) this.passAt(ctx, tick);
    else this.pass(ctx);
  }

  private pass(ctx: ActorContext<Message>): void {
    const now = ctx.now();
    this.account(now);
    const holding = this.misbehaviour?.inPeriodAt(now) ?? false;
    // A failed stage-in gives its CPUs straight back, which may start another: go round until nothing starts.
    for (let starts = this.queue.startable(holding); starts.length > 0; starts = this.queue.startable(holding)) {
      for (const q of starts) this.launch(ctx, this.entries.get(q.id)!, now);
    }
    if (holding && this.queue.holdsSome) this.passAt(ctx, this.cycle.nextTick(this.misbehaviour!.nextChange(now)));
  }

  /** Schedules a pass at `t` unless one comes sooner. */
  private passAt(ctx: ActorContext<Message>, t: number): void {
    if (this.passAt_s !== undefined && this.passAt_s <= t) return;
    this.passAt_s = t;
    ctx.schedule(t - ctx.now(), { type: 'timer.gruber-manager-pass' });
  }

  private launch(ctx: ActorContext<Message>, e: Entry, now: number): void {
    const id = e.job.id;
    if (e.fate?.stage === 'stage-in') {
      // Stage-in failed (RLS, GridFTP, or no application environment here): the slot is given back at once.
      this.queue.finish(id);
      this.entries.delete(id);
      this.releaseDisk(e);
      ctx.metrics.count(`gruber.failures.${e.fate.category}`);
      ctx.send(e.owner, {
        type: 'gruber.failed',
        jobId: id,
        attempt: e.attempt,
        site: this.site.id,
        time_s: now,
        category: e.fate.category,
      });
      return;
    }
    e.ids = this.ids.take(e.job.procs);
    e.started_s = now;
    const run_s = e.job.run_s / this.speed;
    const fails = e.fate?.stage === 'run';
    const lasts_s = fails ? run_s * e.fate!.at : run_s;
    e.ends_s = now + lasts_s;
    e.timer = ctx.schedule(
      lasts_s,
      fails ? { type: 'timer.gruber-run-fails', jobId: id } : { type: MessageType.JobEnds, jobId: id },
    );
    const resources = intervalSet(e.ids);
    // One line per start in the site's log, as the executor writes: evidence, besides jobs.csv, of where each run was.
    ctx.log.info(
      { event: 'job.started', jobId: id, time_s: now, procs: e.job.procs, attempt: e.attempt },
      'job started',
    );
    countJobStarted(ctx, now - e.job.submit_s);
    if (e.attempt === 0) {
      ctx.send(DRIVER, {
        type: MessageType.JobStarted,
        jobId: id,
        site: this.site.id,
        time_s: now,
        resources,
        trail: FRESH_TRAIL,
      });
    } else {
      ctx.send(e.owner, {
        type: 'gruber.started',
        jobId: id,
        attempt: e.attempt,
        site: this.site.id,
        time_s: now,
        queued_s: e.queued_s,
        resources,
      });
    }
  }

  private ended(ctx: ActorContext<Message>, jobId: string, failure: 'application' | undefined): void {
    const e = this.entries.get(jobId);
    if (!e?.ids || e.ends_s === undefined)
      throw new Error(`assertion: ${jobId} ended at ${this.site.id} but was not running`);
    this.account(ctx.now());
    this.ids.give(e.ids);
    this.queue.finish(jobId);
    this.entries.delete(jobId);
    this.releaseDisk(e);
    // Reported when its run ended (the timer's due time), not when a late timer was handled (executor-actor.ts).
    const end_s = e.ends_s;
    if (!failure) countJobCompleted(ctx);
    if (e.attempt === 0) {
      ctx.send(DRIVER, { type: MessageType.JobCompleted, jobId, site: this.site.id, time_s: end_s });
    } else if (failure) {
      ctx.metrics.count(`gruber.failures.${failure}`);
      ctx.send(e.owner, {
        type: 'gruber.failed',
        jobId,
        attempt: e.attempt,
        site: this.site.id,
        time_s: end_s,
        category: failure,
      });
    } else {
      ctx.send(e.owner, { type: 'gruber.ended', jobId, attempt: e.attempt, site: this.site.id, time_s: end_s });
    }
    this.startWhatFits(ctx);
  }

  /**
   * The site's process died at `crashed_s` and is back: every run on its CPUs died with it. A local
   * user's job is reported lost to the results and goes back to the head of the queue, to run
   * again from the start. A grid job's attempt failed here (SITE_CRASH): its submit host plans it
   * again elsewhere, as after any failure (§4.2.4). What waited in the queue is still there.
   */
  recover(ctx: ActorContext<Message>, crashed_s: number): void {
    this.account(crashed_s);
    const requeued: Entry[] = [];
    const lost = [...this.entries.values()].filter((e) => e.ids !== undefined);
    lost.sort((a, b) => a.started_s! - b.started_s!);
    for (const e of lost) {
      const id = e.job.id;
      ctx.cancel(e.timer!);
      this.ids.give(e.ids!);
      this.queue.finish(id);
      ctx.metrics.count('jobs.lost_processor_s', e.job.procs * (crashed_s - e.started_s!));
      if (e.attempt === 0) {
        ctx.metrics.count('jobs.lost_runs');
        ctx.log.info(
          { event: 'job.lost', jobId: id, time_s: crashed_s, started_s: e.started_s },
          'job lost in a crash',
        );
        ctx.send(DRIVER, {
          type: MessageType.JobLost,
          jobId: id,
          site: this.site.id,
          started_s: e.started_s!,
          time_s: crashed_s,
        });
        delete e.ids;
        delete e.started_s;
        delete e.ends_s;
        delete e.timer;
        requeued.push(e);
      } else {
        this.entries.delete(id);
        this.releaseDisk(e);
        ctx.metrics.count(`gruber.failures.${SITE_CRASH}`);
        ctx.send(e.owner, {
          type: 'gruber.failed',
          jobId: id,
          attempt: e.attempt,
          site: this.site.id,
          time_s: crashed_s,
          category: SITE_CRASH,
        });
      }
    }
    this.queue.addFirst(requeued.map(queuedJob));
    // Nothing ran while it was down (and an epoch may have ended meanwhile).
    this.account(ctx.now());
    this.startWhatFits(ctx);
    this.reportState(ctx);
  }

  private releaseDisk(e: Entry): void {
    const vo = e.job.vo ?? '';
    this.disk.set(vo, Math.max(0, (this.disk.get(vo) ?? 0) - (e.job.disk_mb ?? 0)));
  }

  /** Adds each VO's CPU-seconds since the last call to the current epoch (EA, §2.2); a new epoch starts from zero. */
  private account(now: number): void {
    const epoch = this.meta.epoch_s;
    const from = Math.max(this.accounted_s, Math.floor(now / epoch) * epoch);
    if (Math.floor(now / epoch) !== Math.floor(this.accounted_s / epoch)) this.epochCpu.clear();
    const dt = now - from;
    if (dt > 0) {
      for (const vo of Object.keys(this.meta.site_policy[this.site.id] ?? {})) {
        const running = this.queue.runningCpus(vo);
        if (running > 0) this.epochCpu.set(vo, (this.epochCpu.get(vo) ?? 0) + running * dt);
      }
    }
    this.accounted_s = now;
  }
}

/** An entry as its site's queue keeps it: a grid job (attempt 1 on) is one a misbehaving manager holds. */
function queuedJob(e: Entry): QueuedJob {
  return { id: e.job.id, vo: e.job.vo ?? '', procs: e.job.procs, holdable: e.attempt > 0 };
}
