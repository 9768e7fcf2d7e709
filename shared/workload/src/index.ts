export * from './swf-record.js';
export { readSwf, readSwfBatches, type SwfReadOptions } from './swf-reader.js';
export { convertRecord, sourceTimes, type Adjustment, type AdjustmentCounts } from './conversion.js';
export { traceDirectory, resolveTrace, TraceNotFoundError } from './trace-dir.js';
export { ARCHIVE_LOGS, archiveLogsLike } from './archive-logs.js';
export {
  fetchTrace,
  archiveFolder,
  archiveUrl,
  PWA_BASE_URL,
  type FetchResult,
  type FetchProgress,
} from './trace-fetch.js';
export { generateLublin, type SyntheticJob } from './lublin.js';
export { gammaCdf, lnGamma } from './gamma-cdf.js';
export {
  loadWorkload,
  originFor,
  generatedJob,
  generatedReport,
  type Workload,
  type SourceReport,
  type LoadWorkloadOptions,
  type LoadedSource,
  type SourceLoader,
  type SourceContext,
} from './load-workload.js';
export { traceInfo, type TraceFormat, type TraceInfo, type TraceSlice } from './trace-info.js';
export { medianRun_s } from './median-run.js';
export { jobsSha256 } from './jobs-digest.js';
export { readGwfBatches, parseGwfLine, GWF_REQUIRED_FIELDS } from './gwf-reader.js';
export { readBatsimWorkload } from './batsim-reader.js';
export { JsonFormatError, parseJsonText } from './json-input.js';
export { readWfFormat, parseWfFormat, type Workflow, type WorkflowTask } from './wfformat.js';
export { sourcesApartInTime, type SourceWindow } from './sources-apart.js';
