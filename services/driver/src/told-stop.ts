import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** Why the run stopped when the orchestrator's end of standard input closed before it said why. */
export const ORCHESTRATOR_GONE =
  'gridemu run, which started the driver, is gone (standard input closed): the run lost its delay proxies and fault injector with it';

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
    private readonly input: Readable,
    /** A line that is not a stop: said, and otherwise ignored. */
    onBadLine: (line: string) => void,
  ) {
    this.lines = createInterface({ input });
    this.lines.on('line', (line) => {
      const reason = stopReasonOf(line);
      if (reason === undefined) onBadLine(line);
      else this.reason ??= reason;
    });
    // gridemu run holds the pipe open until the run has ended: its end closing says that it died
    // (SIGKILL, the OOM killer), and with it the run's delay proxies and fault injector. The run
    // stops at once and says so, rather than when a process cut off with its proxy falls silent.
    input.once('end', this.onEnd);
  }

  private readonly onEnd = () => void (this.reason ??= ORCHESTRATOR_GONE);

  /** Stops reading, so that an open pipe does not keep the process up. */
  close(): void {
    this.input.off('end', this.onEnd);
    this.lines.close();
  }
}

/**
 * Why summary.json says the run was aborted: the orchestrator's word when it came before the
 * results are written, else what the driver heard first. A signal to the whole process group (Ctrl-C,
 * `timeout`) reaches every process at once, and the driver may hear a site say it was signalled, or
 * feel its own signal, before gridemu run tells it why: only gridemu run saw the signal's cause. It
 * does not tell once it has stopped the run for a dead process, so this never hides a real failure
 * behind a later Ctrl-C. A run that ended before it was told is not aborted by being told.
 */
export function abortCause(heard: string | undefined, told: string | undefined): string | undefined {
  return heard === undefined ? undefined : (told ?? heard);
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
