import {
  fieldPath as join,
  NON_NEGATIVE,
  POSITIVE,
  POSITIVE_INTEGER,
  PROBABILITY,
  type FamilySource,
  type FieldReader,
  type Job,
} from '@gridemu/model';
import { generatedJob, generatedReport, sourceTimes, type AdjustmentCounts } from '@gridemu/workload';
import type { JobFieldRules } from '@gridemu/protocol';
import type { WorkloadSourceKind } from '../scheme-module.js';
import { generateTaskStream, TASK_STREAM_DEFAULTS, type TaskStreamParams } from './task-stream.js';

/**
 * Divisible tasks (paper 000): a generated stream biased to short tasks and arriving in bursts
 * (Figure 7), and/or tasks listed one by one (Table 1's long and short task). Work is seconds on
 * one reference CPU (P = 1); a listed task may fix how many jobs it splits into.
 */
export interface TasksParams {
  /** The generated stream (task-stream.ts); absent when only `list` is given. */
  readonly stream?: TaskStreamParams;
  readonly list: readonly ListedTask[];
}

export interface ListedTask {
  readonly submit_s: number;
  readonly work_s: number;
  /** Jobs it is split into wherever it runs in parallel (else each queue splits by its job size). */
  readonly jobs?: number;
}

/** A source of the experiment file's `tasks:` kind. */
export interface TasksSource extends FamilySource {
  readonly kind: 'tasks';
  readonly tasks: TasksParams;
}

/** A divisible task as a job: its decomposition, when the source fixes it. */
export interface DivisibleTaskJob extends Job {
  /** Split into this many jobs wherever it runs in parallel. */
  readonly split_jobs?: number;
}

/** The field a divisible task adds to a job, as the bus checks it. */
export const DIVISIBLE_TASK_FIELDS: JobFieldRules = { split_jobs: 'count' };

const TASKS_KEYS = ['stream', 'list'] as const;
const LISTED_TASK_KEYS = ['submit_s', 'work_s', 'jobs'] as const;

function readTasks(r: FieldReader, raw: unknown, path: string): TasksParams | undefined {
  const o = r.object(raw, path);
  if (!o) return undefined;
  r.onlyKeys(o, path, TASKS_KEYS);
  if (o['stream'] === undefined && o['list'] === undefined) {
    r.fail(path, 'needs a stream (generated tasks), a list (tasks one by one), or both');
    return undefined;
  }
  let stream: TasksParams['stream'];
  if (o['stream'] !== undefined) {
    const sp = join(path, 'stream');
    const so = r.object(o['stream'], sp) ?? {};
    r.onlyKeys(so, sp, ['tasks', ...Object.keys(TASK_STREAM_DEFAULTS)]);
    const d = TASK_STREAM_DEFAULTS;
    const num = (k: keyof typeof d, rule = {}) => r.number(so[k], join(sp, k), rule, d[k]);
    stream = {
      tasks: r.number(so['tasks'], join(sp, 'tasks'), POSITIVE_INTEGER),
      short_share: num('short_share', PROBABILITY),
      short_min_s: num('short_min_s', POSITIVE),
      short_max_s: num('short_max_s', POSITIVE),
      medium_share: num('medium_share', PROBABILITY),
      medium_max_s: num('medium_max_s', POSITIVE),
      tail_shape: num('tail_shape', POSITIVE),
      tail_max_s: num('tail_max_s', POSITIVE),
      burst_gap_s: num('burst_gap_s', POSITIVE),
      burst_size: num('burst_size', { min: 1 }),
      within_burst_gap_s: num('within_burst_gap_s', NON_NEGATIVE),
    };
    if (stream.short_share + stream.medium_share > 1)
      r.fail(join(sp, 'medium_share'), 'short_share + medium_share must be at most 1');
    if (!(
      stream.short_min_s < stream.short_max_s &&
      stream.short_max_s < stream.medium_max_s &&
      stream.medium_max_s <= stream.tail_max_s
    )) {
      r.fail(sp, 'needs short_min_s < short_max_s < medium_max_s <= tail_max_s');
    }
  }
  const list: ListedTask[] = [];
  if (o['list'] !== undefined) {
    const lp = join(path, 'list');
    for (const [i, item] of (r.array(o['list'], lp) ?? []).entries()) {
      const ip = join(lp, i);
      const t = r.object(item, ip);
      if (!t) continue;
      r.onlyKeys(t, ip, LISTED_TASK_KEYS);
      const jobs = t['jobs'] === undefined ? undefined : r.number(t['jobs'], join(ip, 'jobs'), POSITIVE_INTEGER);
      list.push({
        submit_s: r.number(t['submit_s'], join(ip, 'submit_s'), NON_NEGATIVE, 0),
        work_s: r.number(t['work_s'], join(ip, 'work_s'), POSITIVE),
        ...(jobs !== undefined ? { jobs } : {}),
      });
    }
  }
  return { ...(stream ? { stream } : {}), list };
}

/**
 * The experiment file's `tasks:` sources: the generated stream, then the listed tasks, numbered in
 * that order. A task's run time is its work on one reference CPU; it asks for no fixed processor
 * count (procs 0: master-worker, its jobs take what its queue gets), so jobs.csv's capacity check
 * passes over it and the grids check their own CPUs.
 */
export const TASKS_SOURCE: WorkloadSourceKind = {
  kind: 'tasks',
  describe: 'divisible tasks',
  independentJobs: true,
  read(o, r, path) {
    const tasks = readTasks(r, o['tasks'], join(path, 'tasks'));
    return tasks && { tasks };
  },
  load(source, { rng }) {
    const options = (source as TasksSource).tasks;
    const adjustments: AdjustmentCounts = {};
    const generated: { number: number; submit_s: number; work_s: number; jobs?: number }[] = options.stream
      ? generateTaskStream(options.stream, rng)
      : [];
    for (const t of options.list)
      generated.push({
        number: generated.length + 1,
        submit_s: t.submit_s,
        work_s: t.work_s,
        ...(t.jobs !== undefined ? { jobs: t.jobs } : {}),
      });
    const jobs: DivisibleTaskJob[] = [];
    for (const g of generated.slice(source.skip)) {
      if (source.jobs !== undefined && jobs.length >= source.jobs) break;
      const job: DivisibleTaskJob = {
        ...generatedJob(source, jobs.length, g),
        ...sourceTimes(source, g.work_s, g.work_s, adjustments),
        procs: 0,
      };
      jobs.push(g.jobs !== undefined ? { ...job, split_jobs: g.jobs } : job);
    }
    return { jobs, report: generatedReport(source, 'tasks', jobs, adjustments) };
  },
};
