import { join } from 'node:path';
import type { ControlBus, StandbyResume } from '@gridemu/live';
import { RunProcess, serviceMain } from './run-process.js';

/** How often one process may die unplanned and be started again before the run gives up on it. */
const MAX_UNPLANNED_RESTARTS = 3;
/** How long a driver told to stop has to write its results before it is killed. */
const DRIVER_STOP_GRACE_MS = 60_000;
/** How long the driver has to read why it is stopped before the signal, which says only that it was. */
const TOLD_BEFORE_SIGNAL_MS = 1000;

export interface SupervisorOptions {
  readonly run: string;
  /** Where each process's log goes: LOGS/<name>.log. */
  readonly logs: string;
  /** The process kind (services/<kind>) that hosts each location. */
  readonly serviceOf: ReadonlyMap<string, string>;
  /** The URL a location's process connects to: its delay proxy's, or the server's. */
  readonly urlOf: (member: string) => string;
  /** Its environment (credentials go there, not in arguments, which ps shows). */
  readonly envOf: (name: string) => NodeJS.ProcessEnv;
  readonly timerSpin_ms: string;
  /** Where the members keep their journals in local files; undefined: in JetStream. */
  readonly journalDir?: string;
  /** live.journal: a process killed from outside the plan is started again and rejoins from its journal. */
  readonly restartUnplanned: boolean;
  readonly bus: ControlBus;
  readonly say: (line: string) => void;
}

/**
 * The processes of a live run: the driver and one per location. It starts them, starts a crashed
 * one again when asked (faults.crash) or when the journal lets it rejoin (live.journal), and stops
 * the run, once, when one dies otherwise. Everything it started is stopped by stopAll().
 */
export class ProcessSupervisor {
  private readonly all: RunProcess[] = [];
  private readonly current = new Map<string, RunProcess>();
  /** Processes killed on purpose (faults.crash): their death does not stop the run. */
  private readonly killedByPlan = new Set<RunProcess>();
  /** Successors started ahead of a planned crash (standby), not yet told to take over. */
  private readonly standbys = new Set<RunProcess>();
  readonly unplannedRestarts = new Map<string, number>();
  /** Why the run was stopped early, once it was. */
  failure: string | undefined;
  /** A process stopped the run on bad input found while running (it exited 2): so does the run. */
  badInput = false;
  private driver: RunProcess | undefined;

  constructor(private readonly o: SupervisorOptions) {}

  /** The driver leads the run; when it exits the run is over. */
  startDriver(args: readonly string[]): RunProcess {
    this.driver = new RunProcess(
      'driver',
      join(this.o.logs, 'driver.log'),
      serviceMain('driver'),
      args,
      // Told why it is stopped (fail), with --stop-on-stdin; if this process dies outright, its
      // standard input's end says so, and the driver writes what it has (no SIGTERM to race it).
      { env: this.o.envOf('driver'), stdinPipe: true },
    );
    this.all.push(this.driver);
    return this.driver;
  }

  startMembers(): void {
    for (const m of this.o.serviceOf.keys()) this.launch(m);
  }

  /** Whether the run is still on: the driver runs and nothing has stopped it. */
  get live(): boolean {
    return this.driver?.running === true && this.failure === undefined;
  }

  /** faults.crash: SIGKILL the location's process; undefined if it is not running. */
  kill(member: string): RunProcess | undefined {
    const victim = this.current.get(member);
    if (!victim?.running || !this.live) return undefined;
    this.killedByPlan.add(victim);
    victim.kill('SIGKILL');
    return victim;
  }

  /** Starts the location's process again (after a planned crash), with extra arguments. */
  restart(member: string, extra: readonly string[]): void {
    if (this.live) this.launch(member, extra);
  }

  /**
   * Starts a successor for the location ahead of a planned crash: it starts and connects, and
   * waits, doing nothing else, until takeOver() says its predecessor is dead. Undefined once the
   * run is over.
   */
  standby(member: string): RunProcess | undefined {
    if (!this.live) return undefined;
    const p = this.launch(member, ['--standby'], true);
    this.standbys.add(p);
    return p;
  }

  /**
   * The location's predecessor died at emulated `crashed_at_s`: the standby takes over, and rejoins
   * at `resume_at_s`; false if it is gone.
   */
  takeOver(member: string, p: RunProcess, resume: StandbyResume): boolean {
    if (!this.live || !p.running || !this.standbys.delete(p)) return false;
    this.current.set(member, p);
    p.tell(JSON.stringify(resume));
    return true;
  }

  /** A standby no longer needed (its crash did not happen): stopped, as at the end of the run. */
  dismiss(p: RunProcess): void {
    if (this.standbys.delete(p)) void p.stop();
  }

  /** Stops the run once. A dead member is reported to the driver, which aborts naming it; anything else signals the driver. */
  fail(reason: string, dead?: { member: string; error: string }): void {
    if (!this.live) return;
    this.failure = reason;
    this.o.say(`stopping: ${reason}`);
    if (dead) {
      this.o.bus.publish({ kind: 'failed', ...dead });
      setTimeout(() => this.driver?.kill('SIGTERM'), 15_000).unref(); // should the driver not react
    } else if (this.driver) {
      // The driver aborts the run, tells every process, and writes what it has. It is told why
      // first (on its standard input: the bus may be what failed), so that summary.json names the
      // cause rather than the signal; signalled a moment later, and one that does not end within
      // DRIVER_STOP_GRACE_MS is killed, so that gridemu run always ends.
      const driver = this.driver;
      driver.tell(JSON.stringify({ stop: reason }));
      setTimeout(() => void driver.stop(DRIVER_STOP_GRACE_MS), TOLD_BEFORE_SIGNAL_MS);
    }
  }

  /** After the driver has ended: waits up to `grace_ms` for the others to leave, and names those that did not. */
  async lingering(grace_ms: number): Promise<readonly string[]> {
    const until = Date.now() + grace_ms;
    while (this.all.some((p) => p.running) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    return this.all.filter((p) => p.running).map((p) => p.name);
  }

  async stopAll(grace_ms: number): Promise<void> {
    await Promise.all(this.all.map((p) => p.stop(grace_ms)));
  }

  private launch(member: string, extra: readonly string[] = [], standby = false): RunProcess {
    const service = this.o.serviceOf.get(member)!;
    const args = [
      '--nats',
      this.o.urlOf(member),
      '--run',
      this.o.run,
      '--http-port',
      '0',
      '--timer-spin-ms',
      this.o.timerSpin_ms,
      service === 'site' ? '--site' : '--member',
      member,
      ...(this.o.journalDir ? ['--journal-dir', this.o.journalDir] : []),
      ...extra,
    ];
    const p = new RunProcess(
      member,
      join(this.o.logs, `${member}.log`),
      serviceMain(service),
      args,
      // A member outlives a killed gridemu run by its driver-silence limit otherwise: the run's own
      // nats-server goes with gridemu run, so the driver's abort never reaches it.
      { env: this.o.envOf(member), stdinPipe: standby, diesWithRun: true },
    );
    this.all.push(p);
    if (!standby) this.current.set(member, p);
    this.watch(p);
    return p;
  }

  private watch(p: RunProcess): void {
    void p.exited.then(() => {
      // Bad input stops the run with exit 2 even when the driver, told of it, ended first: a member
      // reports its failure on the bus before it exits, and on busy cores its exit can come last.
      if (p.exit?.code === 2) this.badInput = true;
      // Exit 0: it left when the run ended, or when the driver aborted it (whose reason is the
      // run's: memberExitCode).
      if (p.exit?.code === 0 || !this.live || this.killedByPlan.has(p)) return;
      // A standby that died before taking over: its crash's restart starts a process of its own.
      if (this.standbys.delete(p)) {
        this.o.say(`the standby for ${p.name} (pid ${p.pid}) ${p.describeExit()}; its restart will start anew`);
        return;
      }
      // A process killed from outside (kill -9, the OOM killer) is started again and rejoins from
      // its journal, as a restart policy would; one that failed on its own is not.
      const restarts = this.unplannedRestarts.get(p.name) ?? 0;
      if (this.o.restartUnplanned && p.exit?.signal && restarts < MAX_UNPLANNED_RESTARTS) {
        this.unplannedRestarts.set(p.name, restarts + 1);
        this.o.say(
          `${p.name} (pid ${p.pid}) ${p.describeExit()}; starting it again to rejoin from its journal (live.journal)`,
        );
        this.launch(p.name);
        return;
      }
      const what = `${this.o.serviceOf.get(p.name)} process ${p.name} (pid ${p.pid}) ${p.describeExit()} during the run`;
      this.fail(`${what}; last lines of ${p.logFile}:\n${p.tail()}`, {
        member: p.name,
        error: `process ${p.describeExit()}`,
      });
    });
  }
}
