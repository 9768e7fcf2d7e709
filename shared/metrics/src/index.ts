export * from './job-record.js';
export { formatNumber, roundNumber } from './format.js';
export { JOBS_CSV_COLUMNS, jobsCsvText, jobsCsvRow } from './jobs-csv.js';
export {
  summarize,
  jobCategories,
  type Summary,
  type GroupStats,
  type JobCategory,
  type SiteCapacity,
} from './summary.js';
export { writeResults, writeJobsCsv, writeSummary, writeProtocolTrace } from './write-results.js';
export { PROTOCOL_TRACE_COLUMNS, readProtocolTrace, type ProtocolTraceRow } from './protocol-trace-csv.js';
export { buildRunSummary, type RunSummary, type RunSummaryInput } from './run-summary.js';
export { runProvenance, gitState, describeCode, type Provenance } from './provenance.js';
export {
  checkSchedule,
  executedJobsFromCsv,
  parseIntervalSet,
  describeScheduleCheck,
  executedJobs,
  type ScheduleCheck,
  type ExecutedJob,
} from './schedule-check.js';
export { lnGamma } from './stats/ln-gamma.js';
export { incompleteBeta, studentTCdf, studentTQuantile } from './stats/student-t.js';
export { mean, variance, meanWithInterval, pairedTTest, welchTTest, type MeanWithInterval } from './stats/sample.js';
export { readCsvTable, splitCsvLine, type CsvTable } from './csv-table.js';
export { checkRun, type InvariantResult, type RunCheckInput } from './run-check.js';
export { faultsSummary, injectsFaults, type FaultsSummary } from './faults-summary.js';
