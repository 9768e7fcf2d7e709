import type { Processors } from './running-jobs.js';

/**
 * The queue head's reservation under EASY: the earliest time enough processors are free for it,
 * judged from running jobs' estimated ends, and how many processors will be spare at that time
 * once the head has them ("shadow time" and "extra nodes", Mu'alem & Feitelson 2001).
 */
export interface Reservation {
  readonly jobId: string;
  readonly start_s: number;
  /** Processors free at start_s beyond the head's need; a job running past start_s may use only these. */
  readonly spare: number;
}

export function headReservation(cpus: Processors, jobId: string, procs: number, now: number): Reservation {
  let available = cpus.free;
  if (available >= procs) return { jobId, start_s: now, spare: available - procs };
  const running = cpus.running();
  for (let i = 0; i < running.length; i++) {
    available += running[i]!.procs;
    if (available < procs) continue;
    const start_s = Math.max(now, running[i]!.end_s);
    // Every job that ends at that same instant frees its processors too: they are spare.
    for (let j = i + 1; j < running.length && Math.max(now, running[j]!.end_s) <= start_s; j++)
      available += running[j]!.procs;
    return { jobId, start_s, spare: available - procs };
  }
  throw new Error(`assertion: ${jobId} needs ${procs} processors, more than the site's ${cpus.total}`);
}

/**
 * Whether a job may start now without delaying a reservation at `reservedStart_s` (paper 001 §2,
 * EASY): it fits in the free processors and either ends by the reserved start or uses only the
 * `spare` processors. With no reservation (`reservedStart_s` undefined) fitting is enough.
 * Returns how many spare processors it uses (0 when it ends in time), or -1 if it may not start.
 * Plain numbers, not a Reservation, because this runs for every queued job on every pass.
 */
export function backfillCost(
  reservedStart_s: number | undefined,
  spare: number,
  free: number,
  procs: number,
  estimate_s: number,
  now: number,
): number {
  if (procs > free) return -1;
  if (reservedStart_s === undefined || now + estimate_s <= reservedStart_s) return 0;
  return procs <= spare ? procs : -1;
}
