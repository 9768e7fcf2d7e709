import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describeSpecDifference, specDifferences } from './compare/spec-differences.js';
import { readResultsSummary } from './results-folder.js';

/**
 * Fields a replay may differ from its live run in without replaying another experiment: its name,
 * the faults (the replay applies those the run applied, from network.json) and the live runtime's
 * own settings (the speed-up, the journal), which a simulation does not read.
 */
const REPLAY_IGNORES = ['name', 'faults', 'live'];

/**
 * A note when the experiment `simulate --network-from LIVE_DIR` replays is not the one that live
 * run ran (LIVE_DIR/summary.json's spec, overrides applied): another seed, trace slice or K gives
 * another workload or scheme under the run's measured network. A what-if may mean that, so it is
 * said, not refused; `gridemu compare` would say it only afterwards. Undefined when they agree or
 * the folder has no summary to tell.
 */
export function replayedSpecNote(liveDir: string, spec: unknown): string | undefined {
  if (!existsSync(join(liveDir, 'summary.json'))) return undefined;
  const live = readResultsSummary(liveDir).spec;
  const differences = specDifferences(live, spec).filter(
    (d) => !REPLAY_IGNORES.some((field) => d.path === field || d.path.startsWith(`${field}.`)),
  );
  if (differences.length === 0) return undefined;
  const shown = differences.slice(0, 5).map(describeSpecDifference);
  const more = differences.length > shown.length ? `, and ${differences.length - shown.length} more` : '';
  return (
    `the experiment replayed differs from the one ${liveDir} ran (its summary.json's spec) in ` +
    `${shown.join(', ')}${more}: the replay puts that run's network under another experiment, ` +
    `so it is not that run's replay (the same file and --set as the run make one)`
  );
}
