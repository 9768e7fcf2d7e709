import type { Job, SourceCommon } from '@gridemu/model';
import type { SwfRecord } from './swf-record.js';

/**
 * What the conversion changed, by reason: nothing a trace says is altered silently
 * (docs/workload.md explains each rule).
 */
export type Adjustment =
  | 'runtime_raised_to_1s'
  | 'estimate_missing_set_to_runtime'
  | 'estimate_raised_to_runtime'
  | 'estimate_replaced_by_runtime'
  | 'procs_from_request'
  | 'processors_unknown'
  | 'submit_unknown_set_to_0'
  | 'equal_width';

export type AdjustmentCounts = Partial<Record<Adjustment, number>>;

export interface ConversionTarget {
  readonly origin: string;
  readonly source: SourceCommon;
}

/**
 * Turns an SWF record into a job at `origin`:
 * - run time <= 0 or unknown: 1 s (a job that ran "no time" still took a scheduling slot);
 * - requested time unknown: the run time (a perfect estimate; the job cannot be scheduled by EASY
 *   without one);
 * - run time > requested time: the requested time is raised to the run time (the machine let the
 *   job run that long, so the effective limit was at least that; EASY relies on estimate >= run);
 * - processors: allocated (field 5), else requested (field 8), else the job is REJECTED at
 *   submission with reason processors_unknown;
 * - then runtime_scale stretches run and requested time (rounded to whole seconds, at least 1),
 *   exact_estimates sets requested time = run time, and shift_h moves the submit time.
 */
export function convertRecord(r: SwfRecord, target: ConversionTarget, counts: AdjustmentCounts): Job {
  const { source } = target;
  let run = r.run;
  if (!(run > 0)) {
    run = 1;
    bump(counts, 'runtime_raised_to_1s');
  }
  let estimate = r.requestedTime;
  if (!(estimate > 0)) {
    estimate = run;
    bump(counts, 'estimate_missing_set_to_runtime');
  } else if (run > estimate) {
    estimate = run;
    bump(counts, 'estimate_raised_to_runtime');
  }
  const times = sourceTimes(source, run, estimate, counts);
  let procs = r.allocatedProcs;
  let rejectReason: Job['rejectReason'];
  if (!(procs > 0)) {
    if (r.requestedProcs > 0) {
      procs = r.requestedProcs;
      bump(counts, 'procs_from_request');
    } else {
      procs = 0;
      rejectReason = 'processors_unknown';
      bump(counts, 'processors_unknown');
    }
  }
  let submit = r.submit;
  if (submit < 0) {
    submit = 0;
    bump(counts, 'submit_unknown_set_to_0');
  }
  // Built field by field rather than with spreads: this runs once per line of a trace.
  const job: { -readonly [K in keyof Job]: Job[K] } = {
    id: `${source.name}!${r.jobNumber}`,
    workload: source.name,
    origin: target.origin,
    submit_s: submit + source.shift_h * 3600,
    run_s: times.run_s,
    estimate_s: times.estimate_s,
    procs: Math.round(procs),
  };
  if (r.user >= 0) job.user = r.user;
  if (r.group >= 0) job.group = r.group;
  if (rejectReason) job.rejectReason = rejectReason;
  return job;
}

/**
 * The per-source stretch every source applies, trace or model: runtime_scale multiplies run and
 * requested time (whole seconds, run at least 1, request never below run), then exact_estimates
 * sets the request to the run time (paper 001 §3 and §6).
 */
export function sourceTimes(
  source: SourceCommon,
  run: number,
  estimate: number,
  counts: AdjustmentCounts,
): { run_s: number; estimate_s: number } {
  if (source.runtime_scale !== 1) {
    run = Math.max(1, Math.round(run * source.runtime_scale));
    estimate = Math.max(run, Math.round(estimate * source.runtime_scale));
  }
  if (source.exact_estimates && estimate !== run) {
    estimate = run;
    bump(counts, 'estimate_replaced_by_runtime');
  }
  return { run_s: run, estimate_s: estimate };
}

export function bump<K extends string>(counts: Partial<Record<K, number>>, key: K, by = 1): void {
  counts[key] = (counts[key] ?? 0) + by;
}
