import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { diesWithParent, stopProcess } from '@gridemu/nats-server';

/**
 * Where a service's entry point is: the workspace package services/<kind> (`site`, `central`,
 * `driver`, or a scheme's own service named by its plan).
 */
export function serviceMain(service: string): string {
  if (!/^[a-z][a-z0-9-]*$/.test(service)) throw new Error(`assertion: "${service}" is not a service name`);
  try {
    return fileURLToPath(import.meta.resolve(`@gridemu/${service}/main`));
  } catch (err) {
    throw new Error(`no service "${service}" is installed (expected the workspace package services/${service})`, {
      cause: err,
    });
  }
}

/** A child process of a live run, its output going to its own log file. */
export class RunProcess {
  readonly child: ChildProcess;
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  readonly exited: Promise<void>;

  constructor(
    /** `driver`, or the location it hosts (a site id, `central`). */
    readonly name: string,
    readonly logFile: string,
    script: string,
    args: readonly string[],
    o: {
      readonly env?: NodeJS.ProcessEnv;
      /** Its standard input is a pipe this process writes to (tell), not closed at once. */
      readonly stdinPipe?: boolean;
      /** Sent SIGTERM by the kernel if this process dies first (diesWithParent). */
      readonly diesWithRun?: boolean;
    } = {},
  ) {
    const fd = openSync(logFile, 'a');
    // GRIDEMU_NODE_ARGS passes Node options to every process of a run (e.g. --cpu-prof to profile one).
    const nodeArgs = (process.env['GRIDEMU_NODE_ARGS'] ?? '').split(' ').filter((a) => a !== '');
    const node = [...nodeArgs, script, ...args];
    const started = o.diesWithRun ? diesWithParent(process.execPath, node) : { command: process.execPath, args: node };
    this.child = spawn(started.command, started.args, {
      stdio: [o.stdinPipe ? 'pipe' : 'ignore', fd, fd],
      env: o.env ?? process.env,
    });
    // A child that exits before reading what it was told must not fail this process (EPIPE).
    this.child.stdin?.on('error', () => undefined);
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
      return text
        .slice(-lines)
        .map((l) => `    ${l.length > 400 ? `${l.slice(0, 400)}…` : l}`)
        .join('\n');
    } catch {
      return '    (no log)';
    }
  }

  /** Writes one line to its standard input (made with stdinPipe). */
  tell(line: string): void {
    this.child.stdin?.write(`${line}\n`);
  }

  kill(signal: NodeJS.Signals): void {
    if (this.running) this.child.kill(signal);
  }

  /** SIGTERM, then SIGKILL after `grace_ms`. */
  stop(grace_ms = 5000): Promise<void> {
    return stopProcess(this.child, grace_ms);
  }
}
