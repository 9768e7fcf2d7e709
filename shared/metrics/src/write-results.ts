import { closeSync, mkdirSync, openSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { CsvFileWriter } from './csv-cells.js';
import { writeJobsCsvRows } from './jobs-csv.js';
import type { JobRecord } from './job-record.js';
import { writeProtocolTraceRows, type ProtocolTraceRow } from './protocol-trace-csv.js';

/**
 * Writes DIR/jobs.csv and DIR/summary.json (DESIGN.md, "Results"). Each file is written whole to a
 * temporary name and renamed, so an interrupted run never leaves a half file that looks complete.
 */
export function writeResults(
  dir: string,
  records: readonly JobRecord[],
  summary: object,
): { jobsCsv: string; summaryJson: string } {
  return { jobsCsv: writeJobsCsv(dir, records), summaryJson: writeSummary(dir, summary) };
}

/** DIR/jobs.csv alone (a live run checks it, as written, before its summary is written). */
export function writeJobsCsv(dir: string, records: readonly JobRecord[]): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'jobs.csv');
  writeAtomically(path, (out) => writeJobsCsvRows(out, records));
  return path;
}

export function writeSummary(dir: string, summary: object): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'summary.json');
  writeAtomically(path, (out) => out.line(JSON.stringify(summary, null, 2)));
  return path;
}

/** DIR/protocol-trace.csv: the protocol steps of every job, in the order given (spec `protocol_trace: true`). */
export function writeProtocolTrace(dir: string, rows: readonly ProtocolTraceRow[]): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'protocol-trace.csv');
  writeAtomically(path, (out) => writeProtocolTraceRows(out, rows));
  return path;
}

function writeAtomically(path: string, write: (out: CsvFileWriter) => void): void {
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w');
  try {
    const out = new CsvFileWriter(fd);
    write(out);
    out.flush();
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}
