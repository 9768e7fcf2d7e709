import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FaultsSummary } from '@gridemu/metrics';
import type { FaultsSpec } from '@gridemu/model';
import type { ChildRuns } from '../child-runs.js';
import type { JournalStoreOption } from '../command-args.js';

/**
 * A fuzz seed run live: the experiment the simulator's fuzz checks, run by `gridemu run` as a user
 * runs one (its own nats-server, a process per site, delay proxies, the faults applied by its
 * orchestrator: processes killed and started again, partitions, loss, the server restarted), and
 * judged by what `gridemu run` checks of every run: it ends, and its check.json passes (no job
 * started twice, none lost, no site over capacity, every start in the logs). The simulator's fuzz
 * checks the actors; this checks what only a live run has: the journal, the exactly-once
 * delivery, the restarts and the transport.
 */

const MAIN = fileURLToPath(new URL('../main.js', import.meta.url));

/** About how long each live seed's emulated run lasts in wall seconds, its start-up aside. */
export const LIVE_FUZZ_WALL_S = 5;

/**
 * The speed-up at which a run `emulated_s` long (the simulator's, from the first submission to
 * the last event) lasts about LIVE_FUZZ_WALL_S of wall time: the seeds' runs span minutes to
 * months of emulated time, and one speed-up for all would make most of them take an hour or test
 * nothing but start-up. Never below 1 (a run shorter than that lasts what it lasts).
 */
export function liveFuzzSpeedup(emulated_s: number): number {
  return Math.max(1, Math.ceil(emulated_s / LIVE_FUZZ_WALL_S));
}

/** The seed's experiment file as the live run reads it: the simulator's, at its speed-up. */
export function liveFuzzSpec(text: string, speedup: number): string {
  return `${text.trimEnd()}\nlive: { speedup: ${speedup} }\n`;
}

/** How many faults a spec applies, as the progress line says them. */
export function faultCount(faults: FaultsSpec): string {
  const parts = [
    [faults.crash.length, 'crash', 'crashes'],
    [faults.partition.length, 'partition', 'partitions'],
    [faults.nats_restart.length, 'server restart', 'server restarts'],
  ] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
  if (faults.drop > 0) said.push(`${(faults.drop * 100).toFixed(0)}% loss`);
  return said.length === 0 ? 'no faults' : said.join(', ');
}

/**
 * What a live run's faults came to (summary.json's `faults`): a fault timed after the run's end
 * never fires, so a seed can test fewer than its file lists; the progress line says how many did.
 */
export function faultsApplied(f: FaultsSummary): string {
  const parts: string[] = [];
  if (f.crashes > 0) parts.push(`${f.crashes_applied} of ${f.crashes} crashes applied`);
  if (f.nats_restarts.asked > 0)
    parts.push(`${f.nats_restarts.applied} of ${f.nats_restarts.asked} server restarts applied`);
  if (f.lost_runs > 0) parts.push(`${f.lost_runs} run${f.lost_runs === 1 ? '' : 's'} lost and run again`);
  if (f.messages_dropped > 0) parts.push(`${f.messages_dropped} message${f.messages_dropped === 1 ? '' : 's'} dropped`);
  return parts.join(', ');
}

export interface LiveSeedRun {
  /** The experiment file, written into the fuzz's folder. */
  readonly file: string;
  /** The run's results folder. */
  readonly out: string;
  /** Each run's limit in wall seconds (gridemu run --timeout). */
  readonly timeout_s: number;
  /** The run's own messages and progress shown (one seed), rather than kept for a failure. */
  readonly shown: boolean;
  /** Keep the experiment file and results folder of a run that passed (a failed one's are always kept). */
  readonly keep: boolean;
  /** gridemu run --journal-store, when given. */
  readonly journalStore?: JournalStoreOption;
}

/**
 * Runs one seed's experiment live: what went wrong if it failed, or what its faults came to if it
 * passed.
 */
export async function runLiveSeed(
  text: string,
  speedup: number,
  run: LiveSeedRun,
  children: ChildRuns,
): Promise<{ readonly failure: string } | { readonly applied: string }> {
  writeFileSync(run.file, liveFuzzSpec(text, speedup));
  const args = [
    MAIN,
    'run',
    run.file,
    '--out',
    run.out,
    '--timeout',
    String(run.timeout_s),
    ...(run.journalStore ? ['--journal-store', run.journalStore] : []),
  ];
  const { code, stderr } = await children.run(process.execPath, run.shown ? args : [...args, '--quiet'], run.shown);
  if (code === 0) {
    const summary = join(run.out, 'summary.json');
    const faults = existsSync(summary)
      ? (JSON.parse(readFileSync(summary, 'utf8')) as { faults?: FaultsSummary }).faults
      : undefined;
    if (!run.keep) for (const path of [run.out, run.file]) rmSync(path, { recursive: true, force: true });
    return { applied: faults ? faultsApplied(faults) : '' };
  }
  // gridemu run names what broke (an invariant, an assertion, a silent process, the time-out) in
  // its last lines; the folder keeps its logs.
  const tail = stderr.trim().split('\n').slice(-15).join('\n  ');
  return {
    failure: `gridemu run exit ${code}${run.shown ? ' (its messages are above)' : tail ? `:\n  ${tail}` : ''}\n  results and logs in ${run.out}`,
  };
}

export function liveSeedPaths(folder: string, seed: number): { file: string; out: string } {
  return { file: join(folder, `fuzz-${seed}.yaml`), out: join(folder, `fuzz-${seed}`) };
}
