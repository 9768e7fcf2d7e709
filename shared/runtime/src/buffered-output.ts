import { writeSync } from 'node:fs';

/** A block is written once this many characters are waiting. */
const BLOCK_CHARS = 4096;

/** How often waiting lines are written out even if a block is not full. */
const WRITE_EVERY_MS = 100;

/**
 * Log lines to a file descriptor (standard output), written in blocks of a few KiB rather than one
 * write per line (a live site logs a line per job start, thousands a second at high speed-ups), at
 * least every 0.1 s, when the process exits, and whenever `flushSync` is called.
 *
 * Every write is write(2), never fsync: a line written survives the process (SIGKILL), as the file
 * journal does, not the host. A journaled process flushes after every turn's append, before that
 * turn's output leaves; pino's own destination fsyncs on each flushSync, which at thousands of turns
 * a second cost a fifth of a site's CPU and slowed every other write on the disk (docs/faults.md).
 */
export class BufferedOutput {
  private waiting: string[] = [];
  private waitingChars = 0;

  constructor(private readonly fd: number) {
    setInterval(() => this.flushSync(), WRITE_EVERY_MS).unref();
    process.once('exit', () => this.flushSync());
  }

  write(line: string): void {
    this.waiting.push(line);
    this.waitingChars += line.length;
    if (this.waitingChars >= BLOCK_CHARS) this.flushSync();
  }

  flushSync(): void {
    if (this.waitingChars === 0) return;
    const bytes = Buffer.from(this.waiting.join(''), 'utf8');
    this.waiting = [];
    this.waitingChars = 0;
    let done = 0;
    while (done < bytes.byteLength) {
      try {
        done += writeSync(this.fd, bytes, done);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        // A pipe (a container's log) that is full: wait for its reader rather than lose the lines.
        if (code === 'EAGAIN') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
        // Standard output closed (its reader is gone): nothing left to say to anyone.
        else if (code === 'EPIPE' || code === 'EBADF') return;
        else throw err;
      }
    }
  }
}
