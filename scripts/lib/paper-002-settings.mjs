// Paper 002's workloads as its report runs them (scripts/paper-002-report.mjs), for every script
// that must run the same set-up: `--set` values over examples/gruber-grid3.yaml.

export const BASE = 'examples/gruber-grid3.yaml';

/** `submitters` BLAST submitters of `jobs` jobs each. */
export const blast = (submitters, jobs) => [
  `workload[0].blast.submitters=${submitters}`,
  `workload[0].blast.jobs=${jobs}`,
];

// §3.2: medium workloads (500 to 1000 jobs) "submitted in several steps in order to honor the VO
// usage SLAs". Inputs, not fitted: a step is the group's 150 CPUs (§3.2), one every 3000 s, the
// ideal Time of one wave of jobs (§4.2.1).
export const STEP_JOBS = 150;
export const STEP_INTERVAL_S = 3000;
export const STEPS = [
  `workload[0].blast.step_jobs=${STEP_JOBS}`,
  `workload[0].blast.step_interval_s=${STEP_INTERVAL_S}`,
];

// §4.2.3: the large workloads ran earlier, with 5 retries, Table XI's errors and sites that lacked
// the BLAST environment (38% of Table XI's errors were "remote unset environment"). The failure
// rate and the share of the sites without the environment are fitted on Table XI alone
// (scripts/paper-002-calibrate-large.mjs, docs/results/paper-002-calibration-large.md).
export const CHOSEN_LARGE_FIT = { rate: 0.6, misconfigured: 0.3 };

/** The large workloads' settings under a fit of Table XI ({ rate, misconfigured }). */
export const largeSets = (fit) => [
  'meta.retries=5',
  `meta.failures.rate=${fit.rate}`,
  'meta.failures.categories={application: 19, authentication: 1, rls: 6, gridftp: 3, gram: 1, other: 0}',
  `meta.failures.misconfigured=${fit.misconfigured}`,
];

/** Table III's workload (§4.1): one submitter of 1000 jobs, as Table VIII's. */
export const TABLE_III_JOBS = 1000;

/** §4.1: in Table III "a job was allowed to be re-planned only three more times": four attempts. */
export const TABLE_III_ATTEMPTS = 4;
export const TABLE_III_RETRIES = `meta.retries=${TABLE_III_ATTEMPTS}`;
