import type { NatsConnection } from '@nats-io/transport-node';
import { InputError, type ExperimentSpec } from '@gridemu/model';
import { experimentFromData, MESSAGE_CHECK } from '@gridemu/schemes';
import type { MemberReport, RunClock } from '@gridemu/protocol';
import { flushedEachLine, type Journal, type Logger } from '@gridemu/runtime';
import { FileJournal, LiveRuntime, byTypeStates, histogramStates, wallNow_ms } from '@gridemu/runtime/live';
import { JetStreamJournal, NatsTransport } from '@gridemu/transport-nats';
import { ControlBus } from './control-bus.js';
import { within } from './within.js';
import { memberActors } from './members.js';
import { cpu_s, cpuSince, rss_mb, sortedRecord } from './process-stats.js';
import { RejoinAnnouncement, RejoinsHeard } from './rejoin-announcement.js';
import type { StandbyResume } from './standby.js';
import { reliableDelivery } from './reliable-delivery.js';
import { partitionCut } from './partition-cut.js';
import { reportThrottle } from './report-throttle.js';
import { logWarmUp, warmUp, warmUpFigures, type WarmUpReport } from './warm-up.js';
import { keepsJournal } from './keeps-journal.js';

export interface MemberOptions {
  readonly nc: NatsConnection;
  readonly run: string;
  /** The location this process hosts: a site id, or `central`. */
  readonly member: string;
  readonly log: Logger;
  /** Where this process serves /healthz and /metrics, told to the driver with `ready`. */
  readonly http?: string;
  /** How long to keep asking for the plan before giving up (the driver may start later). */
  readonly joinTimeout_s?: number;
  /** How long before a timer's deadline the process spins (0: never; see PreciseTimer). */
  readonly timerSpin_ms?: number;
  /**
   * When the previous process hosting this location was killed, in emulated seconds, if known
   * (`gridemu run` knows: it killed it). Otherwise the last time its journal records.
   */
  readonly crashedAt_s?: number;
  /**
   * A planned restart (faults.crash): when it is due back, in emulated seconds (the crash's at_s +
   * down_s). It joins and opens its journal at once, and subscribes, replays and rejoins when the
   * run's clock reaches this.
   */
  readonly resumeAt_s?: number;
  /**
   * A successor standing by for a planned crash: started before it, it waits, saying nothing,
   * until this tells it that its predecessor is dead (crashedAt_s, resumeAt_s), or is undefined if
   * it will not be needed.
   */
  readonly standby?: Promise<StandbyResume | undefined>;
  /** Keep the journal in local files in this folder (FileJournal); without it, in JetStream. */
  readonly journalDir?: string;
  /** Each handler's wall time, by actor role (the process's /metrics). */
  readonly onHandled?: (role: string, wall_s: number) => void;
  /** Each message's one-way latency from another location (the process's /metrics). */
  readonly onLatency?: (from: string, wall_s: number) => void;
}

export type MemberPhase = 'joining' | 'ready' | 'running' | 'done' | 'aborted' | 'failed' | 'stopped';

export interface MemberOutcome {
  readonly phase: MemberPhase;
  readonly reason?: string;
  /** It failed on bad input found while running (an external policy's answer): its exit code is 2. */
  readonly badInput?: boolean;
}

/**
 * A member process's exit code for how it left: 0 when the run ended, the driver aborted it or a
 * signal stopped it (the driver reports an aborted run; a container's restart policy, compose's
 * `on-failure`, then leaves the process down rather than starting it into a run that is over),
 * 2 on bad input, 1 when it failed itself.
 */
export function memberExitCode(outcome: MemberOutcome): number {
  if (outcome.phase === 'done' || outcome.phase === 'stopped' || outcome.phase === 'aborted') return 0;
  return outcome.badInput ? 2 : 1;
}

const HEARTBEAT_MS = 1000;

/** A member's runtime, built and spawned, not yet listening (MemberProcess.build). */
interface Built {
  readonly rt: LiveRuntime;
  readonly journal: { readonly store: Journal; readonly recovering: boolean } | undefined;
  readonly actors: readonly { readonly address: string }[];
}

/** How often a standby reads what its predecessor's journal gained (followWhileStandingBy). */
const FOLLOW_EVERY_MS = 50;

/** The driver publishes progress every second of a run; this long without it, it is taken for dead. */
const DRIVER_SILENCE_MS = 15_000;

/** A heartbeat this late means the process itself did nothing meanwhile. */
const STALLED_MS = 5_000;

/**
 * One member process of a live run (a site, or the central metascheduler): asks the driver for the
 * plan, hosts its location's actors in a LiveRuntime, says `ready` once its subscriptions are on the
 * server, starts its clock on `start`, beats every second, and hands in its report on `end`.
 */
export class MemberProcess {
  phase: MemberPhase = 'joining';
  runtime: LiveRuntime | undefined;
  spec: ExperimentSpec | undefined;
  private readonly bus: ControlBus;
  private heartbeat: NodeJS.Timeout | undefined;
  private peakRss = 0;
  private warmedUp: WarmUpReport | undefined;
  /** This process's CPU seconds when it took part in the run (the clock's start, or its resume). */
  private cpuAtRun_s: number | undefined;
  private lastFromDriver_ms = Date.now();
  /** When watchDriver last ran: a gap far past HEARTBEAT_MS is this process's own stall. */
  private lastWatch_ms = Date.now();
  private rejoinAnnouncement: RejoinAnnouncement | undefined;
  /** When its predecessor was killed and when it is due back (options, or the standby's take-over). */
  private crashedAt_s: number | undefined;
  private resumeAt_s: number | undefined;
  private finish!: (o: MemberOutcome) => void;
  private readonly outcome = new Promise<MemberOutcome>((resolve) => (this.finish = resolve));

  /** This process's own lines, each written at once (flushedEachLine); its actors log through the runtime. */
  private readonly log: Logger;

  constructor(private readonly options: MemberOptions) {
    this.log = flushedEachLine(options.log);
    this.bus = new ControlBus(options.nc, options.run, options.log, options.member);
    this.crashedAt_s = options.crashedAt_s;
    this.resumeAt_s = options.resumeAt_s;
  }

  /** Runs to the end of the run (or an abort, a failure, or stop()). */
  async run(): Promise<MemberOutcome> {
    const { member } = this.options;
    const log = this.log;
    this.bus.on('start', (m) => {
      if (this.phase !== 'ready' || !this.runtime) return;
      this.phase = 'running';
      this.cpuAtRun_s = cpu_s();
      this.lastFromDriver_ms = Date.now();
      log.info({ epoch_s: m.epoch_s, speedup: m.speedup, wallEpoch_ms: m.wallEpoch_ms }, 'clock started');
      this.runtime.start(m.epoch_s, m.speedup, m.wallEpoch_ms);
    });
    this.bus.on('end', () => {
      // Not in the run yet (a restart standing by or waiting for its time): nothing to rejoin.
      if (this.phase === 'joining') void this.leave('done', 'the run ended before this process joined it');
      else void this.end();
    });
    this.bus.on('progress', () => (this.lastFromDriver_ms = Date.now()));
    // What waits for a process that crashed goes to it as soon as it is back, not at the next resend.
    const rejoinsHeard = new RejoinsHeard();
    this.bus.on('rejoined', (m) => {
      if (m.member !== this.options.member && rejoinsHeard.isNew(m.member, m.rejoin.incarnation))
        this.runtime?.resendTo(m.member);
    });
    this.bus.on('welcomed', (m) => {
      if (this.rejoinAnnouncement?.welcomed(m.member, m.incarnation))
        log.info({ copies: this.rejoinAnnouncement.sent }, 'the driver heard the rejoin');
    });
    this.bus.on('abort', (m) => void this.leave('aborted', `the driver aborted the run: ${m.reason}`));
    // A standby keeping its journal in files follows its predecessor's while it waits.
    const following =
      this.options.standby && this.options.journalDir !== undefined
        ? this.followWhileStandingBy(this.options.standby)
        : undefined;
    if (this.options.standby && !(await this.takeOver(this.options.standby))) return this.outcome;
    this.heartbeat = setInterval(() => {
      this.bus.publish({ kind: 'heartbeat', member, rss_mb: this.sampleRss() });
      this.watchDriver();
    }, HEARTBEAT_MS);

    const followed = await following;
    const plan = followed?.plan ?? (await this.join());
    if (!plan) return this.outcome;
    let actors: readonly { readonly address: string }[] = [];
    try {
      const built = followed ?? (await this.build(plan, false));
      if (!built) return this.outcome;
      const { rt, journal } = built;
      actors = built.actors;
      if (followed) this.takeJournalOver(followed.store);
      // When a restart's catch-up counts from: the moment its crash's plan has it back, or, unplanned, its start.
      let due_wall_ms: number | undefined;
      if (plan.resume) {
        // A restart replays its journal at once, while its crash's plan may still have it down, so
        // that when due it has only to listen and rejoin. It hears the bus only then: what the bus
        // carries to a process that is down is lost, or kept by its senders, as for one that is
        // not running at all.
        const replayed = await rt.replayJournal(plan.resume.speedup);
        if (this.resumeAt_s !== undefined) {
          due_wall_ms = wallOf(plan.resume, this.resumeAt_s);
          log.info(
            { batches: replayed.batches, entries: replayed.entries, due_in_ms: Math.round(due_wall_ms - wallNow_ms()) },
            'journal replayed before the restart is due',
          );
          if (!(await this.untilDue(due_wall_ms))) {
            await rt.stop();
            return this.outcome;
          }
        }
        rt.listen();
      }
      await rt.ready();
      this.runtime = rt;
      if (plan.resume && this.phase === 'joining') {
        // A restart after a crash: the run is on; its journal replayed, it recovers and rejoins.
        this.phase = 'running';
        this.cpuAtRun_s = cpu_s();
        this.lastFromDriver_ms = Date.now();
        const c = plan.resume;
        const replayed = await rt.resume(
          c.epoch_s,
          c.speedup,
          c.wallEpoch_ms,
          this.crashedAt_s ?? Number.NEGATIVE_INFINITY,
        );
        // Back when its actors began to recover, not when resume() returned: the recovery itself
        // (recover hooks, lost runs reported, timers armed, the journal's commit) took 4 to 7 wall
        // ms, 78 to 132 emulated s at 20,000x, and a replay kept the process down that much longer
        // than it was live (docs/faults.md, "Replayed as timed").
        const rejoined_s = replayed.resumed_s;
        log.info({ ...replayed, now_s: rt.now() }, 'rejoined the run: journal replayed, actors recovered');
        this.bus.publish({ kind: 'ready', member, pid: process.pid, http: this.options.http ?? '' });
        // For summary.json and for a replay of this run (network.json): when it was down, for real.
        // Said until the driver answers (rejoin-announcement.ts).
        this.rejoinAnnouncement = new RejoinAnnouncement(this.bus, member, {
          incarnation: journal?.store.incarnation ?? 0,
          down_from_s: replayed.died_s,
          rejoined_s,
          catch_up_wall_ms: Math.round(
            due_wall_ms === undefined ? performance.now() : Math.max(0, wallOf(c, rejoined_s) - due_wall_ms),
          ),
          replayed_entries: replayed.entries,
        });
        this.rejoinAnnouncement.start();
        return this.outcome;
      }
    } catch (err) {
      await this.fail((err as Error).message);
      return this.outcome;
    }
    if (this.phase === 'joining') {
      this.phase = 'ready';
      this.lastFromDriver_ms = Date.now();
      this.bus.publish({ kind: 'ready', member, pid: process.pid, http: this.options.http ?? '' });
      log.info({ actors: actors.map((a) => a.address) }, 'ready: subscriptions are on the server');
    }
    return this.outcome;
  }

  /**
   * The runtime hosting this process's actors, spawned, not yet listening; its journal opened (a
   * file journal standing by, not yet taken over, if `standingBy`). Undefined if the run was
   * aborted during the warm-up.
   */
  private async build(
    plan: { experiment: unknown; resume?: RunClock },
    standingBy: boolean,
  ): Promise<Built | undefined> {
    const { member } = this.options;
    const log = this.log;
    this.spec = experimentFromData(plan.experiment, 'the plan from the driver').spec;
    const actors = memberActors(this.spec, member);
    // Not on a rejoin: the run is on, and the restarted process must catch up at once.
    if (!plan.resume) {
      this.warmedUp = await warmUp(
        this.options.nc,
        this.options.run,
        member,
        this.spec,
        keepsJournal(this.spec, member) ? { journal: this.options.journalDir !== undefined ? 'file' : 'network' } : {},
      );
      logWarmUp(log, this.warmedUp);
      // The run may have been aborted meanwhile: build nothing that nobody would stop.
      if (this.phase !== 'joining') return undefined;
    }
    const journal = await this.openJournal(this.spec, plan.resume, standingBy);
    const cut = partitionCut(this.spec.faults.partition);
    const transport = new NatsTransport(this.options.nc, this.options.run, (subject, err) =>
      log.error({ subject, err: err.message }, 'NATS subscription or publish failed'),
    );
    const rt = new LiveRuntime({
      transport,
      run: this.options.run,
      seed: this.spec.seed,
      log: this.options.log,
      check: MESSAGE_CHECK,
      ...reliableDelivery(this.spec),
      ...(this.spec.protocol_trace === true ? { trace: true } : {}),
      ...reportThrottle(this.spec),
      ...(this.options.timerSpin_ms !== undefined ? { timerSpin_ms: this.options.timerSpin_ms } : {}),
      ...(journal ? { journal } : {}),
      ...(this.options.onHandled ? { onHandled: this.options.onHandled } : {}),
      ...(this.options.onLatency ? { onLatency: this.options.onLatency } : {}),
      onFatal: (e) => void this.fail(e.message, e instanceof InputError),
      // A replaced process still running (a pod or container replaced under it) stops without
      // failing the run: its successor replays the journal and carries on.
      onSuperseded: (e) => void this.leave('stopped', e.message),
      ...(cut ? { heldByFault: cut } : {}),
    });
    for (const p of actors) rt.spawn(p);
    return { rt, journal, actors };
  }

  /**
   * A standby with its journal in files, until `standby` says whether it takes over: once the run
   * is on (the driver's plan carries its clock), it builds its actors and replays its predecessor's
   * journal as the predecessor stores it, every FOLLOW_EVERY_MS, so that a take-over has only the
   * last batches to replay. Replayed whole after the take-over, a journal of 3,000 to 13,000
   * entries took up to 2.1 s of wall on two busy cores: at 20,000x the 2,000- to 4,000-s crashes
   * of docs/faults.md's chaos table lasted about 9,000 to 43,000 emulated s. It asks for the plan as a
   * restart does and says nothing else; what it builds is used only if it takes over. Undefined
   * (the take-over then builds and replays as before) if it was told before the run's clock
   * started, or if following failed.
   */
  private async followWhileStandingBy(
    standby: Promise<StandbyResume | undefined>,
  ): Promise<(Built & { plan: { experiment: unknown; resume: RunClock }; store: FileJournal }) | undefined> {
    let told = false;
    const toldOrEnded = Promise.race([standby, this.outcome]).then(
      () => (told = true),
      () => (told = true),
    );
    const pause = (ms: number) => Promise.race([toldOrEnded, new Promise((r) => setTimeout(r, ms))]);
    try {
      let plan: { experiment: unknown; resume?: RunClock } | undefined;
      while (!told && plan?.resume === undefined) {
        plan = await this.bus.request({ kind: 'hello', member: this.options.member, standby: true }, 'plan', 1000);
        // Asked again as join() asks: each answer carries the whole experiment.
        if (plan?.resume === undefined) await pause(250);
      }
      if (told || plan?.resume === undefined) return undefined;
      const resume = plan.resume;
      const built = await this.build(plan, true);
      const store = built?.journal?.store;
      if (!built || !(store instanceof FileJournal)) return undefined;
      const { rt } = built;
      while (!told) {
        await rt.followJournal(resume.speedup);
        await pause(FOLLOW_EVERY_MS);
      }
      // What the predecessor stored between the last call and its death.
      const count = await rt.followJournal(resume.speedup);
      this.log.info({ ...count }, "standby followed its predecessor's journal");
      return { ...built, plan: { ...plan, resume }, store };
    } catch (err) {
      this.log.warn(
        { err: (err as Error).message },
        "standby could not follow its predecessor's journal: it replays it whole when it takes over",
      );
      await toldOrEnded;
      return undefined;
    }
  }

  /** A followed file journal, taken over once the predecessor is dead. */
  private takeJournalOver(store: FileJournal): void {
    store.takeOver();
    this.log.info({ incarnation: store.incarnation, store: `files in ${this.options.journalDir}` }, 'journal opened');
  }

  /**
   * A standby waits, silent (no heartbeat: its predecessor still beats under the same name), until
   * told its predecessor is dead; true if it then takes over, false if it is not needed or the run
   * ended meanwhile.
   */
  private async takeOver(standby: Promise<StandbyResume | undefined>): Promise<boolean> {
    let resume: StandbyResume | undefined;
    try {
      resume = await Promise.race([standby, this.outcome.then(() => undefined)]);
    } catch (err) {
      await this.fail((err as Error).message);
      return false;
    }
    if (this.phase !== 'joining') return false;
    if (!resume) {
      await this.leave('stopped', 'a standby no longer needed');
      return false;
    }
    this.log.info({ ...resume }, 'standby taking over: its predecessor is dead');
    this.crashedAt_s = resume.crashed_at_s;
    this.resumeAt_s = resume.resume_at_s;
    return true;
  }

  /**
   * Waits until wall time `due_ms` (wallNow_ms's clock), unless the run ends, aborts or this process
   * stops meanwhile. True if it is due and still joining.
   */
  private async untilDue(due_ms: number): Promise<boolean> {
    for (;;) {
      if (this.phase !== 'joining') return false;
      const left_ms = due_ms - wallNow_ms();
      if (left_ms <= 0) return true;
      await new Promise((r) => setTimeout(r, Math.min(left_ms, 50)));
    }
  }

  /** SIGTERM: stop taking messages, let the mailboxes drain, tell the driver if the run was still on. */
  async stop(): Promise<MemberOutcome> {
    if (this.phase === 'running' || this.phase === 'ready')
      this.bus.publish({ kind: 'failed', member: this.options.member, error: 'stopped by a signal during the run' });
    await this.leave('stopped', 'stopped by a signal');
    return this.outcome;
  }

  /**
   * A member never outlives its driver: without it the run can neither end nor report. A member
   * that was itself stalled (waiting for an external policy's answer, which blocks its process) has
   * read none of the driver's messages meanwhile, and cannot tell the driver's silence from its
   * own: it gives the driver a fresh allowance from now, as its queued messages are read.
   */
  private watchDriver(): void {
    const now = Date.now();
    const stalled = now - this.lastWatch_ms > STALLED_MS;
    this.lastWatch_ms = now;
    if (stalled) this.lastFromDriver_ms = now;
    const silent_ms = now - this.lastFromDriver_ms;
    if (this.phase === 'running' && silent_ms > DRIVER_SILENCE_MS)
      void this.fail(`the driver has been silent for ${DRIVER_SILENCE_MS / 1000} s`);
    if (this.phase === 'ready' && silent_ms > (this.options.joinTimeout_s ?? 120) * 1000)
      void this.fail(`no start from the driver within ${this.options.joinTimeout_s ?? 120} s of being ready`);
  }

  /**
   * A process the spec's faults.crash names, or any with live.journal, keeps a journal, so that
   * its restart can rebuild its state; a fresh one on the run's first start, its predecessor's on a restart. A restart of a
   * process without one cannot rejoin: its queue and semaphores are gone.
   */
  private async openJournal(
    spec: ExperimentSpec,
    resume: RunClock | undefined,
    standingBy: boolean,
  ): Promise<{ store: Journal; recovering: boolean } | undefined> {
    const { member, nc, run } = this.options;
    if (!keepsJournal(spec, member)) {
      if (resume)
        throw new Error(
          `process "${member}" was restarted during the run, but it keeps no journal (only the processes faults.crash names do, or every one with live.journal: true), so its state is lost`,
        );
      return undefined;
    }
    const dir = this.options.journalDir;
    if (dir && standingBy) return { store: FileJournal.standBy(dir, member), recovering: true };
    const store = dir
      ? FileJournal.open(dir, member, resume === undefined)
      : await JetStreamJournal.open(nc, run, member, resume === undefined);
    this.log.info({ incarnation: store.incarnation, store: dir ? `files in ${dir}` : 'JetStream' }, 'journal opened');
    return { store, recovering: resume !== undefined };
  }

  private async join(): Promise<{ experiment: unknown; resume?: RunClock } | undefined> {
    const deadline = Date.now() + (this.options.joinTimeout_s ?? 120) * 1000;
    while (this.phase === 'joining') {
      const plan = await this.bus.request({ kind: 'hello', member: this.options.member }, 'plan', 1000);
      if (plan) return plan;
      if (Date.now() > deadline) {
        await this.fail(
          `no driver answered on gridemu-ctl.${this.options.run}.hello.${this.options.member} within ${this.options.joinTimeout_s ?? 120} s`,
        );
        return undefined;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    return undefined;
  }

  private async end(): Promise<void> {
    if (this.phase !== 'running' || !this.runtime) return;
    await this.runtime.stop();
    this.bus.publish({ kind: 'report', member: this.options.member, report: this.report(this.runtime) });
    await this.leave('done');
  }

  private async fail(error: string, badInput = false): Promise<void> {
    this.log.error({ error }, 'member failed');
    this.bus.publish({ kind: 'failed', member: this.options.member, error });
    await this.leave('failed', error, badInput);
  }

  private async leave(phase: MemberPhase, reason?: string, badInput = false): Promise<void> {
    if (this.phase === 'done' || this.phase === 'aborted' || this.phase === 'failed' || this.phase === 'stopped')
      return;
    this.phase = phase;
    clearInterval(this.heartbeat);
    this.rejoinAnnouncement?.stop();
    await this.runtime?.stop();
    this.bus.close();
    // With the server gone (the run's nats-server or proxy died) a flush never answers: do not wait for ever.
    await within(
      2000,
      this.options.nc.flush().catch(() => undefined),
    );
    this.finish({ phase, ...(reason === undefined ? {} : { reason }), ...(badInput ? { badInput } : {}) });
  }

  private sampleRss(): number {
    const r = rss_mb();
    this.peakRss = Math.max(this.peakRss, r);
    return r;
  }

  private report(rt: LiveRuntime): MemberReport {
    const warmUp = warmUpFigures(this.warmedUp);
    const rejoinResends = Math.max(0, (this.rejoinAnnouncement?.sent ?? 0) - 1);
    const outages = rt.outageSpans();
    const timelines = rt.mailboxTimelines();
    return {
      pid: process.pid,
      rss_mb: this.sampleRss(),
      peak_rss_mb: this.peakRss,
      cpu_s: cpu_s(),
      ...(this.cpuAtRun_s !== undefined ? { run_cpu_s: cpuSince(this.cpuAtRun_s) } : {}),
      messages: {
        all: sortedRecord(rt.messages.all),
        cross_site: sortedRecord(rt.messages.crossSite),
        per_hour: Object.fromEntries([...rt.messagesPerHour()].map(([h, n]) => [String(h), n])),
      },
      counters: sortedRecord(
        new Map([
          ...rt.counters,
          ...(this.bus.malformed > 0 ? [['control.malformed', this.bus.malformed] as const] : []),
          ...(this.bus.forged > 0 ? [['control.forged_sender', this.bus.forged] as const] : []),
          // Copies of `rejoined` said again because the driver had not answered (rejoin-announcement.ts).
          ...(rejoinResends > 0 ? [['control.rejoin_resends', rejoinResends] as const] : []),
        ]),
      ),
      latency: histogramStates(rt.latency),
      timer_lag: rt.timerLag.state(),
      felt: histogramStates(rt.felt),
      felt_by_type: byTypeStates(rt.feltByType),
      mailbox: {
        arrived_by_type: byTypeStates(rt.arrivedByType),
        waited_by_type: byTypeStates(rt.waitedByType),
        timer_fire_lag: rt.timerFireLag.state(),
        ...(timelines
          ? {
              arrived_timeline: {
                bin_s: timelines.bin_s,
                links: byTypeStates(timelines.arrived),
                counts_by_type: timelines.arrivedCounts.state(),
              },
              waited_timeline: {
                bin_s: timelines.bin_s,
                links: byTypeStates(timelines.waited),
                counts_by_type: timelines.waitedCounts.state(),
              },
              timer_fire_timeline: { bin_s: timelines.bin_s, locations: byTypeStates(timelines.timerFire) },
              local_timeline: {
                bin_s: timelines.bin_s,
                links: byTypeStates(timelines.local),
                counts_by_type: timelines.localCounts.state(),
              },
            }
          : {}),
      },
      ...(outages.length > 0 ? { outages } : {}),
      ...(warmUp ? { warm_up: warmUp } : {}),
    };
  }
}

/** The wall time (wallNow_ms's clock) at which the run's clock reads `t_s`. */
function wallOf(clock: RunClock, t_s: number): number {
  return clock.wallEpoch_ms + ((t_s - clock.epoch_s) * 1000) / clock.speedup;
}
