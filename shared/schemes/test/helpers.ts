import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NO_FAULTS, type ExperimentSpec, type Job } from '@gridemu/model';
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
