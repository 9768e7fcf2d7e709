import { readRecordBatches, type SwfReadOptions } from './swf-reader.js';
import type { SwfRecord } from './swf-record.js';

/**
 * The Grid Workloads Format (the Grid Workloads Archive's traces): one job per line, fields
 * separated by tabs or spaces, `#` starting a comment. Its first eleven fields are SWF's (JobID,
 * SubmitTime, WaitTime, RunTime, NProcs, AverageCPUTimeUsed, UsedMemory, ReqNProcs, ReqTime,
 * ReqMemory, Status); then UserID, GroupID, ExecutableID, QueueID, PartitionID, OrigSiteID,
 * LastRunSiteID and the rest, which may be names rather than numbers and are not needed here
 * (UserID and GroupID are kept when numeric). -1 is unknown, as in SWF. Bad lines name the file
 * and line (SwfFormatError, so --lenient works the same way).
 */
export const GWF_REQUIRED_FIELDS = 11;

export function readGwfBatches(file: string, options: SwfReadOptions = {}): AsyncGenerator<SwfRecord[]> {
  return readRecordBatches(file, options, {
    comment: 35 /* # */,
    parse: (bytes, start, end, line) => parseGwfLine(bytes.toString('utf8', start, end), line),
  });
}

export function parseGwfLine(text: string, line: number): SwfRecord {
  const f = text.trim().split(/\s+/);
  if (f.length < GWF_REQUIRED_FIELDS)
    throw new Error(`expected at least ${GWF_REQUIRED_FIELDS} fields (JobID to Status), found ${f.length}`);
  const num = (i: number, name: string): number => {
    const v = Number(f[i]);
    if (f[i] === '' || !Number.isFinite(v))
      throw new Error(`field ${i + 1} (${name}) is not a number: ${JSON.stringify(f[i])}`);
    return v;
  };
  const optional = (i: number): number => {
    const v = Number(f[i]);
    return f[i] !== undefined && Number.isFinite(v) ? v : -1;
  };
  const jobNumber = num(0, 'JobID');
  if (!Number.isInteger(jobNumber) || jobNumber < 0)
    throw new Error(`field 1 (JobID) must be a whole number, got ${JSON.stringify(f[0])}`);
  return {
    jobNumber,
    submit: num(1, 'SubmitTime'),
    wait: num(2, 'WaitTime'),
    run: num(3, 'RunTime'),
    allocatedProcs: num(4, 'NProcs'),
    avgCpu: num(5, 'AverageCPUTimeUsed'),
    usedMemory: num(6, 'UsedMemory'),
    requestedProcs: num(7, 'ReqNProcs'),
    requestedTime: num(8, 'ReqTime'),
    requestedMemory: num(9, 'ReqMemory'),
    status: num(10, 'Status'),
    user: optional(11),
    group: optional(12),
    executable: optional(13),
    queue: optional(14),
    partition: optional(15),
    precedingJob: -1,
    thinkTime: -1,
    line,
  };
}
