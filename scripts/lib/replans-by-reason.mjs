import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Paper 002's re-plans for one cause (summary.json's gruber.replans_by_reason), a run's mean over
 * `runs` (rows of a sweep.csv) whose folders are in the sweep folder `dir`.
 */
export function meanReplans(dir, runs, reason) {
  const total = runs.reduce((n, r) => {
    const summary = JSON.parse(readFileSync(join(dir, `${r.variant}__seed${r.seed}`, 'summary.json'), 'utf8'));
    return n + (summary.gruber.replans_by_reason[reason] ?? 0);
  }, 0);
  return total / runs.length;
}
