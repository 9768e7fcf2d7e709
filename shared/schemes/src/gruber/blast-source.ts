import {
  fieldPath as join,
  NON_NEGATIVE,
  POSITIVE,
  POSITIVE_INTEGER,
  type FamilySource,
  type FieldReader,
  type Job,
  type WorkloadSource,
} from '@gridemu/model';
import type { Rng } from '@gridemu/runtime';
import { generatedJob, generatedReport, sourceTimes, type AdjustmentCounts } from '@gridemu/workload';
import type { WorkloadSourceKind } from '../scheme-module.js';

/**
 * A bag of BLAST tasks (paper 002 §3.2): `submitters` users each submit `jobs` independent
 * one-CPU jobs of about `runtime_s` on the reference CPU, with tiny input and output; each
 * submitter is its own group of `vo`.
 */
export interface BlastParams {
  readonly submitters: number;
  /** Jobs per submitter. */
  readonly jobs: number;
  readonly vo: string;
  /** One group name per submitter; default `<source name>-<n>`. */
  readonly groups: readonly string[];
  /** Run time on a CPU of speed 1, seconds (about 40 minutes). */
  readonly runtime_s: number;
  /** Each job's run time is runtime_s × (1 ± spread), uniform. */
  readonly runtime_spread: number;
  /** Seconds between one submitter's submissions (0: all at once, the paper's small workloads). */
  readonly interval_s: number;
  /**
   * Jobs per step: a submitter's jobs go in steps of this many, `step_interval_s` apart (§3.2:
   * medium workloads "submitted in several steps in order to honor the VO usage SLAs"). Default:
   * one step of every job.
   */
  readonly step_jobs: number;
  readonly step_interval_s: number;
  /** Input staged in per job, kB (uniform in the range). */
  readonly input_kb: readonly [number, number];
  /** Output staged out per job, MB (uniform in the range). */
  readonly output_mb: readonly [number, number];
}

/** A source of the experiment file's `blast:` kind. */
export interface BlastSource extends FamilySource {
  readonly kind: 'blast';
  readonly blast: BlastParams;
}

export function isBlastSource(source: WorkloadSource): source is BlastSource {
  return source.kind === 'blast';
}

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
 * `interval_s` from time 0 (0: all at once), in steps of `step_jobs` `step_interval_s` apart; each runs about 40 minutes on the reference CPU,
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
        submit_s: Math.floor(n / p.step_jobs) * p.step_interval_s + (n % p.step_jobs) * p.interval_s,
        run_s: Math.max(1, Math.round(p.runtime_s * spread)),
        disk_mb: Math.round((input_mb + output_mb) * 1000) / 1000,
      });
    }
  }
  return jobs;
}

const BLAST_KEYS = [
  'submitters',
  'jobs',
  'vo',
  'groups',
  'runtime_s',
  'runtime_spread',
  'interval_s',
  'step_jobs',
  'step_interval_s',
  'input_kb',
  'output_mb',
] as const;

function readBlast(r: FieldReader, raw: unknown, path: string, sourceName: string): BlastParams | undefined {
  const o = r.object(raw, path);
  if (!o) return undefined;
  r.onlyKeys(o, path, BLAST_KEYS);
  const submitters = r.number(o['submitters'], join(path, 'submitters'), POSITIVE_INTEGER, 1);
  let groups = Array.from({ length: submitters }, (_, i) => `${sourceName}-${i + 1}`);
  if (o['groups'] !== undefined) {
    const list = r.array(o['groups'], join(path, 'groups')) ?? [];
    groups = list.map((g, i) => r.string(g, join(join(path, 'groups'), i)));
    if (list.length !== submitters)
      r.fail(join(path, 'groups'), `must name one group per submitter (${submitters}), got ${list.length}`);
    if (new Set(groups).size !== groups.length)
      r.fail(join(path, 'groups'), 'must not name a group twice: each submitter is its own group');
  }
  const range = (key: 'input_kb' | 'output_mb', fallback: [number, number]): [number, number] => {
    if (o[key] === undefined) return fallback;
    const list = r.array(o[key], join(path, key)) ?? [];
    if (list.length !== 2) {
      r.fail(join(path, key), 'must be [min, max]');
      return fallback;
    }
    const lo = r.number(list[0], join(join(path, key), 0), NON_NEGATIVE);
    const hi = r.number(list[1], join(join(path, key), 1), NON_NEGATIVE);
    if (hi < lo) r.fail(join(path, key), 'max must be at least min');
    return [lo, hi];
  };
  const jobs = r.number(o['jobs'], join(path, 'jobs'), POSITIVE_INTEGER);
  if (o['step_interval_s'] !== undefined && o['step_jobs'] === undefined)
    r.fail(join(path, 'step_interval_s'), 'needs step_jobs: how many jobs each step submits');
  return {
    submitters,
    jobs,
    vo: r.string(o['vo'], join(path, 'vo')),
    groups,
    runtime_s: r.number(o['runtime_s'], join(path, 'runtime_s'), POSITIVE, 2400),
    runtime_spread: r.number(o['runtime_spread'], join(path, 'runtime_spread'), { min: 0, max: 0.9 }, 0.1),
    interval_s: r.number(o['interval_s'], join(path, 'interval_s'), NON_NEGATIVE, 0),
    step_jobs: r.number(o['step_jobs'], join(path, 'step_jobs'), POSITIVE_INTEGER, Math.max(1, jobs)),
    step_interval_s: r.number(o['step_interval_s'], join(path, 'step_interval_s'), NON_NEGATIVE, 0),
    // §3.2: a BLAST job reads 10-33 kB and writes 0.7-1.5 MB.
    input_kb: range('input_kb', [10, 33]),
    output_mb: range('output_mb', [0.7, 1.5]),
  };
}

/** The experiment file's `blast:` sources: read, and made into one-CPU jobs of their VO and groups. */
export const BLAST_SOURCE: WorkloadSourceKind = {
  kind: 'blast',
  describe: 'a bag of BLAST tasks',
  independentJobs: true,
  read(o, r, path, common) {
    for (const k of ['vo', 'group'] as const)
      if (o[k] !== undefined)
        r.fail(join(path, k), `a blast source names its VO and groups under blast (blast.vo, blast.groups)`);
    const blast = readBlast(r, o['blast'], join(path, 'blast'), common.name);
    return blast && { blast };
  },
  load(source, { rng }) {
    const options = (source as BlastSource).blast;
    const adjustments: AdjustmentCounts = {};
    const jobs: Job[] = [];
    for (const g of generateBlast(options, rng).slice(source.skip)) {
      if (source.jobs !== undefined && jobs.length >= source.jobs) break;
      jobs.push({
        ...generatedJob(source, jobs.length, g),
        ...sourceTimes(source, g.run_s, g.run_s, adjustments),
        procs: 1,
        vo: options.vo,
        group: g.group,
        disk_mb: g.disk_mb,
      });
    }
    return { jobs, report: generatedReport(source, 'blast', jobs, adjustments) };
  },
};
