import { readSwf } from './swf-reader.js';
import type { SwfHeader } from './swf-record.js';

export interface TraceInfo {
  readonly file: string;
  readonly records: number;
  readonly firstSubmit_s: number;
  readonly lastSubmit_s: number;
  readonly span_s: number;
  readonly maxProcsUsed: number;
  /** From the header (MaxProcs, else MaxNodes), or the widest job when the header says nothing. */
  readonly machineProcs: number;
  /** Σ procs × run / (machine processors × span): the load the trace offers its machine. */
  readonly offeredLoad: number;
  readonly anomalies: {
    readonly runtimeNotPositive: number;
    readonly requestedTimeMissing: number;
    readonly runtimeOverRequested: number;
    readonly processorsUnknown: number;
  };
  readonly malformedLines: number;
  readonly header: Record<string, string>;
}

export async function traceInfo(file: string, lenient = false): Promise<TraceInfo> {
  const header: SwfHeader = { fields: new Map() };
  let records = 0;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  let maxProcs = 0;
  let work = 0;
  let malformed = 0;
  const a = { runtimeNotPositive: 0, requestedTimeMissing: 0, runtimeOverRequested: 0, processorsUnknown: 0 };
  for await (const r of readSwf(file, { lenient, header, onMalformed: () => malformed++ })) {
    records++;
    if (r.submit >= 0) {
      first = Math.min(first, r.submit);
      last = Math.max(last, r.submit);
    }
    const procs = r.allocatedProcs > 0 ? r.allocatedProcs : r.requestedProcs;
    if (procs > 0) maxProcs = Math.max(maxProcs, procs);
    else a.processorsUnknown++;
    if (!(r.run > 0)) a.runtimeNotPositive++;
    if (!(r.requestedTime > 0)) a.requestedTimeMissing++;
    else if (r.run > r.requestedTime) a.runtimeOverRequested++;
    if (r.run > 0 && procs > 0) work += r.run * procs;
  }
  const fromHeader = Number(header.fields.get('MaxProcs') ?? header.fields.get('MaxNodes'));
  const machineProcs = Number.isFinite(fromHeader) && fromHeader > 0 ? fromHeader : maxProcs;
  const span = records > 0 ? last - first : 0;
  return {
    file,
    records,
    firstSubmit_s: records > 0 ? first : 0,
    lastSubmit_s: records > 0 ? last : 0,
    span_s: span,
    maxProcsUsed: maxProcs,
    machineProcs,
    offeredLoad: span > 0 && machineProcs > 0 ? work / (machineProcs * span) : 0,
    anomalies: a,
    malformedLines: malformed,
    header: Object.fromEntries(header.fields),
  };
}
