export type {
  SchemeModule,
  GridPlan,
  GridActor,
  SchemeMetric,
  TraceComparison,
  WorkloadSourceKind,
} from './scheme-module.js';
export {
  SCHEME_MODULES,
  SCHEME_NAMES,
  META_SCHEMES,
  MESSAGE_CHECK,
  DURABLE_MESSAGES,
  LATEST_VALUE_TOPICS,
  FAMILY_SOURCES,
  schemeModule,
  schemeLongestSilence_s,
  schemeSkipsWarmUp,
} from './registry.js';
export { planGrid, liveLocations } from './plan.js';
export { experimentFromData, loadExperiment, parseExperiment } from './experiment.js';
export { loadExperimentWorkload } from './experiment-workload.js';
export {
  schemeBusyProcessor_s,
  schemeSummary,
  schemeSummaryInput,
  schemeMetrics,
  MEDIAN_RUN_TIMESCALE,
  schemeTimescales,
  schemeReportPeriods,
  schemeTraceComparison,
} from './scheme-results.js';
export type { FuzzDraw, FuzzSpecs } from './fuzz-draw.js';
export { simulate, type SimulationResult, type SimulateOptions, type SimulationProgress } from './simulate.js';
export { StalledRunError, stalledRunWatch, type StalledRunWatch } from './stalled-run.js';
// Paper 001's message types, for tests and benches of the layers below that drive its protocol by hand.
export { Paper001MessageType, LOAD_TOPIC } from './paper-001/index.js';
// Its schemes' names, for the CLI's tests that run each live.
export type { Paper001Scheme } from './paper-001/index.js';
// The external policy protocol's reader, for tests that hold it against the published JSON Schemas.
export { readAnswer, PROTOCOL_VERSION } from './external/index.js';
