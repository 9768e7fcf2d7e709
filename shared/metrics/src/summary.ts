import { roundNumber } from './format.js';
import { finalState, timing, type JobRecord, type Timing } from './job-record.js';

/** Mean metrics over a set of finished jobs. */
export interface GroupStats {
  readonly jobs: number;
  readonly mean_wait_s: number;
  readonly mean_turnaround_s: number;
  readonly mean_slowdown: number;
  readonly mean_bounded_slowdown: number;
}

export interface Summary {
  readonly jobs: {
    readonly submitted: number;
    readonly completed: number;
    readonly rejected: number;
    /** Given up by the scheme (COMPLETED_FAILED: its retries ran out). */
    readonly failed: number;
    /** Still queued or running when the run ended. */
    readonly unfinished: number;
    readonly rejected_by_reason: Record<string, number>;
    readonly failed_by_reason: Record<string, number>;
  };
  readonly mean_wait_s: number;
  readonly max_wait_s: number;
  readonly mean_turnaround_s: number;
  readonly mean_slowdown: number;
  readonly mean_bounded_slowdown: number;
  readonly bounded_slowdown_tau_s: number;
  readonly first_submit_s: number;
  readonly last_finish_s: number;
  /** Last finish − first submit. */
  readonly makespan_s: number;
  /** Σ (finish − submit) over completed jobs. */
  readonly flowtime_s: number;
  /** Σ procs × run / (processors × makespan), per executing site and over all of them. */
  readonly utilization: { readonly overall: number; readonly per_site: Record<string, number> };
  /**
   * Paper 001's job categories: narrow ≤ 8 processors (else wide), short ≤ 1 h (else long), by
   * actual run time; and "very short and very narrow" (< 15 min and < 8 processors, paper 001 §3).
   */
  readonly categories: Record<JobCategory, GroupStats>;
  readonly by_origin_site: Record<string, GroupStats>;
}

export type JobCategory = 'narrow_short' | 'narrow_long' | 'wide_short' | 'wide_long' | 'very_short_narrow';

export interface SiteCapacity {
  readonly id: string;
  readonly cpus: number;
}

export function jobCategories(procs: number, run_s: number): JobCategory[] {
  const width = procs <= 8 ? 'narrow' : 'wide';
  const length = run_s <= 3600 ? 'short' : 'long';
  const cats: JobCategory[] = [`${width}_${length}`];
  if (run_s < 900 && procs < 8) cats.push('very_short_narrow');
  return cats;
}

class Accumulator {
  jobs = 0;
  wait = 0;
  turnaround = 0;
  slowdown = 0;
  bounded = 0;

  add(t: Timing): void {
    this.jobs++;
    this.wait += t.wait_s;
    this.turnaround += t.turnaround_s;
    this.slowdown += t.slowdown;
    this.bounded += t.boundedSlowdown;
  }

  stats(): GroupStats {
    const n = Math.max(1, this.jobs);
    return {
      jobs: this.jobs,
      mean_wait_s: roundNumber(this.wait / n),
      mean_turnaround_s: roundNumber(this.turnaround / n),
      mean_slowdown: roundNumber(this.slowdown / n),
      mean_bounded_slowdown: roundNumber(this.bounded / n),
    };
  }
}

/**
 * The metrics of DESIGN.md's summary.json that come from the per-job records. Utilization is each
 * site's jobs' processors × run time over its CPUs × the makespan, or, given `busyProcessor_s`, those
 * processor-seconds (a scheme whose jobs hold no processors of their own counts them).
 */
export function summarize(
  records: readonly JobRecord[],
  sites: readonly SiteCapacity[],
  busyProcessor_s?: Readonly<Record<string, number>>,
): Summary {
  const all = new Accumulator();
  const categories = new Map<JobCategory, Accumulator>(
    (['narrow_short', 'narrow_long', 'wide_short', 'wide_long', 'very_short_narrow'] as const).map((c) => [
      c,
      new Accumulator(),
    ]),
  );
  const byOrigin = new Map<string, Accumulator>();
  const work = new Map<string, number>(sites.map((s) => [s.id, 0]));
  const rejected: Record<string, number> = {};
  const failedBy: Record<string, number> = {};
  let failed = 0;
  let firstSubmit = Number.POSITIVE_INFINITY;
  let lastFinish = Number.NEGATIVE_INFINITY;
  let maxWait = 0;
  let completed = 0;
  let unfinished = 0;
  let flowtime = 0;

  for (const r of records) {
    firstSubmit = Math.min(firstSubmit, r.job.submit_s);
    const state = finalState(r);
    if (state === 'REJECTED') {
      rejected[r.rejectReason!] = (rejected[r.rejectReason!] ?? 0) + 1;
      continue;
    }
    if (state === 'COMPLETED_FAILED') {
      failed++;
      failedBy[r.failReason!] = (failedBy[r.failReason!] ?? 0) + 1;
      continue;
    }
    const t = timing(r);
    if (!t) {
      unfinished++;
      continue;
    }
    completed++;
    lastFinish = Math.max(lastFinish, r.finish_s!);
    maxWait = Math.max(maxWait, t.wait_s);
    flowtime += t.turnaround_s;
    all.add(t);
    for (const c of jobCategories(r.job.procs, t.run_s)) categories.get(c)!.add(t);
    let o = byOrigin.get(r.job.origin);
    if (!o) byOrigin.set(r.job.origin, (o = new Accumulator()));
    o.add(t);
    if (r.execSite !== undefined) work.set(r.execSite, (work.get(r.execSite) ?? 0) + r.job.procs * t.run_s);
  }

  const makespan = completed > 0 ? lastFinish - firstSubmit : 0;
  const perSite: Record<string, number> = {};
  let totalWork = 0;
  let totalCpus = 0;
  for (const s of sites) {
    const w = busyProcessor_s ? (busyProcessor_s[s.id] ?? 0) : (work.get(s.id) ?? 0);
    totalWork += w;
    totalCpus += s.cpus;
    perSite[s.id] = makespan > 0 ? roundNumber(w / (s.cpus * makespan)) : 0;
  }
  const overall = all.stats();
  return {
    jobs: {
      submitted: records.length,
      completed,
      rejected: records.length - completed - unfinished - failed,
      failed,
      unfinished,
      rejected_by_reason: rejected,
      failed_by_reason: failedBy,
    },
    mean_wait_s: overall.mean_wait_s,
    max_wait_s: roundNumber(maxWait),
    mean_turnaround_s: overall.mean_turnaround_s,
    mean_slowdown: overall.mean_slowdown,
    mean_bounded_slowdown: overall.mean_bounded_slowdown,
    bounded_slowdown_tau_s: 10,
    first_submit_s: Number.isFinite(firstSubmit) ? firstSubmit : 0,
    last_finish_s: Number.isFinite(lastFinish) ? roundNumber(lastFinish) : 0,
    makespan_s: roundNumber(makespan),
    flowtime_s: roundNumber(flowtime),
    utilization: { overall: makespan > 0 ? roundNumber(totalWork / (totalCpus * makespan)) : 0, per_site: perSite },
    categories: Object.fromEntries([...categories].map(([k, v]) => [k, v.stats()])) as Record<JobCategory, GroupStats>,
    by_origin_site: Object.fromEntries(
      [...byOrigin].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, v.stats()]),
    ),
  };
}
