import { pino, type DestinationStream, type Logger as Pino } from 'pino';
import type { Logger } from './actor.js';
import { BufferedOutput } from './buffered-output.js';

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
      buffered.flushSync?.();
    },
    line: (json) => destination.write(`${json}\n`),
  };
}

/** Standard output in blocks, at least every 0.1 s, flushed without fsync (BufferedOutput). */
function bufferedStdout(): DestinationStream {
  return new BufferedOutput(1);
}
