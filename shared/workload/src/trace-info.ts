import type { SwfSource } from '@gridemu/model';
import { readBatsimWorkload } from './batsim-reader.js';
import { readGwfBatches } from './gwf-reader.js';
import { medianRun_s } from './median-run.js';
import { readSwf, type SwfReadOptions } from './swf-reader.js';
import type { SwfHeader, SwfRecord } from './swf-record.js';

/** The formats a workload source of jobs from a file reads. */
export type TraceFormat = SwfSource['format'];

export interface TraceInfo {
  readonly file: string;
  readonly format: TraceFormat;
  readonly records: number;
  readonly firstSubmit_s: number;
  readonly lastSubmit_s: number;
  readonly span_s: number;
  readonly maxProcsUsed: number;
  /**
   * From an SWF header (MaxProcs, else MaxNodes) or a Batsim workload's nb_res, or the widest job
   * when the file says nothing (a GWF trace never does).
   */
  readonly machineProcs: number;
  /** Where machineProcs came from. */
  readonly machineProcsFrom: 'header' | 'nb_res' | 'widest job';
  /**
   * Σ procs × run / (machine processors × span): the load the trace offers its machine; null when
   * the span is 0 (every submission at one time, or no job), where no rate of arrival is defined.
   */
  readonly offeredLoad: number | null;
  readonly anomalies: {
    readonly runtimeNotPositive: number;
    readonly requestedTimeMissing: number;
    readonly runtimeOverRequested: number;
    readonly processorsUnknown: number;
  };
  readonly malformedLines: number;
  readonly header: Record<string, string>;
  /** The records described: those after the first `skip`, `jobs` of them (all without it), as a source's slice. */
  readonly slice: { readonly skip: number; readonly jobs?: number };
  /**
   * The median run of the slice's jobs, a run of 0 or less counted as 1 s as the loader makes it:
   * the timescale `gridemu run`'s fidelity guard judges the hops and timer lags of most runs against.
   */
  readonly medianRun_s: number;
}

/** Which records a source of `skip` and `jobs` reads: the first `skip` are passed over. */
export interface TraceSlice {
  readonly skip?: number;
  readonly jobs?: number;
}

export async function traceInfo(
  file: string,
  lenient = false,
  slice: TraceSlice = {},
  format: TraceFormat = 'swf',
): Promise<TraceInfo> {
  const skip = slice.skip ?? 0;
  let seen = 0;
  const runs: number[] = [];
  const header: SwfHeader = { fields: new Map() };
  let records = 0;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  let maxProcs = 0;
  let work = 0;
  let malformed = 0;
  const a = { runtimeNotPositive: 0, requestedTimeMissing: 0, runtimeOverRequested: 0, processorsUnknown: 0 };
  const machine: { nb_res?: number } = {};
  const read = { lenient, onMalformed: () => malformed++ };
  for await (const r of recordsOf(file, format, read, header, machine)) {
    if (++seen <= skip) continue;
    if (slice.jobs !== undefined && records >= slice.jobs) break;
    records++;
    runs.push(r.run > 0 ? r.run : 1);
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
  const machineProcsFrom =
    machine.nb_res !== undefined ? 'nb_res' : Number.isFinite(fromHeader) && fromHeader > 0 ? 'header' : 'widest job';
  const machineProcs =
    machineProcsFrom === 'nb_res' ? machine.nb_res! : machineProcsFrom === 'header' ? fromHeader : maxProcs;
  const span = records > 0 ? last - first : 0;
  return {
    file,
    format,
    records,
    firstSubmit_s: records > 0 ? first : 0,
    lastSubmit_s: records > 0 ? last : 0,
    span_s: span,
    maxProcsUsed: maxProcs,
    machineProcs,
    machineProcsFrom,
    offeredLoad: span > 0 && machineProcs > 0 ? work / (machineProcs * span) : null,
    anomalies: a,
    malformedLines: malformed,
    header: Object.fromEntries(header.fields),
    slice: { skip, ...(slice.jobs !== undefined ? { jobs: slice.jobs } : {}) },
    medianRun_s: medianRun_s(runs) ?? 0,
  };
}

/** A trace's records in any format a source reads; an SWF header and a Batsim nb_res are kept aside. */
async function* recordsOf(
  file: string,
  format: TraceFormat,
  read: SwfReadOptions,
  header: SwfHeader,
  machine: { nb_res?: number },
): AsyncGenerator<SwfRecord> {
  if (format === 'swf') yield* readSwf(file, { ...read, header });
  else if (format === 'gwf') for await (const batch of readGwfBatches(file, read)) yield* batch;
  else {
    const workload = await readBatsimWorkload(file);
    if (workload.nb_res !== undefined) machine.nb_res = workload.nb_res;
    yield* workload.records;
  }
}
