import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { MetaSchemes } from '@gridemu/model';

export const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '../../../..');
export { TEST_TRACE_DIR as TRACE_DIR } from '@gridemu/testkit';

/** The workload reader does not care about the scheme: one with no options stands in for them all. */
export const NO_SCHEMES: MetaSchemes = {
  names: ['none'],
  defaultScheme: 'none',
  reservedLocations: [],
  faultTolerant: [],
  sourceKinds: () => ['swf', 'synthetic'],
  familySources: [],
  readMeta: (scheme, _raw, _r, context) => ({ meta: { scheme }, local: context.local }),
};

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'gridemu-test-'));
}

/** Writes an SWF file from 18-field rows (numbers) and header lines; gzipped if the name ends in .gz. */
export function writeSwf(dir: string, name: string, lines: (string | number[])[]): string {
  const text = lines.map((l) => (typeof l === 'string' ? l : l.join(' '))).join('\n') + '\n';
  const path = join(dir, name);
  writeFileSync(path, name.endsWith('.gz') ? gzipSync(text) : text);
  return path;
}

/** An SWF row: job, submit, run, procs, requested time (others -1). */
export function row(job: number, submit: number, run: number, procs: number, req: number, reqProcs = -1): number[] {
  return [job, submit, -1, run, procs, -1, -1, reqProcs, req, -1, 1, 7, 3, -1, -1, -1, -1, -1];
}
