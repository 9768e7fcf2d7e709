import type { Job } from '@gridemu/model';
import { DRIVER, MessageType, type Address, type Message } from '@gridemu/protocol';
import type { Actor, ActorContext, TimerId } from '@gridemu/runtime';
import type { Candidate } from './availability.js';
import { lrmAddress } from './names.js';
import type { SiteSelector } from './selector.js';

export interface SubmitHostOptions {
  /** The group this host submits for, and its cap: CPUs its jobs may hold or ask for at once. */
  readonly group: string;
  readonly cap: number;
  readonly engine: Address;
  readonly sites: readonly string[];
  /** The sites its decision point could ever offer a job of `vo` and `cpus` (couldEverOffer). */
  readonly offerable: (vo: string, cpus: number) => readonly string[];
  readonly starvation_timeout_s: number;
  readonly retries: number;
  readonly retry_wait_s: number;
  readonly query_timeout_s: number;
}

/**
 * How many times an unanswered query's wait doubles, at most (64 × query_timeout_s). The paper
 * says nothing of a decision point that does not answer; asking again at a fixed timeout asks a
 * slow one faster than it answers, and a live run's decision point that fell behind (a round trip
 * over the timeout, a journal slow to append) got ever more queries: fuzz seed 277 live, with
 * JetStream journals, never placed 25 of its 29 tasks. Doubling bounds the queries per round trip;
 * a lost query or a crashed decision point costs at most about the time it was gone again.
 */
const QUERY_BACKOFF_DOUBLINGS = 6;

type Phase = 'querying' | 'waiting' | 'sent' | 'withdrawing' | 'running';

interface Plan {
  readonly job: Job;
  phase: Phase;
  /** Attempts sent to sites so far (each a numbered submission). */
  attempt: number;
  /** Unsuccessful submissions: failures and starvation withdrawals (§3.2's retry count). */
  unsuccessful: number;
  replans: number;
  /** Sites it failed at: never again for this job (§4.2.4). */
  readonly excluded: Set<string>;
  site?: string;
  queryId: number;
  /** Queries still unanswered. */
  readonly asked: number[];
  /** Queries that timed out since the last answer: each doubles the wait for the next. */
  timedOut: number;
  retryToken: number;
  timer?: TimerId;
  lastReason?: string;
  /** When it was first sent to a provider (Delay counts from here). */
  firstSent_s?: number;
  started?: { time_s: number; queued_s: number; resources: string; site: string };
  /**
   * When the current attempt ended, heard before its start: the site's reports are durable,
   * resent and not ordered, so a crash of this host or a bus outage between them can bring the
   * end first. Kept until the start comes.
   */
  endedBeforeStart_s?: number;
}

/**
 * A submit host (Euryale's planner with a GRUBER site selector, §2.1): the driver hands it its
 * group's jobs; it keeps at most the group's cap of CPUs in play (§3.2: "no one group can get
 * more than 25% of iVDGL CPUs"), asks its decision point which sites are available, lets the
 * selector choose, and sends the job there. A job not started within the starvation timeout is
 * withdrawn and planned again; a job that failed at a site never goes back there; after `retries`
 * unsuccessful submissions it is failed. The driver hears each job's outcome once, at its end.
 */
export class SubmitHostActor implements Actor<Message> {
  private readonly waiting: Job[] = [];
  private readonly plans = new Map<string, Plan>();
  /** Which job each query asked about, until the job stops waiting for an answer. */
  private readonly queries = new Map<number, string>();
  private inPlay = 0;
  private nextQuery = 1;

  constructor(
    private readonly selector: SiteSelector,
    private readonly options: SubmitHostOptions,
  ) {}

  receive(ctx: ActorContext<Message>, msg: Message): void {
    switch (msg.type) {
      case MessageType.JobSubmit:
        this.waiting.push(msg.job);
        return this.pump(ctx);
      case 'gruber.available': {
        // A late answer to a query that timed out is still an answer: the first one in is used.
        const jobId = this.queries.get(msg.queryId);
        const p = jobId === undefined ? undefined : this.plans.get(jobId);
        if (p?.phase !== 'querying') return;
        p.timedOut = 0;
        this.forgetQueries(p);
        this.stopTimer(ctx, p);
        const candidates: Candidate[] = msg.sites
          .map((site, i) => ({ site, used: msg.used[i] ?? 0 }))
          .filter((c) => !p.excluded.has(c.site));
        return this.choose(ctx, p, candidates);
      }
      case 'timer.gruber-query-timeout': {
        const p = this.plans.get(msg.jobId);
        if (p?.phase !== 'querying' || p.queryId !== msg.queryId) return;
        ctx.metrics.count('gruber.queries_timed_out');
        p.timedOut++;
        return this.plan(ctx, p);
      }
      case 'timer.gruber-retry': {
        const p = this.plans.get(msg.jobId);
        if (p?.phase !== 'waiting' || p.retryToken !== msg.token) return;
        return this.plan(ctx, p);
      }
      case 'timer.gruber-starved': {
        const p = this.plans.get(msg.jobId);
        if (p?.phase !== 'sent' || p.attempt !== msg.attempt) return;
        p.timer = undefined;
        p.phase = 'withdrawing';
        ctx.send(lrmAddress(p.site!), { type: 'gruber.withdraw', jobId: msg.jobId, attempt: msg.attempt });
        return;
      }
      case 'gruber.withdrawn': {
        const p = this.current(msg.jobId, msg.attempt);
        if (!p) return;
        this.selector.returned(p.site!);
        ctx.metrics.count('gruber.starved');
        // A starved attempt is a job failure like the others (§4.2.4: "the incapacity to run a job at
        // a certain site"; Tables XI and XII count the 20-minute timeout among them), and Euryale
        // never sends a job back to a site it failed at.
        return this.unsuccessful(ctx, p, 'scheduling_timeout', true);
      }
      case 'gruber.started': {
        const p = this.current(msg.jobId, msg.attempt);
        if (!p) return;
        this.stopTimer(ctx, p);
        p.phase = 'running';
        p.started = { time_s: msg.time_s, queued_s: msg.queued_s, resources: msg.resources, site: msg.site };
        this.selector.started(msg.site);
        if (p.endedBeforeStart_s !== undefined) return this.ended(ctx, p, p.endedBeforeStart_s);
        return;
      }
      case 'gruber.ended': {
        const p = this.current(msg.jobId, msg.attempt);
        if (!p) return;
        if (p.started) return this.ended(ctx, p, msg.time_s);
        // Its start is still on its way (fuzz seed 4633: both held while this host was down, the
        // end delivered first). Dropped, the job stayed running here for ever and the run never ended.
        this.stopTimer(ctx, p);
        p.endedBeforeStart_s = msg.time_s;
        return;
      }
      case 'gruber.failed': {
        const p = this.current(msg.jobId, msg.attempt);
        if (!p) return;
        this.stopTimer(ctx, p);
        if (p.phase !== 'running') this.selector.returned(msg.site);
        p.started = undefined;
        return this.unsuccessful(ctx, p, msg.category, true);
      }
      default:
        ctx.log.warn({ type: msg.type, group: this.options.group }, 'submit host ignored an unexpected message');
        ctx.metrics.count('messages.unexpected');
    }
  }

  /** The job ran to its end at `p.started.site`: the driver hears its start and its end. */
  private ended(ctx: ActorContext<Message>, p: Plan, end_s: number): void {
    const started = p.started!;
    const trail = { copies: 1, migrations: 0, replans: p.replans };
    ctx.send(DRIVER, {
      type: MessageType.JobStarted,
      jobId: p.job.id,
      site: started.site,
      time_s: started.time_s,
      resources: started.resources,
      trail,
    });
    ctx.send(DRIVER, { type: MessageType.JobCompleted, jobId: p.job.id, site: started.site, time_s: end_s });
    // Delay (§3.1): from when the job was first sent to a provider's queue until it started,
    // its starved and failed attempts included (the paper's Delays track its Replans: Table IV).
    const delay = started.time_s - p.firstSent_s!;
    ctx.metrics.count('gruber.delay_s', delay);
    ctx.metrics.count('gruber.completed');
    ctx.metrics.count(`gruber.delay_s.group.${this.options.group}`, delay);
    ctx.metrics.count('gruber.site_queue_s', started.time_s - started.queued_s);
    ctx.metrics.count(`gruber.completed.group.${this.options.group}`);
    this.done(ctx, p);
  }

  /** Starts planning waiting jobs while the group's cap allows (§3.2: submitted in steps). */
  private pump(ctx: ActorContext<Message>): void {
    while (this.waiting.length > 0) {
      const job = this.waiting[0]!;
      if (job.procs > this.options.cap) {
        this.waiting.shift();
        ctx.send(DRIVER, {
          type: MessageType.JobFailed,
          jobId: job.id,
          time_s: ctx.now(),
          reason: 'wider_than_group_cap',
          trail: { copies: 0, migrations: 0, replans: 0 },
        });
        continue;
      }
      if (this.inPlay + job.procs > this.options.cap) return;
      this.waiting.shift();
      this.inPlay += job.procs;
      const p: Plan = {
        job,
        phase: 'querying',
        attempt: 0,
        unsuccessful: 0,
        replans: 0,
        excluded: new Set(),
        queryId: 0,
        asked: [],
        timedOut: 0,
        retryToken: 0,
      };
      this.plans.set(job.id, p);
      this.plan(ctx, p);
    }
  }

  /** Asks for available sites (or, for S-RA, picks among every site left). */
  private plan(ctx: ActorContext<Message>, p: Plan): void {
    // A job that failed at every site its decision point could ever offer has none left: asking
    // again would wait for ever.
    const candidates = this.selector.asksEngine
      ? this.options.offerable(p.job.vo ?? '', p.job.procs)
      : this.options.sites;
    const left = candidates.filter((s) => !p.excluded.has(s));
    if (left.length === 0) return this.fail(ctx, p, `no_site_left:${p.lastReason ?? 'none'}`);
    if (!this.selector.asksEngine)
      return this.choose(
        ctx,
        p,
        left.map((site) => ({ site, used: 0 })),
      );
    p.phase = 'querying';
    p.queryId = this.nextQuery++;
    p.asked.push(p.queryId);
    this.queries.set(p.queryId, p.job.id);
    const job = p.job;
    ctx.send(this.options.engine, {
      type: 'gruber.query',
      queryId: p.queryId,
      jobId: job.id,
      vo: job.vo ?? '',
      cpus: job.procs,
      disk_mb: job.disk_mb ?? 0,
      exclude: [...p.excluded],
    });
    p.timer = ctx.schedule(this.options.query_timeout_s * 2 ** Math.min(p.timedOut, QUERY_BACKOFF_DOUBLINGS), {
      type: 'timer.gruber-query-timeout',
      jobId: job.id,
      queryId: p.queryId,
    });
  }

  private choose(ctx: ActorContext<Message>, p: Plan, candidates: readonly Candidate[]): void {
    const site = this.selector.choose(candidates);
    if (site === undefined) {
      // Nothing available now: the job waits at the submit host and asks again.
      p.phase = 'waiting';
      p.retryToken++;
      ctx.metrics.count('gruber.waits');
      p.timer = ctx.schedule(this.options.retry_wait_s, {
        type: 'timer.gruber-retry',
        jobId: p.job.id,
        token: p.retryToken,
      });
      return;
    }
    p.attempt++;
    p.firstSent_s ??= ctx.now();
    p.site = site;
    p.phase = 'sent';
    this.selector.dispatched(site, ctx.now());
    ctx.send(lrmAddress(site), { type: 'gruber.submit', job: p.job, attempt: p.attempt });
    if (this.selector.asksEngine)
      ctx.send(this.options.engine, {
        type: 'gruber.chosen',
        site,
        vo: p.job.vo ?? '',
        cpus: p.job.procs,
        disk_mb: p.job.disk_mb ?? 0,
      });
    ctx.metrics.count('gruber.submissions');
    p.timer = ctx.schedule(this.options.starvation_timeout_s, {
      type: 'timer.gruber-starved',
      jobId: p.job.id,
      attempt: p.attempt,
    });
  }

  /** A submission came to nothing: plan again, or give up after the retry limit. */
  private unsuccessful(ctx: ActorContext<Message>, p: Plan, reason: string, siteFailed: boolean): void {
    p.unsuccessful++;
    p.lastReason = reason;
    if (siteFailed) p.excluded.add(p.site!);
    if (p.unsuccessful >= this.options.retries) return this.fail(ctx, p, `retry_limit:${reason}`);
    p.replans++;
    ctx.metrics.count('gruber.replans');
    ctx.metrics.count(`gruber.replans.${reason}`);
    this.plan(ctx, p);
  }

  private fail(ctx: ActorContext<Message>, p: Plan, reason: string): void {
    ctx.metrics.count('gruber.failed_jobs');
    ctx.send(DRIVER, {
      type: MessageType.JobFailed,
      jobId: p.job.id,
      time_s: ctx.now(),
      reason,
      trail: { copies: 1, migrations: 0, replans: p.replans },
    });
    this.done(ctx, p);
  }

  private done(ctx: ActorContext<Message>, p: Plan): void {
    this.stopTimer(ctx, p);
    this.forgetQueries(p);
    this.plans.delete(p.job.id);
    this.inPlay -= p.job.procs;
    this.pump(ctx);
  }

  private stopTimer(ctx: ActorContext<Message>, p: Plan): void {
    if (p.timer !== undefined) ctx.cancel(p.timer);
    p.timer = undefined;
  }

  /** The plan still waiting on attempt `attempt` of the job (reports about older attempts are stale). */
  private current(jobId: string, attempt: number): Plan | undefined {
    const p = this.plans.get(jobId);
    return p && p.attempt === attempt && (p.phase === 'sent' || p.phase === 'withdrawing' || p.phase === 'running')
      ? p
      : undefined;
  }

  private forgetQueries(p: Plan): void {
    for (const q of p.asked) this.queries.delete(q);
    p.asked.length = 0;
  }
}
