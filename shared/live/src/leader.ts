import type { NatsConnection } from '@nats-io/transport-node';
import { runEpoch_s, type ExperimentSpec, type Job } from '@gridemu/model';
import type { DriverActor } from '@gridemu/actors';
import type { MemberReport, OrchestratorTally, Rejoin, RunClock } from '@gridemu/protocol';
import { type Logger } from '@gridemu/runtime';
import { LiveRuntime, wallNow_ms } from '@gridemu/runtime/live';
import { MESSAGE_CHECK, schemeLongestSilence_s, stalledRunWatch } from '@gridemu/schemes';
import { NatsTransport } from '@gridemu/transport-nats';
import { ControlBus } from './control-bus.js';
import { driverPlan, liveMembers } from './members.js';
import { answerRejoins } from './rejoin-announcement.js';
import { cpu_s, cpuSince } from './process-stats.js';
import { reliableDelivery } from './reliable-delivery.js';
import { lostConnectionNote } from './lost-connection-note.js';
import { logWarmUp, warmUp, type WarmUpReport } from './warm-up.js';
import { within } from './within.js';

export interface LeaderOptions {
  readonly nc: NatsConnection;
  readonly run: string;
  readonly spec: ExperimentSpec;
  /** `spec` as data (LoadedSpec.data): what members validate and build their actors from. */
  readonly experiment: unknown;
  readonly jobs: readonly Job[];
  readonly log: Logger;
  /** How long to wait for every member's `ready` (processes start, connect and subscribe). */
  readonly readyTimeout_s?: number;
  /**
   * A member silent for this long is taken for dead and the run stops. Default 10 s, or 60 s with
   * `live.journal`: there a killed process is expected back, restarted by `gridemu run` or by its
   * container engine's policy, and a container's restart on a loaded machine can take over 10 s;
   * and longer where the scheme may block a process (silenceAllowance_s).
   */
  readonly heartbeatTimeout_s?: number;
  readonly reportTimeout_s?: number;
  /** Wall time between `start` and the epoch, so every process has the message before its clock runs. */
  readonly startMargin_ms?: number;
  readonly onProgress?: (p: LiveProgress) => void;
  /** Polled while the run is on; a reason stops it (the driver got a signal). */
  readonly shouldStop?: () => string | undefined;
  /** How long before a timer's deadline the driver spins (0: never; see PreciseTimer). */
  readonly timerSpin_ms?: number;
  /** Told of the driver's runtime once it exists (its /metrics reads it); and of each handler's wall time. */
  readonly onRuntime?: (rt: LiveRuntime) => void;
  readonly onHandled?: (role: string, wall_s: number) => void;
}

export interface LiveProgress {
  readonly finished: number;
  readonly total: number;
  readonly now_s: number;
  readonly wall_s: number;
}

export interface MemberInfo {
  pid: number;
  http: string;
  lastSeen_ms: number;
  report?: MemberReport;
}

export interface LeaderResult {
  readonly driver: DriverActor;
  readonly execSites: ReturnType<typeof driverPlan>['plan']['execSites'];
  readonly runtime: LiveRuntime;
  readonly members: ReadonlyMap<string, MemberInfo>;
  readonly epoch_s: number;
  /** Wall seconds from start to every member ready, and from the epoch to the last outcome. */
  readonly join_wall_s: number;
  /** The driver's warm-up before the clock started (or why there was none). */
  readonly warmedUp: WarmUpReport;
  /** The driver's CPU seconds from the clock's start to the end (LiveSection's run_cpu_s). */
  readonly run_cpu_s?: number;
  readonly run_wall_s: number;
  readonly end_s: number;
  /** Why the run stopped early; undefined if every job got its outcome. */
  readonly aborted?: string;
  readonly missingReports: readonly string[];
  readonly controlMalformed: number;
  /** Control messages dropped because their sender may not send them. */
  readonly controlForged: number;
  /**
   * Each restart after a crash that caught up, in the order they did, with when the driver heard
   * it (`heard_s`, emulated): when what waited for the process began to be sent to it again.
   */
  readonly rejoins: readonly (Rejoin & { readonly member: string; readonly heard_s: number })[];
  /** What `gridemu run`'s orchestrator did to the run; absent without one (compose, Kubernetes). */
  readonly tally?: OrchestratorTally;
}

/**
 * The driver's side of a live run: serves the plan, waits until every member is ready (their
 * subscriptions are on the server), sets one epoch for all clocks, replays the workload, and when
 * every job has its outcome ends the run and gathers the members' reports. A member that fails,
 * is stopped, or goes silent stops the run with a reason naming it.
 */
export async function leadRun(options: LeaderOptions): Promise<LeaderResult> {
  const { nc, run, spec, jobs, log } = options;
  const bus = new ControlBus(nc, run, log, 'driver');
  const expected = liveMembers(spec);
  const members = new Map<string, MemberInfo>();
  let aborted: string | undefined;

  /** Set once the run starts: a member that joined before and asks again was restarted, and resumes on it. */
  let clock: RunClock | undefined;
  bus.on('hello', (m, raw) => {
    const resume = clock !== undefined && members.has(m.member) ? clock : undefined;
    // A standby asks until the run is on (followWhileStandingBy): said once it is answered with the clock.
    if (m.standby !== true || resume !== undefined)
      log.info(
        { member: m.member, rejoining: resume !== undefined },
        m.standby === true
          ? "a standby asked for the plan, to follow its predecessor's journal"
          : resume
            ? 'a restarted member asked to rejoin the run'
            : 'member asked for the plan',
      );
    bus.reply(raw, {
      kind: 'plan',
      experiment: options.experiment as Record<string, unknown>,
      ...(resume ? { resume } : {}),
    });
  });
  bus.on('ready', (m) => {
    if (!expected.includes(m.member)) {
      log.warn({ member: m.member }, 'a process that is not part of this run said ready');
      return;
    }
    const info = members.get(m.member);
    members.set(m.member, { ...info, pid: m.pid, http: m.http, lastSeen_ms: Date.now() });
  });
  bus.on('heartbeat', (m) => {
    const info = members.get(m.member);
    if (info) info.lastSeen_ms = Date.now();
  });
  bus.on('failed', (m) => {
    aborted ??= `process "${m.member}" failed: ${m.error}`;
  });
  const rejoins: (Rejoin & { member: string; heard_s: number })[] = [];
  bus.on('report', (m) => {
    const info = members.get(m.member);
    if (info) info.report = m.report;
  });

  const { plan, driver } = driverPlan(spec, jobs);
  const transport = new NatsTransport(nc, run, (subject, err) =>
    log.error({ subject, err: err.message }, 'NATS subscription or publish failed'),
  );
  const rt = new LiveRuntime({
    transport,
    run,
    seed: spec.seed,
    log,
    check: MESSAGE_CHECK,
    ...reliableDelivery(spec),
    ...(spec.protocol_trace === true ? { trace: true } : {}),
    ...(options.timerSpin_ms !== undefined ? { timerSpin_ms: options.timerSpin_ms } : {}),
    ...(options.onHandled ? { onHandled: options.onHandled } : {}),
    onFatal: (e) => (aborted ??= `the driver failed: ${e.message}`),
  });
  options.onRuntime?.(rt);
  // What waits for a process that crashed (the submissions made while it was down) goes to it as
  // soon as it is back, as the members' does (member.ts), not when a probe finds it (DurableOutbox).
  // A restarted process says it rejoined until answered: answered every time, counted once.
  answerRejoins(bus, expected, (member, rejoin) => {
    rejoins.push({ member, ...rejoin, heard_s: Math.max(rt.now(), rejoin.rejoined_s) });
    rt.resendTo(member);
  });
  rt.spawn(driver);
  await rt.ready();
  await nc.flush();

  const joinStarted = Date.now();
  // The driver warms its code while the members start and warm theirs (warm-up.ts).
  const warmingUp = warmUp(nc, run, undefined, spec);
  const readyDeadline = joinStarted + (options.readyTimeout_s ?? 60) * 1000;
  while (!aborted && members.size < expected.length) {
    aborted ??= options.shouldStop?.();
    if (Date.now() > readyDeadline) {
      aborted = `not ready within ${options.readyTimeout_s ?? 60} s: ${expected.filter((m) => !members.has(m)).join(', ')}`;
      break;
    }
    await sleep(20);
  }
  const warmedUp = await warmingUp;
  logWarmUp(log, warmedUp);
  const join_wall_s = (Date.now() - joinStarted) / 1000;

  const epoch_s = runEpoch_s(jobs);
  // On the clock every LiveRuntime reads (sub-ms), so the driver and members count from the same instant.
  const wallEpoch_ms = wallNow_ms() + (options.startMargin_ms ?? 300);
  const speedup = spec.live.speedup;
  const heartbeatTimeout_ms = (options.heartbeatTimeout_s ?? silenceAllowance_s(spec)) * 1000;
  let started = false;
  let cpuAtStart_s: number | undefined;
  if (!aborted) {
    clock = { epoch_s, wallEpoch_ms, speedup };
    bus.publish({ kind: 'start', ...clock });
    cpuAtStart_s = cpu_s();
    rt.start(epoch_s, speedup, wallEpoch_ms);
    started = true;
    log.info({ epoch_s, speedup, members: expected }, 'run started');
    let lastProgress = 0;
    // A run in which no job reaches its outcome for long would never end: stop it as the
    // simulator does (stalled-run.ts), and write what it has. At a high speed-up a machine that
    // stalls passes emulated days in seconds, so the quiet must also last as long in wall time as
    // a silent process may: the run's clock is the wall's at the speed-up.
    const stall = stalledRunWatch(spec, jobs, (heartbeatTimeout_ms / 1000) * speedup);
    for (;;) {
      if (plan.driver.done || aborted) break;
      aborted ??= options.shouldStop?.();
      const now = Date.now();
      try {
        stall.check(plan.driver.finished, rt.now(), plan.driver.records);
      } catch (err) {
        aborted ??=
          (err instanceof Error ? err.message : String(err)) +
          lostConnectionNote(rt.outageSpans(), spec.live.journal === true);
      }
      for (const [name, info] of members) {
        // A process the spec crashes is silent while it is down, on purpose (faults.crash).
        if (isDownByPlan(spec, name, rt.now())) info.lastSeen_ms = now;
        if (now - info.lastSeen_ms > heartbeatTimeout_ms)
          aborted ??=
            `process "${name}" (pid ${info.pid}) has been silent for ${heartbeatTimeout_ms / 1000} s` +
            lostConnectionNote(rt.outageSpans(), spec.live.journal === true);
      }
      const wall = wallNow_ms();
      if (now - lastProgress >= 1000 && wall >= wallEpoch_ms) {
        lastProgress = now;
        const p = {
          finished: plan.driver.finished,
          total: plan.driver.total,
          now_s: rt.now(),
          wall_s: (wall - wallEpoch_ms) / 1000,
        };
        bus.publish({ kind: 'progress', ...p });
        options.onProgress?.(p);
      }
      await sleep(25);
    }
  }
  const end_s = started ? rt.now() : epoch_s;
  const run_wall_s = Math.max(0, (wallNow_ms() - wallEpoch_ms) / 1000);
  let missingReports: string[] = [];
  if (aborted) {
    log.error({ reason: aborted }, 'run aborted');
    bus.publish({ kind: 'abort', reason: aborted });
    // An aborted run asks for no reports: its counts of messages and latency are the driver's
    // alone, and the summary must say whose are missing rather than show them as none.
    missingReports = expected.filter((m) => !members.get(m)?.report);
  } else {
    options.onProgress?.({
      finished: plan.driver.finished,
      total: plan.driver.total,
      now_s: end_s,
      wall_s: run_wall_s,
    });
    bus.publish({ kind: 'end' });
    const deadline = Date.now() + (options.reportTimeout_s ?? 15) * 1000;
    while (Date.now() < deadline && [...members.values()].some((m) => !m.report)) await sleep(20);
    missingReports = expected.filter((m) => !members.get(m)?.report);
    if (missingReports.length > 0) log.warn({ missing: missingReports }, 'some processes sent no report');
  }
  // Asked last, when nothing more will be injected; with no orchestrator the server answers at once that none listens.
  const tally = (await bus.request({ kind: 'tally' }, 'tallied', 3000))?.tally;
  await rt.stop();
  // With the server gone (stopped with the rest by a signal to the whole process group) a flush
  // never answers: the driver must still write what it has and exit.
  await within(
    2000,
    nc.flush().catch(() => undefined),
  );
  bus.close();
  return {
    driver: plan.driver,
    execSites: plan.execSites,
    runtime: rt,
    members,
    epoch_s,
    join_wall_s,
    warmedUp,
    ...(cpuAtStart_s !== undefined ? { run_cpu_s: cpuSince(cpuAtStart_s) } : {}),
    run_wall_s,
    end_s,
    ...(aborted ? { aborted } : {}),
    missingReports,
    rejoins,
    controlMalformed: bus.malformed,
    controlForged: bus.forged,
    ...(tally ? { tally } : {}),
  };
}

/** Whether faults.crash has `member` down at emulated `now_s`. */
function isDownByPlan(spec: ExperimentSpec, member: string, now_s: number): boolean {
  return spec.faults.crash.some((c) => c.process === member && now_s >= c.at_s && now_s < c.at_s + c.down_s);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * How long a process may send nothing before the run stops: 10 s, or 60 s with live.journal, where
 * a killed process is expected back from its supervisor; and at least schemeSilence_s, so that a
 * slow external policy stops the run with the scheme's own error, naming the policy, not as a
 * silent process.
 */
export function silenceAllowance_s(spec: ExperimentSpec): number {
  return Math.max(spec.live.journal ? 60 : 10, schemeSilence_s(spec));
}

/**
 * How long the spec's scheme may itself keep a live process silent (an external policy's answer,
 * its start-up included), and 5 s more: past it the process is taken for hung, by the driver and
 * by a Kubernetes liveness probe alike.
 */
export function schemeSilence_s(spec: ExperimentSpec): number {
  return schemeLongestSilence_s(spec) + 5;
}
