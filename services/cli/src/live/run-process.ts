import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stopProcess } from '@gridemu/nats-server';

/** Where each service's entry point is (resolved from the workspace packages). */
export function serviceMain(service: 'site' | 'central' | 'driver'): string {
  return fileURLToPath(import.meta.resolve(`@gridemu/${service}/main`));
}

/** A child process of a live run, its output going to its own log file. */
export class RunProcess {
  readonly child: ChildProcess;
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  readonly exited: Promise<void>;

  constructor(
    /** `driver`, a site id, or `central`. */
    readonly name: string,
    readonly logFile: string,
    script: string,
    args: readonly string[],
  ) {
    const fd = openSync(logFile, 'a');
    this.child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', fd, fd], env: process.env });
    closeSync(fd);
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve();
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  describeExit(): string {
    if (!this.exit) return 'is still running';
    return this.exit.signal ? `was killed by ${this.exit.signal}` : `exited with code ${this.exit.code}`;
  }

  /** The last lines of its log, to show with a failure. */
  tail(lines = 12): string {
    try {
      const text = readFileSync(this.logFile, 'utf8').trimEnd().split('\n');
      return text.slice(-lines).map((l) => `    ${l.length > 400 ? `${l.slice(0, 400)}…` : l}`).join('\n');
    } catch {
      return '    (no log)';
    }
  }

  kill(signal: NodeJS.Signals): void {
    if (this.running) this.child.kill(signal);
  }

  /** SIGTERM, then SIGKILL after `grace_ms`. */
  stop(grace_ms = 5000): Promise<void> {
    return stopProcess(this.child, grace_ms);
  }
}
