import type { Job } from '@gridemu/model';

/**
 * How long a live run lasts at the least, known before it starts. Its clock starts at the first
 * submission and runs at the speed-up whatever the processes do (a process behind shows as timer
 * lag, not as a slower clock), and no job ends before it is submitted: so the run reaches its last
 * submission exactly `submissions_s / speedup` wall seconds after its start, and ends later. A
 * user who points a month of trace at the default speed-up learns before the run, not an hour in,
 * that it takes an hour.
 */
export interface RunLength {
  /** Emulated seconds from the first submission to the last. */
  readonly submissions_s: number;
  readonly speedup: number;
}

export function runLength(jobs: readonly Pick<Job, 'submit_s'>[], speedup: number): RunLength {
  let first = Infinity;
  let last = -Infinity;
  for (const j of jobs) {
    first = Math.min(first, j.submit_s);
    last = Math.max(last, j.submit_s);
  }
  return { submissions_s: jobs.length === 0 ? 0 : last - first, speedup };
}

/** The line `gridemu run` says before it starts the processes. */
export function describeRunLength(length: RunLength): string {
  const wall_s = length.submissions_s / length.speedup;
  return (
    `the submissions span ${formatDuration(length.submissions_s)} emulated: at speed-up ${length.speedup} ` +
    `the run lasts at least ${formatDuration(wall_s)} of wall time, and until its last jobs end after that`
  );
}

/**
 * The line a live sweep says before its first run: how long the runs' submissions last in all,
 * `parallel` at a time (a lower bound, as each run's is), and each run's range.
 */
export function describeSweepLength(lengths: readonly RunLength[], parallel: number): string {
  const walls = lengths.map((l) => l.submissions_s / l.speedup);
  const together = Math.min(parallel, lengths.length);
  const total = walls.reduce((a, b) => a + b, 0) / together;
  const least = Math.min(...walls);
  const most = Math.max(...walls);
  const each =
    formatDuration(least) === formatDuration(most)
      ? `${formatDuration(least)} each`
      : `${formatDuration(least)} to ${formatDuration(most)} each`;
  return (
    `the ${lengths.length} live run${lengths.length === 1 ? "'s" : "s'"} submissions last at least ` +
    `${formatDuration(total)} of wall time${together > 1 ? `, ${together} at a time` : ''} (${each})`
  );
}

/**
 * The progress line's detail: the emulated clock and the wall time, and until the last submission
 * how long it is still away in wall time (exact, the clock being the wall's at the speed-up).
 */
export function progressDetail(length: RunLength, emulated_s: number, wall_s: number): string {
  const clock = `emulated ${formatDuration(emulated_s)}, wall ${formatDuration(wall_s)}`;
  const toLast_s = (length.submissions_s - emulated_s) / length.speedup;
  return toLast_s >= 1 ? `${clock}, last submission in ${formatDuration(toLast_s)}` : `${clock}, all submitted`;
}

/** Seconds as a person reads them: s under two minutes, then min, h, d. */
export function formatDuration(s: number): string {
  if (s < 120) return `${s.toFixed(0)} s`;
  if (s < 3600) return `${(s / 60).toFixed(1)} min`;
  if (s < 86_400 * 2) return `${(s / 3600).toFixed(1)} h`;
  return `${(s / 86_400).toFixed(1)} d`;
}
