import { spawn, type ChildProcess } from 'node:child_process';
import { diesWithParent } from '@gridemu/nats-server';

/**
 * The gridemu processes a command runs its runs in (a sweep's variants, a live fuzz's seeds).
 * Stopping the command (Ctrl-C, SIGTERM) passes the signal on to every one still running, so that a
 * live run stops as `gridemu run` stops on it (its driver writes what it has, its nats-server and
 * site processes end) rather than outliving the command that started it, and no further run starts.
 */
export class ChildRuns {
  private readonly running = new Set<ChildProcess>();
  private stoppedBy: NodeJS.Signals | undefined;

  /** `command` names the command in the line said when it is stopped (`sweep`). */
  constructor(private readonly command: string) {}

  /** The signal that stopped the sweep, if one did. */
  get stopped(): NodeJS.Signals | undefined {
    return this.stoppedBy;
  }

  /**
   * Runs `cmd` to its end. Its stderr is kept for the command's report of a failed run, or with
   * `showStderr` goes to the command's own (a live run's progress bar on a terminal; `stderr` is
   * then empty).
   */
  run(cmd: string, args: readonly string[], showStderr = false): Promise<{ code: number; stderr: string }> {
    return new Promise((resolvePromise) => {
      // A command killed outright (SIGKILL, the OOM killer) cannot pass a signal on: the kernel
      // sends its runs SIGTERM, on which a live run stops and writes what it has.
      const started = diesWithParent(cmd, args);
      const child = spawn(started.command, started.args, {
        stdio: ['ignore', 'ignore', showStderr ? 'inherit' : 'pipe'],
      });
      this.running.add(child);
      let stderr = '';
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => {
        this.running.delete(child);
        resolvePromise({ code: code ?? 1, stderr });
      });
    });
  }

  /** Stops the command on the first SIGINT or SIGTERM; returns what undoes the watching. */
  stopOnSignals(): () => void {
    const onSignal = (signal: NodeJS.Signals) => {
      if (this.stoppedBy) return;
      this.stoppedBy = signal;
      console.error(
        `gridemu ${this.command}: ${signal}: stopping the ${this.running.size} run(s) under way; no more will start`,
      );
      for (const child of this.running) child.kill(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    return () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    };
  }
}
