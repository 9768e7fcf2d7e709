import { rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What a run, live or simulated, writes into its results folder. A new run into the folder clears
 * them first: an earlier run's files (a live run's logs, which `gridemu check` reads, or a jobs.csv
 * beside a --summary-only summary) must not read as the new run's.
 */
export const RUN_OUTPUTS = [
  'logs',
  'jobs.csv',
  'summary.json',
  'network.json',
  'check.json',
  'experiment.json',
  'protocol-trace.csv',
  'nats',
  'journal',
  'prometheus',
] as const;

export function clearRunOutputs(dir: string): void {
  for (const old of RUN_OUTPUTS) rmSync(join(dir, old), { recursive: true, force: true });
}
