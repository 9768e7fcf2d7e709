import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jobsCsv } from './jobs-csv.js';
import type { JobRecord } from './job-record.js';

/**
 * Writes DIR/jobs.csv and DIR/summary.json (DESIGN.md, "Results"). Each file is written whole to a
 * temporary name and renamed, so an interrupted run never leaves a half file that looks complete.
 */
export function writeResults(dir: string, records: readonly JobRecord[], summary: object): { jobsCsv: string; summaryJson: string } {
  mkdirSync(dir, { recursive: true });
  const jobsPath = join(dir, 'jobs.csv');
  const summaryPath = join(dir, 'summary.json');
  writeAtomically(jobsPath, jobsCsv(records));
  writeAtomically(summaryPath, JSON.stringify(summary, null, 2) + '\n');
  return { jobsCsv: jobsPath, summaryJson: summaryPath };
}

function writeAtomically(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}
