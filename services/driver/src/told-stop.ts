import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/**
 * Why the orchestrator (gridemu run) stopped the run, told on the driver's standard input as one
 * JSON line, `{"stop": "<reason>"}`, before it signals the driver. A signal alone says only that
 * the driver was signalled; this way summary.json's live.aborted names the cause (a lost
 * nats-server, --timeout, Ctrl-C), which reaches the driver even when the bus is gone.
 */
export class ToldStop {
  /** The first reason told; undefined until one is. */
  reason: string | undefined;
  private readonly lines: ReturnType<typeof createInterface>;

  constructor(
    input: Readable,
    /** A line that is not a stop: said, and otherwise ignored. */
    onBadLine: (line: string) => void,
  ) {
    this.lines = createInterface({ input });
    this.lines.on('line', (line) => {
      const reason = stopReasonOf(line);
      if (reason === undefined) onBadLine(line);
      else this.reason ??= reason;
    });
  }

  /** Stops reading, so that an open pipe does not keep the process up. */
  close(): void {
    this.lines.close();
  }
}

/** The reason in one line `{"stop": "<reason>"}`, or undefined if the line is not one. */
export function stopReasonOf(line: string): string | undefined {
  let told: unknown;
  try {
    told = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof told !== 'object' || told === null || Array.isArray(told)) return undefined;
  const reason = (told as Record<string, unknown>)['stop'];
  return typeof reason === 'string' && reason.trim() !== '' ? reason : undefined;
}
