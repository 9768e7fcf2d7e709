import { largest, type ExperimentSpec, type Job } from '@gridemu/model';
import type { JobRecord } from '@gridemu/metrics';
import { schemeMeanOutage_s } from './registry.js';

/** The least quiet (emulated s) a run may have before it is called stuck: 30 days. */
const MIN_QUIET_S = 30 * 86_400;
/** Longest jobs a quiet may span: every running job ends within its run, so ten is slack. */
const LONGEST_JOBS = 10;
/**
 * Mean outages a quiet may span. An outage is exponential, so no multiple bounds it; one longer
 * than 50 means has a chance of e^-50 (about 2e-22).
 */
const MEAN_OUTAGES = 50;

/** A simulation that stopped getting anywhere: some jobs will never have an outcome. */
export class StalledRunError extends Error {
  constructor(
    /** The jobs without an outcome (all of them, in submission order). */
    readonly left: readonly string[],
    message: string,
  ) {
    super(message);
    this.name = 'StalledRunError';
  }
}

/**
 * Ends a run that would never end. A simulation ends when every job has its outcome; a job lost
 * for good (a report dropped, a plan waiting on an answer that never comes: a bug) leaves the
 * periodic actors (load reports, monitors) running for ever, and the simulation with them (fuzz
 * seed 4633 before its fix). Once the last submission and the last fault are past, a run in which
 * no job reaches its outcome for 30 days, ten times its longest job or 50 times the scheme's mean
 * outage (paper 000's pool outages, paper 002's misbehaving managers), whichever is longest, is
 * stuck: the watch throws a StalledRunError naming the jobs left.
 */
export class StalledRunWatch {
  private readonly quietFrom_s: number;
  /** How long a quiet may last (emulated s). */
  readonly limit_s: number;
  private finished = 0;
  private lastOutcome_s = Number.NEGATIVE_INFINITY;

  /**
   * `meanOutage_s`: the mean of the scheme's own outages that hold jobs back (0: none);
   * `minQuiet_s`: a quiet the caller allows whatever the run (a live run's silence allowance).
   */
  constructor(spec: ExperimentSpec, jobs: readonly Job[], meanOutage_s = 0, minQuiet_s = 0) {
    const f = spec.faults;
    this.quietFrom_s = Math.max(
      largest(jobs.map((j) => j.submit_s)),
      largest(f.crash.map((c) => c.at_s + c.down_s)),
      largest(f.partition.map((p) => p.to_s)),
      largest(f.nats_restart.map((r) => r.at_s + r.down_s)),
    );
    this.limit_s = Math.max(
      MIN_QUIET_S,
      LONGEST_JOBS * Math.max(0, largest(jobs.map((j) => j.run_s))),
      MEAN_OUTAGES * meanOutage_s,
      minQuiet_s,
    );
  }

  /** Called as the run goes on with its jobs with an outcome so far; throws once the run is stuck. */
  check(finished: number, now_s: number, records: readonly JobRecord[]): void {
    if (finished !== this.finished) {
      this.finished = finished;
      this.lastOutcome_s = now_s;
      return;
    }
    const quietSince_s = Math.max(this.lastOutcome_s, this.quietFrom_s);
    if (now_s - quietSince_s <= this.limit_s) return;
    const left = records
      .filter((r) => r.finish_s === undefined && r.failReason === undefined && r.rejectReason === undefined)
      .map((r) => r.job.id);
    const shown = left.length > 5 ? `${left.slice(0, 5).join(', ')}, …` : left.join(', ');
    throw new StalledRunError(
      left,
      `invariant: no job lost, and the run ends: no job reached its outcome for ${Math.round(now_s - quietSince_s)} emulated s ` +
        `(from ${Math.round(quietSince_s)} s, past the last submission and fault, to ${Math.round(now_s)} s); ` +
        `${records.length - finished} of ${records.length} jobs have none${shown ? ` (${shown})` : ''}: ` +
        'a job lost (a bug), or a grid that never runs it',
    );
  }
}

/** The watch for a run of `spec` on `jobs`, its scheme's outages allowed for, and `minQuiet_s` at least. */
export function stalledRunWatch(spec: ExperimentSpec, jobs: readonly Job[], minQuiet_s = 0): StalledRunWatch {
  return new StalledRunWatch(spec, jobs, schemeMeanOutage_s(spec), minQuiet_s);
}
