export * from './job-record.js';
export { formatNumber, roundNumber } from './format.js';
export { JOBS_CSV_COLUMNS, jobsCsvChunks, jobsCsvRow } from './jobs-csv.js';
export { summarize, jobCategories, type Summary, type GroupStats, type JobCategory, type SiteCapacity } from './summary.js';
export { writeResults, writeJobsCsv, writeSummary } from './write-results.js';
export { buildRunSummary, type RunSummary, type RunSummaryInput } from './run-summary.js';
export { checkSchedule, executedJobsFromCsv, parseIntervalSet, describeScheduleCheck, type ScheduleCheck, type ExecutedJob } from './schedule-check.js';
