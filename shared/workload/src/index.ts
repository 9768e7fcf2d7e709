export * from './swf-record.js';
export { readSwf, readSwfBatches, type SwfReadOptions } from './swf-reader.js';
export { convertRecord, type Adjustment, type AdjustmentCounts } from './conversion.js';
export { traceDirectory, resolveTrace, TraceNotFoundError } from './trace-dir.js';
export { fetchTrace, archiveFolder, PWA_BASE_URL, type FetchResult } from './trace-fetch.js';
export { generateLublin, type SyntheticJob } from './lublin.js';
export { gammaCdf, lnGamma } from './gamma-cdf.js';
export { loadWorkload, type Workload, type SourceReport, type LoadWorkloadOptions } from './load-workload.js';
export { traceInfo, type TraceInfo } from './trace-info.js';
