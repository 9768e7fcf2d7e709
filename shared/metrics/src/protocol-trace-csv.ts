import { readFileSync } from 'node:fs';
import type { CsvCells, CsvFileWriter } from './csv-cells.js';
import { splitCsvLine } from './csv-table.js';
import { InputError } from '@gridemu/model';

/**
 * One protocol step of one job (runtime's TraceRecord): what `protocol-trace.csv` holds when the
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

function protocolTraceCells(r: ProtocolTraceRow, out: CsvCells): void {
  out.num(r.time_s);
  out.text(r.job_id);
  out.text(r.location);
  out.text(r.event);
  out.text(r.detail);
  out.end();
}

/** The whole file into `out`, header first. */
export function writeProtocolTraceRows(out: CsvFileWriter, rows: readonly ProtocolTraceRow[]): void {
  out.line(PROTOCOL_TRACE_COLUMNS.join(','));
  for (const r of rows) protocolTraceCells(r, out);
}

/** Reads a `protocol-trace.csv`; a row that does not fit the columns is an error naming the file and line. */
export function readProtocolTrace(path: string): ProtocolTraceRow[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const header = lines[0]?.trim();
  if (header !== PROTOCOL_TRACE_COLUMNS.join(','))
    throw new InputError(
      `${path}:1: not a protocol-trace.csv (expected the header ${PROTOCOL_TRACE_COLUMNS.join(',')})`,
    );
  const rows: ProtocolTraceRow[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const f = splitCsvLine(line);
    const time_s = Number(f[0]);
    if (f.length !== PROTOCOL_TRACE_COLUMNS.length || f[0] === '' || !Number.isFinite(time_s))
      throw new InputError(`${path}:${i + 1}: expected ${PROTOCOL_TRACE_COLUMNS.length} fields with a numeric time_s`);
    rows.push({ time_s, job_id: f[1]!, location: f[2]!, event: f[3]!, detail: f[4]! });
  }
  return rows;
}
