/** The message of a trace line in a live process's log (gridemu run turns them into protocol-trace.csv). */
export const TRACE_LOG_MESSAGE = 'trace';

/** Where and when a protocol step was taken, for its trace line. */
export interface TraceLineFields {
  readonly run: string;
  /** The actor's location; absent for run-wide actors (the driver). */
  readonly site: string | undefined;
  readonly actor: string;
  readonly job: string;
  readonly event: string;
  readonly detail: string;
  /** Emulated seconds. */
  readonly time_s: number;
  /** Wall milliseconds since the epoch, as pino's `time`. */
  readonly wall_ms: number;
  /** Written again by a restart (replayed-log-lines.ts). */
  readonly replayed?: true;
}

/**
 * One protocol step as a log line, the same JSON a pino `info` line with these fields would be
 * (level 30, `msg` TRACE_LOG_MESSAGE), built by hand: a traced live run logs tens of thousands of
 * steps, most in its busiest seconds, and pino's fields cost a process about 10 µs each there,
 * enough to slow the run being traced (docs/fidelity-notes.md, "A trace that logs each step").
 */
export function traceLine(f: TraceLineFields): string {
  const site = f.site === undefined ? '' : `"site":${JSON.stringify(f.site)},`;
  return (
    `{"level":30,"time":${f.wall_ms},"run":${JSON.stringify(f.run)},${site}"actor":${JSON.stringify(f.actor)},` +
    `"job":${JSON.stringify(f.job)},"event":${JSON.stringify(f.event)},"detail":${JSON.stringify(f.detail)},` +
    `"time_s":${f.time_s},${f.replayed === true ? '"replayed":true,' : ''}"msg":"${TRACE_LOG_MESSAGE}"}`
  );
}
