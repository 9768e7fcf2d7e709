import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { InputError } from '@gridemu/model';

/** The longest answer line a policy may write, in bytes. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** control[0]: what the worker has for the caller. */
const WAITING = 0;
const ANSWER = 1;
const BROKEN = 2;

/** The message that stops the worker (a request is a JSON object, never this). */
const STOP = 'stop';
/** How long a stopped worker has to reap its killed policy before it is terminated all the same. */
const STOP_GRACE_MS = 5_000;

/**
 * A program that is not ours went wrong: a policy process wrote something that is not an answer,
 * wrote too late, or exited. Bad input, like a malformed experiment file (exit 2), naming the
 * policy, its location, and the line of its output.
 */
export class PolicyError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'PolicyError';
  }
}

/**
 * A user's program, asked one JSON line at a time on its standard input, answering one JSON line
 * on its standard output (docs/external.md). `ask` waits for the answer, so the simulator stays
 * deterministic and a live process decides in the order its messages came; the process's
 * standard error goes to ours.
 *
 * Node cannot read a child's pipe synchronously, so a worker thread owns the child and its pipes:
 * the caller posts the request, then sleeps on an Atomics word until the worker has put the answer
 * line in shared memory, the child has exited, or the time limit has passed. The child is started at
 * the first request, and dies with its parent's process (its standard input closes).
 */
export class PolicyProcess {
  private worker: Worker | undefined;
  /** [0] the state, [1] the answer's length, [2] the child's pid once started. */
  private readonly control = new Int32Array(new SharedArrayBuffer(12));
  private readonly data = new Uint8Array(new SharedArrayBuffer(MAX_ANSWER_BYTES));
  private readonly decoder = new TextDecoder();
  /** Requests asked so far: the answer to request n is line n of the policy's output. */
  private asked = 0;
  /** Kills the policy should its process exit first. */
  private readonly onExit = () => this.close();

  constructor(
    private readonly command: readonly string[],
    /** Who this is, for errors: "the external policy at s1". */
    private readonly label: string,
    private readonly answerTimeout_ms: number,
    /**
     * The limit on the first answer, which includes the program's start-up: an interpreter loading
     * its libraries (Python with numpy, a JVM) may take seconds where an answer takes milliseconds,
     * and a tight answer limit, set to catch a policy stuck on a request, should not fail its start.
     */
    private readonly startupTimeout_ms: number = answerTimeout_ms,
  ) {}

  /** Sends `request` as one line and returns the parsed answer line. */
  ask(request: object): unknown {
    const worker = (this.worker ??= this.start());
    Atomics.store(this.control, 0, WAITING);
    this.asked++;
    worker.postMessage(JSON.stringify(request));
    // Woken is not answered: the worker stores an answer and then notifies, and a notify for the
    // previous answer (its store seen at once, the worker preempted before it notified) can wake
    // this wait. Taken as this request's answer, it handed back the previous line (a run on a busy
    // machine failed so, 1 in 8). So the state decides, and the wait goes on until the deadline.
    const first = this.asked === 1;
    const limit_ms = first ? this.startupTimeout_ms : this.answerTimeout_ms;
    const deadline_ms = performance.now() + limit_ms;
    let state = Atomics.load(this.control, 0);
    while (state === WAITING) {
      const left_ms = deadline_ms - performance.now();
      if (left_ms <= 0)
        throw this.error(
          `did not answer request ${this.asked} within ${limit_ms / 1000} s${first ? ' (its start-up included)' : ''}`,
        );
      Atomics.wait(this.control, 0, WAITING, left_ms);
      state = Atomics.load(this.control, 0);
    }
    const text = this.decoder.decode(this.data.slice(0, Atomics.load(this.control, 1)));
    if (state === BROKEN) throw this.error(text + this.missingPathsHint(text));
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      throw this.error(
        `line ${this.asked} of its output is not JSON (${(err as Error).message}): ${text.slice(0, 200)}`,
      );
    }
  }

  /** The line of the policy's output the last answer was (for errors about what it said). */
  get line(): number {
    return this.asked;
  }

  /** An error about this policy: its command and location, then what went wrong. The run stops: so does the policy. */
  error(what: string): PolicyError {
    this.close();
    return new PolicyError(`${this.label} (${this.command.join(' ')}) ${what}`);
  }

  /**
   * For a policy that exited or could not be started: the paths in its command that are not there
   * from this process's working directory, the likeliest reason when gridemu was started from
   * another folder than the one the experiment file's command was written for.
   */
  private missingPathsHint(text: string): string {
    if (!text.startsWith('exited') && !text.startsWith('could not be started')) return '';
    const missing = relativePathsMissing(this.command, process.cwd());
    if (missing.length === 0) return '';
    return `; ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not found from ${process.cwd()}, the directory gridemu was started in, from which meta.command runs (docs/external.md)`;
  }

  /** Stops the policy (a policy stuck in a loop does not end when its input closes). */
  close(): void {
    const pid = Atomics.load(this.control, 2);
    if (pid > 0) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    // The worker ends itself once its child has exited: the child is the worker's, and only the
    // worker's event loop reaps it (terminated at once, each run left a zombie in a long fuzz).
    const worker = this.worker;
    if (worker) {
      worker.postMessage(STOP);
      setTimeout(() => void worker.terminate(), STOP_GRACE_MS).unref();
    }
    this.worker = undefined;
    process.off('exit', this.onExit);
  }

  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        command: this.command,
        control: this.control.buffer,
        data: this.data.buffer,
      },
    });
    // The worker must not keep the process alive once the run is over, nor the policy outlive it.
    // Should the worker fail, the request waiting times out, naming the policy.
    worker.unref();
    process.once('exit', this.onExit);
    worker.on('error', () => undefined);
    return worker;
  }
}

/**
 * The arguments of `command` that look like relative paths (only a path's characters, not an
 * option, with a folder in them or a file extension) and are not there from `cwd`. A bare program
 * name is looked up on PATH, not in `cwd`, and is left out.
 */
export function relativePathsMissing(
  command: readonly string[],
  cwd: string,
  exists: (path: string) => boolean = existsSync,
): string[] {
  return command.filter(
    (arg, i) =>
      /^[\w.~@+,/-]+$/.test(arg) &&
      !arg.startsWith('-') &&
      !isAbsolute(arg) &&
      (arg.includes('/') || (i > 0 && /\.[A-Za-z][A-Za-z0-9]{0,4}$/.test(arg))) &&
      !exists(resolve(cwd, arg)),
  );
}

/** The worker: spawns the policy, writes each request to it, and hands each answer line back. */
const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const { spawn } = require('node:child_process');
const control = new Int32Array(workerData.control);
const data = new Uint8Array(workerData.data);
const [cmd, ...args] = workerData.command;
let pending = false;
let gone = null;
function hand(state, text) {
  const bytes = Buffer.from(text, 'utf8');
  const n = Math.min(bytes.length, data.length);
  data.set(bytes.subarray(0, n));
  Atomics.store(control, 1, n);
  Atomics.store(control, 0, state);
  Atomics.notify(control, 0);
}
const fail = (text) => hand(${BROKEN}, text);
const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] });
if (child.pid) Atomics.store(control, 2, child.pid);
// Gone: told to the request waiting now, or to the next one.
function goneWith(text) {
  gone = text;
  if (pending) fail(text);
}
child.on('error', (err) => goneWith('could not be started: ' + err.message));
let exited = !child.pid;
let stopping = false;
child.on('exit', (code, signal) => {
  exited = true;
  if (stopping) return process.exit(0);
  goneWith('exited' + (signal ? ' on signal ' + signal : ' with code ' + code) + ' before answering request ' + requests);
});
child.stdin.on('error', () => undefined);
let buffered = '';
let lines = 0;
let requests = 0;
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  buffered += chunk;
  for (let at = buffered.indexOf('\\n'); at >= 0; at = buffered.indexOf('\\n')) {
    const line = buffered.slice(0, at);
    buffered = buffered.slice(at + 1);
    lines++;
    if (!pending) {
      gone = 'wrote line ' + lines + ' of its output when no request was waiting for it (one answer per request): ' + line.slice(0, 200);
      continue;
    }
    pending = false;
    if (Buffer.byteLength(line) > data.length) fail('wrote an answer over ' + data.length + ' bytes at line ' + lines);
    else hand(${ANSWER}, line);
  }
});
parentPort.on('message', (line) => {
  // Stopped: the policy killed, and this worker gone once it is reaped.
  if (line === ${JSON.stringify(STOP)}) {
    stopping = true;
    if (exited) return process.exit(0);
    return void child.kill('SIGKILL');
  }
  requests++;
  pending = true;
  if (gone !== null) return fail(gone);
  child.stdin.write(line + '\\n');
});
`;
