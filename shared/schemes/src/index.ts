export type { SchemeModule, GridPlan, GridActor, SchemeMetric, TraceComparison } from './scheme-module.js';
export { SCHEME_MODULES, SCHEME_NAMES, META_SCHEMES, MESSAGE_CHECK, schemeModule } from './registry.js';
export { planGrid, liveLocations } from './plan.js';
export { loadExperiment, parseExperiment } from './experiment.js';
export { schemeSummary, schemeMetrics, schemeTimescales, schemeReportPeriods, schemeTraceComparison } from './scheme-results.js';
export { simulate, type SimulationResult, type SimulateOptions, type SimulationProgress } from './simulate.js';
