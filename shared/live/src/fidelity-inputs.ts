import type { ExperimentSpec, Job } from '@gridemu/model';
import { schemeReportPeriods, schemeTimescales } from '@gridemu/schemes';
import type { GuardInput } from './fidelity-guard.js';
import { reportThrottle } from './report-throttle.js';

/**
 * What the fidelity guard judges a run's hops and timer lags against: the scheme's timescales
 * (its timeouts and periods, the jobs' median run) and the bus's bound on latest-value reports
 * (the sites' runtimes apply it, reportThrottle) with the periods those reports are sent on.
 */
export function fidelityInputs(
  spec: ExperimentSpec,
  jobs: readonly Job[],
): Pick<GuardInput, 'timescales'> & Required<Pick<GuardInput, 'reports'>> {
  return {
    timescales: schemeTimescales(spec, jobs),
    reports: { interval_ms: reportThrottle(spec).latestValue.interval_ms, periods: schemeReportPeriods(spec) },
  };
}
