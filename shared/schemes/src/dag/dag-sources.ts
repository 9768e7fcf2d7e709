import {
  fieldPath as join,
  NON_NEGATIVE,
  NON_NEGATIVE_INTEGER,
  POSITIVE,
  POSITIVE_INTEGER,
  PROBABILITY,
  type FamilySource,
  type FieldReader,
  type Job,
  type SourceCommon,
} from '@gridemu/model';
import { fieldProblem, type JobFieldRules } from '@gridemu/protocol';
import { originFor, readWfFormat, type LoadedSource } from '@gridemu/workload';
import type { WorkloadSourceKind } from '../scheme-module.js';
import { generateTornado, TORNADO_DEFAULTS, type TornadoSpec } from './tornado.js';

/** A task of a DAG job (paper 003) as a job: its DAG (the core's `dag`), its parents, and what it reads. */
export interface DagTaskJob extends Job {
  readonly dag: string;
  /** The ids of the DAG's tasks it depends on: it runs once they have finished and their outputs arrived. */
  readonly parents: readonly string[];
  /**
   * Its input bytes from outside the grid (its WfFormat input files no parent writes).
   * Unset: paper 003 §4's 1 MB for an initial task, nothing for a dependent one.
   */
  readonly input_bytes?: number;
  /** The bytes it reads from each parent's outputs, aligned with `parents`. Unset: §4's 1 MB each. */
  readonly parent_bytes?: readonly number[];
}

/** A job the DAG schemes were given: every one is a task of a DAG (their sources make nothing else). */
export function asDagTask(job: Job): DagTaskJob {
  const task = job as Partial<DagTaskJob>;
  if (task.dag === undefined || task.parents === undefined)
    throw new Error(`assertion: job ${job.id} is not a task of a DAG (the DAG schemes take only DAG sources)`);
  return job as DagTaskJob;
}

/** The fields a DAG task adds to a job, as the bus checks them. */
export const DAG_TASK_FIELDS: JobFieldRules = {
  parents: (v) =>
    Array.isArray(v) && v.length <= 100_000 && v.every((p) => fieldProblem(p, 'string') === undefined)
      ? undefined
      : 'must be a list of job ids',
  // What it reads, from a WfFormat instance's file sizes.
  input_bytes: 'number',
  parent_bytes: (v) =>
    Array.isArray(v) && v.length <= 100_000 && v.every((b) => typeof b === 'number' && Number.isFinite(b) && b >= 0)
      ? undefined
      : 'must be a list of byte counts',
};

/** A WfCommons WfFormat instance (1.5 or 1.6) replayed `instances` times, `interarrival_s` apart (paper 003 with real workflows). */
export interface WfFormatParams {
  /** The instance's JSON file, found the way traces are. */
  readonly wfformat: string;
  readonly instances: number;
  readonly interarrival_s: number;
  /** `fixed`: the instances come exactly interarrival_s apart; `poisson`: exponential gaps of that mean, drawn from the seed. */
  readonly arrivals: 'fixed' | 'poisson';
}

/** A source of the experiment file's `tornado:` kind. */
export interface TornadoSource extends FamilySource {
  readonly kind: 'tornado';
  readonly tornado: TornadoSpec;
}

/** A source of the experiment file's `wfformat:` kind: its options are keys of the source itself. */
export interface WfFormatSource extends FamilySource, WfFormatParams {
  readonly kind: 'wfformat';
}

/** What a DAG source takes besides its own fields: the options of trace lines do not apply to tasks of a DAG. */
const DAG_SOURCE_KEYS = ['name', 'site', 'sites', 'tornado', 'wfformat', 'instances', 'interarrival_s', 'arrivals'];
const TORNADO_KEYS = ['jobs', 'parallel', 'variation', 'sigma', 'subset', ...Object.keys(TORNADO_DEFAULTS)];

function refuseJobOptions(o: Readonly<Record<string, unknown>>, r: FieldReader, path: string, kind: string): void {
  // `lenient` is refused for every family's source by the model's reader already.
  for (const k of Object.keys(o))
    if (!DAG_SOURCE_KEYS.includes(k) && k !== 'lenient')
      r.fail(join(path, k), `does not apply to the tasks of DAG jobs (a ${kind} source)`);
}

function readTornado(r: FieldReader, raw: unknown, path: string): TornadoSpec | undefined {
  const o = r.object(raw, path);
  if (!o) return undefined;
  r.onlyKeys(o, path, TORNADO_KEYS);
  const d = TORNADO_DEFAULTS;
  const t: TornadoSpec = {
    jobs: r.number(o['jobs'], join(path, 'jobs'), POSITIVE_INTEGER),
    parallel: r.number(o['parallel'], join(path, 'parallel'), POSITIVE_INTEGER),
    variation: r.oneOf(o['variation'], join(path, 'variation'), ['high', 'medium', 'low'] as const, 'high'),
    median_s: r.number(o['median_s'], join(path, 'median_s'), POSITIVE, d.median_s),
    batch_size: r.number(o['batch_size'], join(path, 'batch_size'), { min: 1 }, d.batch_size),
    batch_gap_h: r.number(o['batch_gap_h'], join(path, 'batch_gap_h'), POSITIVE, d.batch_gap_h),
    day_share: r.number(o['day_share'], join(path, 'day_share'), PROBABILITY, d.day_share),
    ...(o['sigma'] !== undefined ? { sigma: r.number(o['sigma'], join(path, 'sigma'), NON_NEGATIVE) } : {}),
    ...(o['subset'] !== undefined ? { subset: r.number(o['subset'], join(path, 'subset'), NON_NEGATIVE_INTEGER) } : {}),
  };
  if (t.subset !== undefined && t.subset >= t.parallel)
    r.fail(join(path, 'subset'), `must be smaller than parallel (${t.parallel}): a subset of the parent set`);
  return t;
}

/**
 * A DAG's tasks as jobs (paper 003): `<dag>/<task id>`, where the DAG is `<name>!<n>`, n counting
 * from 0; each names its DAG and its parents' job ids. A computational resource runs any number of
 * tasks by sharing its power (paper 003 §3), so a task holds no processor of its own: it asks for
 * 0, as a divisible task does, and the DAG scheme reports the resources' use itself. A WfFormat
 * task also carries what it reads: from outside, and from each parent.
 */
export interface DagTaskIn {
  readonly id: string;
  readonly parents: readonly string[];
  readonly run_s: number;
  readonly estimate_s: number;
  readonly input_bytes?: number;
  readonly parent_bytes?: readonly number[];
}

function dagJobs(
  source: SourceCommon,
  dag: string,
  dealt: number,
  submit_s: number,
  tasks: readonly DagTaskIn[],
): DagTaskJob[] {
  const origin = originFor(source, dealt);
  return tasks.map((t) => ({
    id: `${dag}/${t.id}`,
    workload: source.name,
    origin,
    submit_s,
    run_s: Math.max(1, t.run_s),
    estimate_s: Math.max(1, t.estimate_s),
    procs: 0,
    dag,
    parents: t.parents.map((p) => `${dag}/${p}`),
    ...(t.input_bytes === undefined ? {} : { input_bytes: t.input_bytes }),
    ...(t.parent_bytes === undefined ? {} : { parent_bytes: t.parent_bytes }),
  }));
}

/** A source of DAG jobs' report: its tasks, nothing adjusted (a DAG task keeps the lengths it is given). */
function dagReport(source: SourceCommon, kind: string, jobs: readonly Job[], file?: string): LoadedSource['report'] {
  return {
    name: source.name,
    kind,
    ...(file !== undefined ? { file } : {}),
    jobs: jobs.length,
    adjustments: {},
    malformed_lines: 0,
    malformed_examples: [],
  };
}

/** The experiment file's `tornado:` sources: Tornado-like DAG jobs (paper 003 §4), generated from the seed. */
export const TORNADO_SOURCE: WorkloadSourceKind = {
  kind: 'tornado',
  describe: 'generated DAG jobs',
  independentJobs: false,
  read(o, r, path) {
    refuseJobOptions(o, r, path, 'tornado');
    const tornado = readTornado(r, o['tornado'], join(path, 'tornado'));
    return tornado && { tornado };
  },
  load(source, { rng }) {
    const options = (source as TornadoSource).tornado;
    const jobs = generateTornado(options, rng).flatMap((d, n) =>
      dagJobs(
        source,
        `${source.name}!${n}`,
        n,
        d.submit_s,
        d.tasks.map((t) => ({ id: t.id, parents: t.parents, run_s: t.length_s, estimate_s: t.estimate_s })),
      ),
    );
    return { jobs, report: dagReport(source, 'tornado', jobs) };
  },
};

/**
 * The experiment file's `wfformat:` sources: a WfFormat instance replayed `instances` times,
 * `interarrival_s` apart (or, with `arrivals: poisson`, exponential gaps of that mean drawn from
 * the seed). Its measured run times are the tasks' lengths, and the scheduler's rough estimate
 * too; its files' sizes are what the tasks move.
 */
export const WFFORMAT_SOURCE: WorkloadSourceKind = {
  kind: 'wfformat',
  describe: 'a WfCommons workflow, replayed',
  keys: ['instances', 'interarrival_s', 'arrivals'],
  independentJobs: false,
  read(o, r, path) {
    refuseJobOptions(o, r, path, 'wfformat');
    const own: WfFormatParams = {
      wfformat: r.string(o['wfformat'], join(path, 'wfformat')),
      instances: r.number(o['instances'], join(path, 'instances'), POSITIVE_INTEGER, 1),
      interarrival_s: r.number(o['interarrival_s'], join(path, 'interarrival_s'), NON_NEGATIVE, 0),
      arrivals: r.oneOf(o['arrivals'], join(path, 'arrivals'), ['fixed', 'poisson'] as const, 'fixed'),
    };
    return { ...own };
  },
  async load(source, { rng, resolveFile }) {
    const options = source as WfFormatSource;
    const file = resolveFile(options.wfformat);
    const wf = await readWfFormat(file);
    const tasks = wf.tasks.map((t) => ({
      id: t.id,
      parents: t.parents,
      run_s: t.runtime_s,
      estimate_s: t.runtime_s,
      input_bytes: t.external_input_bytes,
      parent_bytes: t.bytes_from_parents,
    }));
    let at = 0;
    const arrival = (n: number) =>
      options.arrivals === 'poisson'
        ? (at += n === 0 ? 0 : rng.exponential(options.interarrival_s))
        : n * options.interarrival_s;
    const jobs = Array.from({ length: options.instances }, (_, n) =>
      dagJobs(source, `${wf.name}!${n}`, n, arrival(n), tasks),
    ).flat();
    return { jobs, report: dagReport(source, 'wfformat', jobs, file) };
  },
};
