import type { FaultsSpec } from '@gridemu/model';
import type { ProcessSupervisor } from './process-supervisor.js';
import type { RunClockWatch } from './run-clock.js';

/** The run's own nats-server, which faults.nats_restart stops and starts again on the same port. */
export interface RestartableServer {
  stop(): Promise<void>;
  start(): Promise<void>;
}

/**
 * The spec's process faults, carried out on the run's clock: faults.crash SIGKILLs a process at
 * its emulated time and starts it again down_s later (it replays its journal and rejoins);
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

  constructor(
    private readonly faults: FaultsSpec,
    private readonly clock: RunClockWatch,
    private readonly supervisor: ProcessSupervisor,
    private readonly server: RestartableServer | undefined,
    private readonly say: (line: string) => void,
  ) {}

  arm(): void {
    for (const c of this.faults.crash)
      this.clock.at(c.at_s, (clock) => {
        // One incarnation at a time: never kill a process that is down, nor start a second.
        if (this.down.has(c.process)) {
          this.crashesRefused++;
          this.say(
            `not killing ${c.process} at emulated ${c.at_s} s (faults.crash): it is still down from an earlier crash`,
          );
          return;
        }
        const victim = this.supervisor.kill(c.process);
        if (!victim) return;
        this.down.add(c.process);
        const crashed_s = clock.now_s();
        this.crashesInjected++;
        this.say(
          `killed ${c.process} (pid ${victim.pid}) at emulated ${Math.round(crashed_s)} s (faults.crash); back in ${c.down_s} emulated s`,
        );
        void victim.exited
          .then(() => this.clock.until(c.at_s + c.down_s))
          .then((due) => {
            this.down.delete(c.process);
            // The run ended while it was down: nothing to rejoin.
            if (!due || !this.supervisor.live) return;
            this.supervisor.restart(c.process, ['--crashed-at', String(crashed_s)]);
            this.crashesApplied++;
            this.restartsOf.set(c.process, (this.restartsOf.get(c.process) ?? 0) + 1);
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
