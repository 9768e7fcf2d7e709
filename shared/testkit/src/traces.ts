import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where tests read archive traces: GRIDEMU_TRACE_DIR, else ../shared/data/traces beside the repository. */
export const TEST_TRACE_DIR =
  process.env['GRIDEMU_TRACE_DIR'] ?? resolve(fileURLToPath(import.meta.url), '../../../../../shared/data/traces');

/** What a test that reads archive traces needs, and whether it must be skipped without them. */
export interface TraceNeed {
  readonly dir: string;
  /** The needed files not found in `dir`. */
  readonly missing: readonly string[];
  /** Skip: a file is missing and this is not CI (under CI=true a missing trace fails the test instead). */
  readonly skip: boolean;
  /** The test's title, with the reason it is skipped when it is. */
  title(title: string): string;
}

/**
 * For tests that need Parallel Workloads Archive files (never committed): a fresh clone without
 * them skips those tests with a visible reason naming the file and how to fetch it; under CI=true,
 * where the traces must be present, the test runs and fails on the missing file.
 */
export function needTraces(...files: string[]): TraceNeed {
  const dir = TEST_TRACE_DIR;
  const missing = files.filter((f) => !existsSync(join(dir, f)));
  const skip = missing.length > 0 && process.env['CI'] !== 'true';
  const how = missing
    .map((f) => (f.includes('/') ? `${f} (from ../shared/data/traces)` : `${f} (gridemu trace fetch ${f})`))
    .join(', ');
  return {
    dir,
    missing,
    skip,
    title: (title) => (skip ? `${title} [skipped: needs ${how} in GRIDEMU_TRACE_DIR]` : title),
  };
}
