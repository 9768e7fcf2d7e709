import { DEFAULT_REPORT_INTERVAL_MS, type ExperimentSpec } from '@gridemu/model';
import { LATEST_VALUE_TOPICS } from '@gridemu/schemes';

/** The live runtime's bound on latest-value reports (load gossip) for this spec. */
export function reportThrottle(spec: ExperimentSpec): {
  latestValue: { topics: ReadonlySet<string>; interval_ms: number };
} {
  return {
    latestValue: {
      topics: LATEST_VALUE_TOPICS,
      interval_ms: spec.live.report_interval_ms ?? DEFAULT_REPORT_INTERVAL_MS,
    },
  };
}
