import { closeSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { jobsCsvChunks } from './jobs-csv.js';
import type { JobRecord } from './job-record.js';

/**
 * Writes DIR/jobs.csv and DIR/summary.json (DESIGN.md, "Results"). Each file is written whole to a
 * temporary name and renamed, so an interrupted run never leaves a half file that looks complete.
 */
export function writeResults(dir: string, records: readonly JobRecord[], summary: object): { jobsCsv: string; summaryJson: string } {
  mkdirSync(dir, { recursive: true });
  const jobsPath = join(dir, 'jobs.csv');
  const summaryPath = join(dir, 'summary.json');
  writeAtomically(jobsPath, jobsCsvChunks(records));
  writeAtomically(summaryPath, [JSON.stringify(summary, null, 2) + '\n']);
  return { jobsCsv: jobsPath, summaryJson: summaryPath };
}

function writeAtomically(path: string, pieces: Iterable<string>): void {
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w');
  try {
    for (const piece of pieces) writeSync(fd, piece);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}
