import { sourcesApartInTime, type SourceWindow } from '@gridemu/workload';
import { skippedLinesWarnings } from './skipped-lines.js';

/**
 * What validate, run, simulate and sweep say of a workload before its numbers: malformed lines
 * --lenient skipped, and sources that never share their time. `sources` is summary.json's
 * `workload` (or the loaded workload's reports); a summary.json written before sources had submit
 * windows gives no second warning.
 */
export function workloadWarnings(sources: readonly object[]): string[] {
  const windows = sources.filter(isWindow);
  const apart = windows.length === sources.length ? sourcesApartInTime(windows) : undefined;
  return [...skippedLinesWarnings(sources), ...(apart === undefined ? [] : [`warning: ${apart}`])];
}

function isWindow(source: object): source is SourceWindow {
  const s = source as Partial<Record<keyof SourceWindow, unknown>>;
  return typeof s.name === 'string' && typeof s.first_submit_s === 'number' && typeof s.last_submit_s === 'number';
}
