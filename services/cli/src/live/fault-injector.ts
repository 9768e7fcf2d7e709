import type { FaultsSpec } from '@gridemu/model';
import type { ProcessSupervisor } from './process-supervisor.js';
import type { RunProcess } from './run-process.js';
import type { RunClockWatch } from './run-clock.js';

/** The run's own nats-server, which faults.nats_restart stops and starts again on the same port. */
export interface RestartableServer {
  stop(): Promise<void>;
  start(): Promise<void>;
}

/**
 * The spec's process faults, carried out on the run's clock: faults.crash SIGKILLs a process at
 * its emulated time and has it back down_s later (its successor, standing by since before, takes
 * the journal over once it is dead and replays it and rejoins then);
 * faults.nats_restart stops the server and starts it again down_s later. Partitions and loss are
 * the delay proxies' (proxy-set.ts).
 */
export class FaultInjector {
  /** SIGKILLs carried out so far. */
  crashesInjected = 0;
  /** Crashed processes started again so far. */
  crashesApplied = 0;
  natsRestarts = 0;
  /** Planned restarts by location. */
  readonly restartsOf = new Map<string, number>();
  /** Crashes refused because their process was still down from an earlier one (the validator refuses them too). */
  crashesRefused = 0;
  private readonly down = new Set<string>();
  /** Crashes still to come, by process: each such process keeps one successor standing by. */
  private readonly toCome = new Map<string, number>();
  private readonly standbys = new Map<string, RunProcess>();

  constructor(
    private readonly faults: FaultsSpec,
    private readonly clock: RunClockWatch,
    private readonly supervisor: ProcessSupervisor,
    private readonly server: RestartableServer | undefined,
    private readonly say: (line: string) => void,
  ) {
    for (const c of faults.crash) this.toCome.set(c.process, (this.toCome.get(c.process) ?? 0) + 1);
  }

  /** Starts a successor standing by for each process a crash names (once the run's processes are started). */
  startStandbys(): void {
    for (const process of this.toCome.keys()) this.standBy(process);
  }

  /** A successor for `process`, if a crash of it is still to come and none stands by. */
  private standBy(process: string): void {
    if ((this.toCome.get(process) ?? 0) === 0 || this.standbys.has(process)) return;
    const p = this.supervisor.standby(process);
    if (p) this.standbys.set(process, p);
  }

  /** One crash of `process` is done, refused or made: a standby still there is dismissed if none is left to come. */
  private passed(process: string): void {
    const left = (this.toCome.get(process) ?? 1) - 1;
    this.toCome.set(process, left);
    const p = this.standbys.get(process);
    if (left === 0 && p) {
      this.standbys.delete(process);
      this.supervisor.dismiss(p);
    }
  }

  arm(): void {
    for (const c of this.faults.crash)
      this.clock.at(c.at_s, (clock) => {
        // One incarnation at a time: never kill a process that is down, nor start a second.
        if (this.down.has(c.process)) {
          this.crashesRefused++;
          this.say(
            `not killing ${c.process} at emulated ${c.at_s} s (faults.crash): it is still down from an earlier crash`,
          );
          this.passed(c.process);
          return;
        }
        const victim = this.supervisor.kill(c.process);
        if (!victim) {
          this.passed(c.process);
          return;
        }
        this.down.add(c.process);
        const crashed_s = clock.now_s();
        this.crashesInjected++;
        this.say(
          `killed ${c.process} (pid ${victim.pid}) at emulated ${Math.round(crashed_s)} s (faults.crash); back in ${c.down_s} emulated s`,
        );
        const due_s = c.at_s + c.down_s;
        // This crash's successor is taken first, so passing the crash dismisses nobody.
        const standby = this.standbys.get(c.process);
        this.standbys.delete(c.process);
        this.passed(c.process);
        void victim.exited
          .then(() => {
            // Its successor has been standing by since before the crash: started when it was due,
            // a Node process took 0.5-3 s of wall to start, join and open its journal, which at
            // speed-up 5000 made a planned 1,200 s down about 15,000 s. It now does the rest at
            // once and rejoins when due; without a standby, a process started now does the same.
            const resume = { crashed_at_s: crashed_s, resume_at_s: due_s };
            if (!standby || !this.supervisor.takeOver(c.process, standby, resume))
              this.supervisor.restart(c.process, ['--crashed-at', String(crashed_s), '--resume-at', String(due_s)]);
            return this.clock.until(due_s);
          })
          .then((due) => {
            this.down.delete(c.process);
            // The run ended while it was down: its successor leaves without rejoining.
            if (!due || !this.supervisor.live) return;
            this.crashesApplied++;
            this.restartsOf.set(c.process, (this.restartsOf.get(c.process) ?? 0) + 1);
            // The next crash's successor, started once this one is back, not while it catches up.
            this.standBy(c.process);
          });
      });
    const server = this.server;
    if (!server) return;
    // What was in flight while the server is down is lost; durable messages are resent.
    for (const r of this.faults.nats_restart)
      this.clock.at(r.at_s, () => {
        void server
          .stop()
          .then(() => {
            this.say(
              `nats-server stopped at emulated ${r.at_s} s (faults.nats_restart); back in ${r.down_s} emulated s`,
            );
            return this.clock.until(r.at_s + r.down_s);
          })
          // Back when due, or at once if the run ends meanwhile: its last words need the server.
          .then(() => server.start())
          .then(() => this.natsRestarts++);
      });
  }
}
