import { createHash } from 'node:crypto';
import type { Job } from '@gridemu/model';

/**
 * The SHA-256 of the jobs a run submits, every field of every job in submission order, hex: for
 * summary.json, so that runs can be told apart by what they submitted. Two seeds of a synthetic
 * source give different jobs under the same ids, and two seeds over a trace the same jobs; a
 * researcher's interval over seeds means something else in each case.
 */
export function jobsSha256(jobs: readonly Job[]): string {
  const hash = createHash('sha256');
  // A job at a time: a large workload's text is never held whole.
  for (const job of jobs) hash.update(JSON.stringify(job) + '\n');
  return hash.digest('hex');
}
