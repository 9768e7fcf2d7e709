import type { BlastParams } from '@gridemu/model';
import type { Rng } from '@gridemu/runtime';

/** One generated BLAST task, before it gets its id and origin. */
export interface BlastJob {
  /** 1-based, across the source's submitters in submission order. */
  readonly number: number;
  readonly submitter: number;
  readonly group: string;
  readonly submit_s: number;
  /** Run time on a CPU of speed 1. */
  readonly run_s: number;
  /** Input plus output, MB: what the job holds on the site's disk while it is there. */
  readonly disk_mb: number;
}

/**
 * A bag of BLAST tasks (paper 002 §3.2): every submitter submits `jobs` one-CPU tasks, one each
 * `interval_s` from time 0 (0: all at once); each runs about 40 minutes on the reference CPU,
 * reads 10-33 kB and writes 0.7-1.5 MB. Jobs come out in submission order (ties: submitter order).
 */
export function generateBlast(p: BlastParams, rng: Rng): BlastJob[] {
  const jobs: BlastJob[] = [];
  for (let n = 0; n < p.jobs; n++) {
    for (let s = 0; s < p.submitters; s++) {
      const spread = p.runtime_spread === 0 ? 1 : rng.uniform(1 - p.runtime_spread, 1 + p.runtime_spread);
      const input_mb = rng.uniform(p.input_kb[0], p.input_kb[1]) / 1000;
      const output_mb = rng.uniform(p.output_mb[0], p.output_mb[1]);
      jobs.push({
        number: jobs.length + 1,
        submitter: s,
        group: p.groups[s]!,
        submit_s: n * p.interval_s,
        run_s: Math.max(1, Math.round(p.runtime_s * spread)),
        disk_mb: Math.round((input_mb + output_mb) * 1000) / 1000,
      });
    }
  }
  return jobs;
}
