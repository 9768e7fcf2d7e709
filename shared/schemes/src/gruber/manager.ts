import { CycleTicks } from '../cycle-ticks.js';

/** The local resource managers of Grid3's sites (paper 002, §3.2: "such as Condor, PBS, or LSF"). */
export const MANAGERS = ['condor', 'pbs', 'lsf'] as const;
export type ManagerKind = (typeof MANAGERS)[number];

/**
 * How often each kind of manager starts the jobs that fit, in seconds. Inputs, not fitted, and
 * not verified against 2004's manuals:
 * - Condor matches jobs in negotiation cycles, `NEGOTIATOR_INTERVAL`: 300 s as we recall the 6.x
 *   default (today's HTCondor manual gives 60 s);
 * - PBS runs its scheduler on every submission and job end (and on a 10-minute timer), so a job
 *   that fits starts at once;
 * - LSF's mbatchd dispatches every `MBD_SLEEP_TIME`, 60 s as we recall its default.
 */
export const DEFAULT_MANAGER_CYCLE_S: Readonly<Record<ManagerKind, number>> = { condor: 300, pbs: 0, lsf: 60 };

/** A manager's scheduling cycle at one site: jobs that fit start at its next tick. */
export function managerCycle(cycle_s: number, seed: number, site: string): CycleTicks {
  return new CycleTicks(cycle_s, seed, `gruber/manager-cycle/${site}`);
}
