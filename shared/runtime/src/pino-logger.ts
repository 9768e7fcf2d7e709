import { pino, type DestinationStream, type Logger as Pino } from 'pino';
import type { Logger } from './actor.js';

/**
 * The runtime's Logger on pino: one JSON line per event, with the run id (and, through
 * withFields, the site and actor) on every line (DESIGN.md).
 */
export function pinoLogger(
  run: string,
  options: { level?: string; destination?: DestinationStream } = {},
): Logger & { readonly pino: Pino } {
  const destination = options.destination ?? bufferedStdout();
  const p = pino({ level: options.level ?? 'info', base: { run } }, destination);
  const buffered = destination as DestinationStream & { flushSync?: () => void };
  return {
    pino: p,
    debug: (f, m) => p.debug(f, m),
    info: (f, m) => p.info(f, m),
    warn: (f, m) => p.warn(f, m),
    error: (f, m) => p.error(f, m),
    flush: () => {
      try {
        buffered.flushSync?.();
      } catch {
        // A write already under way finishes on its own (sonic-boom refuses a second at once).
      }
    },
  };
}

/** How often buffered log lines are written out even if a block is not full. */
const LOG_FLUSH_MS = 100;

/**
 * Standard output, written in blocks of a few KiB rather than one write per line (a live site logs a
 * line per job start, thousands a second at high speed-ups), at least every LOG_FLUSH_MS, and when
 * the process exits. A process killed with SIGKILL loses at most its last 0.1 s of lines.
 */
function bufferedStdout(): DestinationStream {
  const dest = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => dest.flush(), LOG_FLUSH_MS).unref();
  process.once('exit', () => {
    try {
      dest.flushSync();
    } catch {
      // stdout already closed: nothing left to say
    }
  });
  return dest;
}
