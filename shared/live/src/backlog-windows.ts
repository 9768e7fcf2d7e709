/**
 * The fidelity guard's look at a run's stretches. The guard judges a run's mean hop and mean timer
 * lag; a run can keep both small and still fall behind its clock for a while (at 20,000× the
 * chaos spec's processes fired timers 14 to 26 wall ms late in the trace's first two seconds, 1.5
 * ms over the run: docs/faults.md). What the jobs submitted in such a stretch measured is the
 * processes' own backlog, which a grid would not have. Pure: the driver hands in what the run
 * measured (network.json's `mailbox.timer_fire_timeline`) and the jobs' submission times.
 */

import type { TimerTimeline } from '@gridemu/protocol';
import { pct } from './fidelity-guard.js';

/**
 * How late one process's timers fired in one window of the run, before their mailbox (what they
 * waited there is the messages' business): their mean and how many there were.
 */
export interface TimerWindow {
  readonly location: string;
  /** The window's number: it covers emulated `window × bin_s` to `(window + 1) × bin_s`. */
  readonly window: number;
  readonly mean_ms: number;
  readonly count: number;
}

export interface BacklogInput {
  readonly speedup: number;
  readonly bin_s: number;
  readonly timers: readonly TimerWindow[];
  /** Each job's submission, emulated s. */
  readonly submits_s: readonly number[];
  /** The timescale the lag is judged against (the guard's shortest: shortestTimescale), and its name. */
  readonly timescale: { readonly name: string; readonly seconds: number };
  /** The largest share of it a window's mean lag may take. */
  readonly share: number;
  /** Timers' mean lateness before their mailbox over the whole run, wall ms, to set the worst window against. */
  readonly run_mean_ms: number;
}

export interface BacklogVerdict {
  /**
   * The lateness a window is judged beyond, wall ms: 0, or the run's own mean when that is over the
   * share already (the guard's mean has said so): a window is then behind when it stands out from it.
   */
  readonly judged_beyond_ms: number;
  /** Windows in which some process's timers fell behind by more than `share` of the timescale. */
  readonly windows_behind: number;
  readonly windows: number;
  /** The jobs submitted in those windows, and their share of the run's. */
  readonly jobs_submitted: number;
  readonly jobs_share: number;
  /** The worst process and window. */
  readonly worst?: {
    readonly location: string;
    readonly from_s: number;
    readonly to_s: number;
    readonly mean_ms: number;
    readonly mean_s: number;
    readonly share: number;
  };
  readonly warnings: readonly string[];
}

/**
 * A window's mean is judged only over at least this many timers: one timer held up by the
 * machine is noise, not a stretch behind.
 */
export const MIN_TIMERS_IN_WINDOW = 5;

export function judgeBacklog(input: BacklogInput): BacklogVerdict {
  const limit_ms = (input.share * input.timescale.seconds * 1000) / input.speedup;
  // A run whose timers were late beyond the share on average is late in every window; the guard's
  // mean names that. Judged against zero, every window was then "behind", and the warning called a
  // steady lag a backlog (examples/gruber-live.yaml at 5,000x: 27 of 27 windows, the worst 1.4 ms
  // against 1.0 over the run). Judged beyond that mean, a window is behind when it bunched up more.
  const beyond_ms = input.run_mean_ms > limit_ms ? input.run_mean_ms : 0;
  const judged = input.timers.filter((t) => t.count >= MIN_TIMERS_IN_WINDOW);
  const windows = new Set(judged.map((t) => t.window));
  const behind = new Set(judged.filter((t) => t.mean_ms - beyond_ms > limit_ms).map((t) => t.window));
  const inBehind = input.submits_s.filter((s) => behind.has(Math.floor(s / input.bin_s))).length;
  const jobs_share = input.submits_s.length > 0 ? inBehind / input.submits_s.length : 0;
  const worstTimer = judged.reduce<TimerWindow | undefined>((w, t) => (w && w.mean_ms >= t.mean_ms ? w : t), undefined);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const worst = worstTimer && {
    location: worstTimer.location,
    from_s: worstTimer.window * input.bin_s,
    to_s: (worstTimer.window + 1) * input.bin_s,
    mean_ms: round(worstTimer.mean_ms),
    mean_s: round((worstTimer.mean_ms * input.speedup) / 1000),
    share: round((worstTimer.mean_ms * input.speedup) / 1000 / input.timescale.seconds),
  };
  const verdict = {
    judged_beyond_ms: round(beyond_ms),
    windows_behind: behind.size,
    windows: windows.size,
    jobs_submitted: inBehind,
    jobs_share: round(jobs_share),
    ...(worst ? { worst } : {}),
  };
  if (behind.size === 0 || !worst) return { ...verdict, warnings: [] };
  const against =
    beyond_ms > 0
      ? `further behind than their mean over the run (${input.run_mean_ms.toFixed(1)} wall ms, itself over ` +
        `${pct(input.share)} of ${input.timescale.name}: the warning above) by more than that share`
      : 'behind';
  return {
    ...verdict,
    warnings: [
      `timers fell ${against} in ${behind.size} of ${windows.size} windows of ${input.bin_s} emulated s ` +
        `(worst: ${worst.location} from ${worst.from_s} to ${worst.to_s} s, a mean ${worst.mean_ms.toFixed(1)} wall ms late ` +
        `against ${input.run_mean_ms.toFixed(1)} over the run, ` +
        `${worst.mean_s.toFixed(0)} emulated s, ${pct(worst.share)} of ${input.timescale.name} (${input.timescale.seconds} s)): ` +
        `the ${inBehind} jobs submitted then (${pct(jobs_share)} of the run) measured the processes' backlog, not the scheme; ` +
        `a lower speed-up shrinks it`,
    ],
  };
}

/** network.json's timer timeline as windows, each process's apart. */
export function timerWindowsOf(timeline: TimerTimeline): TimerWindow[] {
  const windows: TimerWindow[] = [];
  for (const [location, byWindow] of Object.entries(timeline.locations))
    for (const [w, state] of Object.entries(byWindow))
      if (state.count > 0)
        windows.push({ location, window: Number(w), mean_ms: state.sum_ms / state.count, count: state.count });
  return windows;
}
