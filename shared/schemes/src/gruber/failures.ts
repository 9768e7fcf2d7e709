import { Rng } from '@gridemu/runtime';

/**
 * The transient failures of Tables XI and XII that a site causes, by where they strike. The
 * tables' other two rows are not drawn: "local scheduling timeout" is the starvation re-plan,
 * which emerges from queues, and "remote unset environment" is a misconfigured site
 * (`meta.failures.misconfigured`), which fails every grid job.
 */
export const FAILURE_CATEGORIES = ['application', 'authentication', 'rls', 'gridftp', 'gram', 'other'] as const;
export type FailureCategory = (typeof FAILURE_CATEGORIES)[number];

/** The reason a misconfigured site gives. */
export const UNSET_ENVIRONMENT = 'unset_environment';

/**
 * The reason a site gives for an attempt that was running when its process crashed (an injected
 * fault, `faults.crash`; not one of the paper's categories): it failed there, as Euryale would see it.
 */
export const SITE_CRASH = 'site_crash';

/** When a failure strikes: at submission (gatekeeper), at stage-in (start), or part-way through the run. */
export type FailureStage = 'submit' | 'stage-in' | 'run';

export const FAILURE_STAGE: Readonly<Record<FailureCategory, FailureStage>> = {
  application: 'run',
  authentication: 'submit',
  rls: 'stage-in',
  gridftp: 'stage-in',
  gram: 'submit',
  other: 'submit',
};

/** Table XII (28 000 jobs in small workloads), the rows drawn, as weights. */
export const TABLE_XII_SHARES: Readonly<Record<FailureCategory, number>> = {
  application: 15,
  authentication: 8,
  rls: 14,
  gridftp: 14,
  gram: 4,
  other: 0,
};
/** Table XI (15 000 jobs in 1000-job workloads). */
export const TABLE_XI_SHARES: Readonly<Record<FailureCategory, number>> = {
  application: 19,
  authentication: 1,
  rls: 6,
  gridftp: 3,
  gram: 1,
  other: 0,
};

export interface AttemptFate {
  readonly category: FailureCategory | typeof UNSET_ENVIRONMENT;
  readonly stage: FailureStage;
  /** For a failure during the run: the fraction of the run done when it strikes. */
  readonly at: number;
}

export interface FailureDraw {
  readonly seed: number;
  readonly rate: number;
  readonly categories: Readonly<Record<FailureCategory, number>>;
  readonly misconfigured: boolean;
}

/**
 * Whether attempt `attempt` of a job at a site fails, and how: drawn from the run's seed, the
 * job, the attempt and the site alone, so every selector meets the same luck for the same try
 * (and a simulated and a live run draw the same).
 */
export function attemptFate(d: FailureDraw, site: string, jobId: string, attempt: number): AttemptFate | undefined {
  if (d.misconfigured) return { category: UNSET_ENVIRONMENT, stage: 'stage-in', at: 0 };
  if (d.rate <= 0) return undefined;
  const rng = new Rng(d.seed, `failure/${site}/${jobId}/${attempt}`);
  if (rng.next() >= d.rate) return undefined;
  const total = FAILURE_CATEGORIES.reduce((a, c) => a + d.categories[c], 0);
  let x = rng.next() * total;
  let category: FailureCategory = FAILURE_CATEGORIES[0];
  for (const c of FAILURE_CATEGORIES) {
    if (d.categories[c] <= 0) continue;
    category = c;
    if ((x -= d.categories[c]) < 0) break;
  }
  return { category, stage: FAILURE_STAGE[category], at: rng.next() };
}
