import type { ExperimentSpec } from '@gridemu/model';
import { roundNumber, type JobRecord } from '@gridemu/metrics';
import type { SchemeMetric } from '../scheme-module.js';
import { isBlastSource } from './blast-source.js';
import { FAILURE_CATEGORIES, SITE_CRASH, UNSET_ENVIRONMENT } from './failures.js';
import { gruberMeta, voAggregate } from './meta.js';
import { viewAgeStats } from './view-age.js';

/** The figures paper 002 reports (§3.1), over the grid jobs (the BLAST sources' jobs). */
export interface PaperMetrics {
  readonly jobs: number;
  /** Comp: % of jobs that completed. */
  readonly comp_pct: number;
  /** Replan: re-planning operations. */
  readonly replan: number;
  /** Util: Σ ET_i / (#cpus × Δt) × 100, #cpus the grid VOs' aggregate, Δt the workload's Time. */
  readonly util_pct: number;
  /** Delay: mean time from first being sent to a provider's queue to starting, over completed jobs. */
  readonly delay_s: number | null;
  /** Time: first submission to last completion. */
  readonly time_s: number | null;
  /**
   * Speedup (§3.1): the serial execution time over the Grid execution time, "a comparison between
   * the running times on similar resources": the completed jobs' own run times, where they ran, in
   * sequence, over Time. So it never passes the CPUs the submitter held at once (its group's cap).
   */
  readonly speedup: number | null;
  /** Spdup75: the same for the first 75% of the jobs to complete, up to the moment the 75th percent did. */
  readonly spdup75: number | null;
}

/** §3.1's metrics from one submitter's jobs' records; `cpus` is #cpus. */
export function paperMetrics(
  grid: readonly JobRecord[],
  cpus: number,
  delay: { sum_s: number; jobs: number },
): PaperMetrics {
  const done = grid
    .filter((r) => r.start_s !== undefined && r.finish_s !== undefined && r.failReason === undefined)
    .sort((a, b) => a.finish_s! - b.finish_s!);
  const first = grid.reduce((m, r) => Math.min(m, r.job.submit_s), Infinity);
  const replan = grid.reduce((n, r) => n + r.replans, 0);
  if (done.length === 0)
    return {
      jobs: grid.length,
      comp_pct: 0,
      replan,
      util_pct: 0,
      delay_s: null,
      time_s: null,
      speedup: null,
      spdup75: null,
    };
  const time = done[done.length - 1]!.finish_s! - first;
  // The CPU time of the completed runs, each as long as it took where it ran. It is also §3.1's
  // serial time for Speedup: the same jobs in sequence on the same CPUs.
  const serial = (rs: readonly JobRecord[]) => rs.reduce((a, r) => a + r.job.procs * (r.finish_s! - r.start_s!), 0);
  const cpuTime = serial(done);
  const n75 = Math.ceil(0.75 * grid.length);
  const spdup75 =
    done.length >= n75 && n75 > 0
      ? serial(done.slice(0, n75)) / Math.max(1e-9, done[n75 - 1]!.finish_s! - first)
      : null;
  return {
    jobs: grid.length,
    comp_pct: roundNumber((100 * done.length) / grid.length, 4),
    replan,
    util_pct: cpus > 0 && time > 0 ? roundNumber((100 * cpuTime) / (cpus * time), 4) : 0,
    delay_s: delay.jobs > 0 ? roundNumber(delay.sum_s / delay.jobs, 3) : null,
    time_s: roundNumber(time, 3),
    speedup: time > 0 ? roundNumber(cpuTime / time, 4) : null,
    spdup75: spdup75 === null ? null : roundNumber(spdup75, 4),
  };
}

/**
 * §3.1's metrics per submitter (group), then their mean, as Table IX reports 4 × 1000: "the
 * means across the four submitters". With one submitter the two are the same.
 */
export function perSubmitterMetrics(
  grid: readonly JobRecord[],
  cpus: number,
  counters: Readonly<Record<string, number>>,
): { mean: PaperMetrics; per_group: Record<string, PaperMetrics> } {
  const c = (name: string) => counters[name] ?? 0;
  const delay = { sum_s: c('gruber.delay_s'), jobs: c('gruber.completed') };
  const groups = [...new Set(grid.map((r) => String(r.job.group)))];
  const per_group = Object.fromEntries(
    groups.map((g) => [
      g,
      paperMetrics(
        grid.filter((r) => String(r.job.group) === g),
        cpus,
        { sum_s: c(`gruber.delay_s.group.${g}`), jobs: c(`gruber.completed.group.${g}`) },
      ),
    ]),
  );
  const all = Object.values(per_group);
  if (all.length <= 1) return { mean: all[0] ?? paperMetrics(grid, cpus, delay), per_group };
  const avg = (k: keyof PaperMetrics): number | null => {
    const xs = all.map((m) => m[k]).filter((x): x is number => typeof x === 'number');
    return xs.length === all.length ? roundNumber(xs.reduce((a, b) => a + b, 0) / xs.length, 4) : null;
  };
  return {
    mean: {
      jobs: grid.length,
      comp_pct: avg('comp_pct') ?? 0,
      replan: avg('replan') ?? 0,
      util_pct: avg('util_pct') ?? 0,
      // Delay is counted over every completed job, not per submitter.
      delay_s: delay.jobs > 0 ? roundNumber(delay.sum_s / delay.jobs, 3) : null,
      time_s: avg('time_s'),
      speedup: avg('speedup'),
      spdup75: avg('spdup75'),
    },
    per_group,
  };
}

/** GRUBER's part of summary.json: the paper's metrics, and what failed, starved and was re-planned. */
export function gruberSummary(
  counters: Readonly<Record<string, number>>,
  spec: ExperimentSpec,
  records: readonly JobRecord[],
): Record<string, unknown> {
  const meta = gruberMeta(spec);
  const blast = spec.workload.filter(isBlastSource);
  const names = new Set(blast.map((s) => s.name));
  const vos = [...new Set(blast.map((s) => s.blast.vo))];
  const cpus = vos.reduce((n, vo) => n + voAggregate(meta, spec.sites, vo), 0);
  const grid = records.filter((r) => names.has(r.job.workload));
  const c = (name: string) => counters[name] ?? 0;
  const metrics = perSubmitterMetrics(grid, cpus, counters);
  const byPrefix = (prefix: string) =>
    Object.fromEntries(
      Object.entries(counters)
        .filter(([k]) => k.startsWith(prefix))
        .map(([k, v]) => [k.slice(prefix.length), v]),
    );
  return {
    gruber: {
      selector: meta.selector,
      decision_points: meta.decision_points,
      grid_cpus: cpus,
      ...metrics.mean,
      per_submitter: metrics.per_group,
      // Of Delay, the part the completed run waited in its site's queue.
      site_queue_s: c('gruber.completed') > 0 ? roundNumber(c('gruber.site_queue_s') / c('gruber.completed'), 3) : null,
      submissions: c('gruber.submissions'),
      starved: c('gruber.starved'),
      waits_for_a_site: c('gruber.waits'),
      queries: c('gruber.queries'),
      queries_timed_out: c('gruber.queries_timed_out'),
      failures: Object.fromEntries(
        [...FAILURE_CATEGORIES, UNSET_ENVIRONMENT, 'too_wide', SITE_CRASH]
          .map((k) => [k, c(`gruber.failures.${k}`)])
          .filter(([, v]) => v !== 0),
      ),
      replans_by_reason: byPrefix('gruber.replans.'),
      view_age: viewAgeStats(counters),
    },
  };
}

export const GRUBER_METRICS: readonly SchemeMetric[] = [
  { path: 'gruber.comp_pct', column: 'comp_pct', compared: true },
  { path: 'gruber.replan', column: 'replan', compared: true },
  { path: 'gruber.util_pct', column: 'util_pct' },
  { path: 'gruber.delay_s', column: 'delay_s' },
  { path: 'gruber.time_s', column: 'time_s', compared: true },
  { path: 'gruber.speedup', column: 'speedup' },
  { path: 'gruber.spdup75', column: 'spdup75' },
];
