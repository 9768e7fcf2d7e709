import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NO_FAULTS, type ExperimentSpec, type Job } from '@gridemu/model';
import { checkRun, jobsCsvText, type JobRecord } from '@gridemu/metrics';
import fc from 'fast-check';

export const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '../../../..');
/** Tests and CI read traces from ../shared/data/traces unless GRIDEMU_TRACE_DIR says otherwise. */
export { TEST_TRACE_DIR as TRACE_DIR } from '@gridemu/testkit';

export function specOf(partial: Partial<ExperimentSpec> & Pick<ExperimentSpec, 'sites'>): ExperimentSpec {
  return {
    name: 'test',
    seed: 1,
    workload: [],
    local: { policy: 'easy' },
    meta: { scheme: 'independent', k: 1, load_period_s: 60, claim_timeout_s: 5, claim: 'hold' },
    network: { latency_ms: 0, jitter_ms: 0 },
    live: { speedup: 1000 },
    faults: NO_FAULTS,
    ...partial,
  };
}

/** Random jobs for `sites`, sorted by submit time, at most `maxProcs` wide; estimates >= run. */
export function arbitraryJobs(
  sites: readonly string[],
  maxProcs: number,
  opts: { exact?: boolean; maxJobs?: number } = {},
): fc.Arbitrary<Job[]> {
  const one = fc.record({
    submit: fc.integer({ min: 0, max: 500 }),
    run: fc.integer({ min: 1, max: 200 }),
    extra: fc.integer({ min: 0, max: 300 }),
    procs: fc.integer({ min: 1, max: maxProcs }),
    site: fc.constantFrom(...sites),
  });
  return fc.array(one, { minLength: 1, maxLength: opts.maxJobs ?? 40 }).map((raw) =>
    raw
      .sort((a, b) => a.submit - b.submit)
      .map((r, i) => ({
        id: `w!${i}`,
        workload: 'w',
        origin: r.site,
        submit_s: r.submit,
        run_s: r.run,
        estimate_s: opts.exact ? r.run : r.run + r.extra,
        procs: r.procs,
      })),
  );
}

/**
 * The verdicts of gridemu check that a simulated run fails: one final row per job, none run twice
 * or overlapping itself (its lost runs included), no site over capacity, none lost.
 */
export function failedChecks(spec: ExperimentSpec, submitted: number, records: readonly JobRecord[]) {
  const runs = records.flatMap((r) => [
    ...r.lostRuns.map((l) => ({ jobId: r.job.id, ...l })),
    ...(r.start_s === undefined
      ? []
      : [{ jobId: r.job.id, site: r.execSite!, start_s: r.start_s, end_s: r.finish_s ?? r.failed_s ?? r.start_s }]),
  ]);
  const cpus = new Map(spec.sites.map((s) => [s.id, s.cpus]));
  return checkRun({ jobsCsv: jobsCsvText(records), submitted, cpus, runs }).filter((v) => !v.ok);
}

/**
 * Paper 000's smallest grid as experiment-file lines: one grid `g` of one CPU (no overhead, no
 * evictions, `grid` adding its options) under one FCFS queue, and two tasks: 1000 s submitted at
 * 0 and 100 s at 10.
 */
export function oneGridLines(o: { seed?: number; grid?: string } = {}): string[] {
  return [
    'name: one-grid',
    `seed: ${o.seed ?? 1}`,
    'sites: [{ id: g, cpus: 1 }]',
    'workload:',
    '  - { name: tasks, site: g, tasks: { list: [{ submit_s: 0, work_s: 1000 }, { submit_s: 10, work_s: 100 }] } }',
    'meta:',
    '  scheme: fcfs-flat',
    '  grids:',
    `    g: { N: 1, P: 1, overhead_s: 0, evictions_per_hour: 0${o.grid ? `, ${o.grid}` : ''} }`,
    '  queues:',
    '    - { id: Q1, level: 1, grids: [g], T_q_min: 600, T_e_min: 300, parallel: false }',
  ];
}
