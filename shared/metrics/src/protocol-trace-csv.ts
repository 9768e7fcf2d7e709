import { readFileSync } from 'node:fs';
import { formatNumber } from './format.js';
import { csvField } from './jobs-csv.js';
import { splitCsvLine } from './schedule-check.js';

/**
 * One protocol step of one job (runtime's TraceRecord, issue 15): what `protocol-trace.csv` holds when the
 * experiment says `protocol_trace: true`, in both modes, so a live run and its simulation can be laid side
 * by side job by job. Times are emulated seconds; `location` is where the step happened.
 */
export interface ProtocolTraceRow {
  readonly time_s: number;
  readonly job_id: string;
  readonly location: string;
  readonly event: string;
  readonly detail: string;
}

export const PROTOCOL_TRACE_COLUMNS = ['time_s', 'job_id', 'location', 'event', 'detail'] as const;

export function* protocolTraceCsvChunks(rows: readonly ProtocolTraceRow[], perChunk = 4096): Generator<string> {
  yield PROTOCOL_TRACE_COLUMNS.join(',') + '\n';
  for (let i = 0; i < rows.length; i += perChunk) {
    let chunk = '';
    for (const r of rows.slice(i, i + perChunk)) chunk += `${formatNumber(r.time_s)},${csvField(r.job_id)},${csvField(r.location)},${csvField(r.event)},${csvField(r.detail)}\n`;
    yield chunk;
  }
}

/** Reads a `protocol-trace.csv`; a row that does not fit the columns is an error naming the file and line. */
export function readProtocolTrace(path: string): ProtocolTraceRow[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const header = lines[0]?.trim();
  if (header !== PROTOCOL_TRACE_COLUMNS.join(',')) throw new Error(`${path}:1: not a protocol-trace.csv (expected the header ${PROTOCOL_TRACE_COLUMNS.join(',')})`);
  const rows: ProtocolTraceRow[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const f = splitCsvLine(line);
    const time_s = Number(f[0]);
    if (f.length !== PROTOCOL_TRACE_COLUMNS.length || f[0] === '' || !Number.isFinite(time_s)) throw new Error(`${path}:${i + 1}: expected ${PROTOCOL_TRACE_COLUMNS.length} fields with a numeric time_s`);
    rows.push({ time_s, job_id: f[1]!, location: f[2]!, event: f[3]!, detail: f[4]! });
  }
  return rows;
}
