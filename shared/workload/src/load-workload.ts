import {
  faultTimeIssues,
  InputError,
  runEpoch_s,
  SpecError,
  type TasksSource,
  type TornadoSource,
  type WfFormatSource,
  type BlastSource,
  type ExperimentSpec,
  type Job,
  type SourceCommon,
  type SwfSource,
  type SyntheticSource,
} from '@gridemu/model';
import { Rng } from '@gridemu/runtime';
import { bump, convertRecord, sourceTimes, type AdjustmentCounts } from './conversion.js';
import { generateBlast } from './blast.js';
import { generateLublin } from './lublin.js';
import { generateTaskStream } from './task-stream.js';
import { generateTornado } from './tornado.js';
import { readWfFormat } from './wfformat.js';
import { readSwfBatches } from './swf-reader.js';
import { readGwfBatches } from './gwf-reader.js';
import { readBatsimWorkload } from './batsim-reader.js';
import type { SwfRecord } from './swf-record.js';
import type { SwfFormatError } from './swf-record.js';
import { resolveTrace } from './trace-dir.js';

/** What one source contributed, for summary.json: nothing is adjusted or skipped unseen. */
export interface SourceReport {
  readonly name: string;
  readonly kind: 'swf' | 'synthetic' | 'blast' | 'tasks' | 'tornado' | 'wfformat';
  readonly file?: string;
  readonly jobs: number;
  readonly adjustments: AdjustmentCounts;
  readonly malformed_lines: number;
  /** The first few malformed lines skipped in lenient mode, as `file:line: reason`. */
  readonly malformed_examples: string[];
  /** The width every job was given, with equal_width. */
  equal_width?: number;
}

export interface Workload {
  /** Every job of every source, ordered by submit time (ties: source order, then trace order). */
  readonly jobs: Job[];
  readonly sources: SourceReport[];
}

export interface LoadWorkloadOptions {
  readonly specFile?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Treat every swf source as lenient (the CLI's --lenient). */
  readonly lenient?: boolean;
}

export async function loadWorkload(spec: ExperimentSpec, options: LoadWorkloadOptions = {}): Promise<Workload> {
  const perSource: Job[][] = [];
  const sources: SourceReport[] = [];
  for (const [index, source] of spec.workload.entries()) {
    let loaded: { jobs: Job[]; report: SourceReport };
    try {
      loaded =
        source.kind === 'swf'
          ? await loadSwfSource(source, options)
          : source.kind === 'blast'
            ? loadBlastSource(source, spec, index)
            : source.kind === 'tasks'
              ? loadTasksSource(source, spec, index)
              : source.kind === 'tornado'
                ? loadTornadoSource(source, spec, index)
                : source.kind === 'wfformat'
                  ? await loadWfFormatSource(source, spec, index, options)
                  : loadSyntheticSource(source, spec, index);
    } catch (err) {
      if (err instanceof InputError) throw err;
      // A file that cannot be opened or read (a folder, no permission): one line, the cause kept.
      throw new InputError(`workload[${index}] (${source.name}): cannot load it: ${(err as Error).message}`, {
        cause: err,
      });
    }
    const { report } = loaded;
    const jobs = withMembership(loaded.jobs, source);
    perSource.push(source.equal_width ? equalWidth(jobs, report) : jobs);
    sources.push(report);
  }
  const merged = mergeBySubmit(perSource);
  const jobs = spec.network.transfer ? withMemory(merged, spec.seed, spec.network.transfer) : merged;
  const seen = new Set<string>();
  for (const j of jobs) {
    if (seen.has(j.id))
      throw new InputError(
        `job id ${j.id} appears twice in source ${j.workload}: job numbers in a trace must be unique`,
      );
    seen.add(j.id);
  }
  // The one place both runtimes learn when the run starts: fault times are checked against it here.
  const early = faultTimeIssues(spec.faults, runEpoch_s(jobs));
  if (early.length > 0) throw new SpecError(options.specFile ?? 'the experiment', early);
  return { jobs, sources };
}

/** Deals a source's jobs to its site, or round-robin over its sites in submission order. */
function originFor(source: SourceCommon, n: number): string {
  if (source.site !== undefined) return source.site;
  const sites = source.split_sites!;
  return sites[n % sites.length]!;
}

async function loadSwfSource(
  source: SwfSource,
  options: LoadWorkloadOptions,
): Promise<{ jobs: Job[]; report: SourceReport }> {
  const file = resolveTrace(source.swf, options.specFile, options.env);
  const adjustments: AdjustmentCounts = {};
  const examples: string[] = [];
  let malformed = 0;
  const jobs: Job[] = [];
  let records = 0;
  const lenient = source.lenient || options.lenient === true;
  const readOptions = {
    lenient,
    onMalformed: (e: SwfFormatError) => {
      malformed++;
      if (examples.length < 5) examples.push(e.message);
    },
  };
  const batches =
    source.format === 'gwf'
      ? readGwfBatches(file, readOptions)
      : source.format === 'batsim'
        ? batsimBatches(file)
        : readSwfBatches(file, readOptions);
  const full = () => source.jobs !== undefined && jobs.length >= source.jobs;
  for await (const batch of batches) {
    for (const r of batch) {
      records++;
      if (records <= source.skip) continue;
      if (full()) break;
      jobs.push(convertRecord(r, { origin: originFor(source, jobs.length), source }, adjustments));
    }
    if (full()) {
      await batches.return(undefined);
      break;
    }
  }
  if (source.jobs !== undefined && jobs.length < source.jobs) {
    throw new Error(
      `${file}: source ${source.name} asks for ${source.jobs} jobs after skipping ${source.skip}, but the trace has only ${records} records`,
    );
  }
  return {
    jobs,
    report: {
      name: source.name,
      kind: 'swf',
      file,
      jobs: jobs.length,
      adjustments,
      malformed_lines: malformed,
      malformed_examples: examples,
    },
  };
}

async function* batsimBatches(file: string): AsyncGenerator<SwfRecord[]> {
  yield (await readBatsimWorkload(file)).records;
}

function loadSyntheticSource(
  source: SyntheticSource,
  spec: ExperimentSpec,
  index: number,
): { jobs: Job[]; report: SourceReport } {
  const siteIds = source.site !== undefined ? [source.site] : source.split_sites!;
  const maxProcs = Math.min(...spec.sites.filter((s) => siteIds.includes(s.id)).map((s) => s.cpus));
  const rng = new Rng(spec.seed).fork(`workload/${index}/${source.name}`);
  const adjustments: AdjustmentCounts = {};
  const jobs: Job[] = [];
  let n = 0;
  for (const g of generateLublin({ ...source.synthetic, jobs: source.synthetic.jobs + source.skip }, maxProcs, rng)) {
    if (n++ < source.skip) continue;
    if (source.jobs !== undefined && jobs.length >= source.jobs) break;
    jobs.push({
      ...generatedJob(source, jobs.length, g),
      ...sourceTimes(source, g.run_s, g.estimate_s, adjustments),
      procs: g.procs,
    });
  }
  return { jobs, report: generatedReport(source, 'synthetic', jobs, adjustments) };
}

function loadBlastSource(
  source: BlastSource,
  spec: ExperimentSpec,
  index: number,
): { jobs: Job[]; report: SourceReport } {
  const rng = new Rng(spec.seed).fork(`workload/${index}/${source.name}`);
  const adjustments: AdjustmentCounts = {};
  const jobs: Job[] = [];
  const generated = generateBlast(source.blast, rng);
  for (const g of generated.slice(source.skip)) {
    if (source.jobs !== undefined && jobs.length >= source.jobs) break;
    jobs.push({
      ...generatedJob(source, jobs.length, g),
      ...sourceTimes(source, g.run_s, g.run_s, adjustments),
      procs: 1,
      vo: source.blast.vo,
      group: g.group,
      disk_mb: g.disk_mb,
    });
  }
  return { jobs, report: generatedReport(source, 'blast', jobs, adjustments) };
}

/**
 * Divisible tasks (paper 000): the generated stream, then the listed tasks, numbered in that order.
 * A task's run time is its work on one reference CPU; it asks for no fixed processor count
 * (procs 0: master-worker, its jobs take what its queue gets), so jobs.csv's capacity check
 * passes over it and the grids check their own CPUs.
 */
function loadTasksSource(
  source: TasksSource,
  spec: ExperimentSpec,
  index: number,
): { jobs: Job[]; report: SourceReport } {
  const rng = new Rng(spec.seed).fork(`workload/${index}/${source.name}`);
  const adjustments: AdjustmentCounts = {};
  const generated: { number: number; submit_s: number; work_s: number; jobs?: number }[] = source.tasks.stream
    ? generateTaskStream(source.tasks.stream, rng)
    : [];
  for (const t of source.tasks.list)
    generated.push({
      number: generated.length + 1,
      submit_s: t.submit_s,
      work_s: t.work_s,
      ...(t.jobs !== undefined ? { jobs: t.jobs } : {}),
    });
  const jobs: Job[] = [];
  for (const g of generated.slice(source.skip)) {
    if (source.jobs !== undefined && jobs.length >= source.jobs) break;
    const job: Job = {
      ...generatedJob(source, jobs.length, g),
      ...sourceTimes(source, g.work_s, g.work_s, adjustments),
      procs: 0,
    };
    jobs.push(g.jobs !== undefined ? { ...job, split_jobs: g.jobs } : job);
  }
  return { jobs, report: generatedReport(source, 'tasks', jobs, adjustments) };
}

/**
 * A DAG's tasks as jobs (paper 003): `<dag>/<task id>`, where the DAG is `<name>!<n>`, n counting
 * from 0; each names its DAG and its parents' job ids. A computational resource runs any number of
 * tasks by sharing its power (paper 003 §3), so a task holds no processor of its own: it asks for
 * 0, as a divisible task does, and the DAG scheme reports the resources' use itself. A WfFormat
 * task also carries what it reads: from outside, and from each parent.
 */
interface DagTaskIn {
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
): Job[] {
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

/** Tornado-like DAG jobs (paper 003 §4), generated from the seed. */
function loadTornadoSource(
  source: TornadoSource,
  spec: ExperimentSpec,
  index: number,
): { jobs: Job[]; report: SourceReport } {
  const rng = new Rng(spec.seed).fork(`workload/${index}/${source.name}`);
  const jobs = generateTornado(source.tornado, rng).flatMap((d, n) =>
    dagJobs(
      source,
      `${source.name}!${n}`,
      n,
      d.submit_s,
      d.tasks.map((t) => ({ id: t.id, parents: t.parents, run_s: t.length_s, estimate_s: t.estimate_s })),
    ),
  );
  return {
    jobs,
    report: {
      name: source.name,
      kind: 'tornado',
      jobs: jobs.length,
      adjustments: {},
      malformed_lines: 0,
      malformed_examples: [],
    },
  };
}

/**
 * A WfFormat instance replayed `instances` times, `interarrival_s` apart (or, with `arrivals:
 * poisson`, exponential gaps of that mean drawn from the seed). Its measured run times are the
 * tasks' lengths, and the scheduler's rough estimate too; its files' sizes are what the tasks move.
 */
async function loadWfFormatSource(
  source: WfFormatSource,
  spec: ExperimentSpec,
  index: number,
  options: LoadWorkloadOptions,
): Promise<{ jobs: Job[]; report: SourceReport }> {
  const file = resolveTrace(source.wfformat, options.specFile, options.env);
  const wf = await readWfFormat(file);
  const tasks = wf.tasks.map((t) => ({
    id: t.id,
    parents: t.parents,
    run_s: t.runtime_s,
    estimate_s: t.runtime_s,
    input_bytes: t.external_input_bytes,
    parent_bytes: t.bytes_from_parents,
  }));
  const rng = new Rng(spec.seed).fork(`workload/${index}/${source.name}`);
  let at = 0;
  const arrival = (n: number) =>
    source.arrivals === 'poisson'
      ? (at += n === 0 ? 0 : rng.exponential(source.interarrival_s))
      : n * source.interarrival_s;
  const jobs = Array.from({ length: source.instances }, (_, n) =>
    dagJobs(source, `${wf.name}!${n}`, n, arrival(n), tasks),
  ).flat();
  return {
    jobs,
    report: {
      name: source.name,
      kind: 'wfformat',
      file,
      jobs: jobs.length,
      adjustments: {},
      malformed_lines: 0,
      malformed_examples: [],
    },
  };
}

/** What every generated job shares: its id, source, origin (dealt in order) and shifted submit time. */
function generatedJob(source: SourceCommon, dealt: number, g: { readonly number: number; readonly submit_s: number }) {
  return {
    id: `${source.name}!${g.number}`,
    workload: source.name,
    origin: originFor(source, dealt),
    submit_s: g.submit_s + source.shift_h * 3600,
  };
}

function generatedReport(
  source: SourceCommon,
  kind: 'synthetic' | 'blast' | 'tasks',
  jobs: readonly Job[],
  adjustments: AdjustmentCounts,
): SourceReport {
  return { name: source.name, kind, jobs: jobs.length, adjustments, malformed_lines: 0, malformed_examples: [] };
}

/** A source's `vo:` and `group:` given to each of its jobs (a trace's own group number is replaced). */
function withMembership(jobs: Job[], source: SourceCommon): Job[] {
  if (source.vo === undefined && source.group === undefined) return jobs;
  return jobs.map((j) => ({
    ...j,
    ...(source.vo !== undefined ? { vo: source.vo } : {}),
    ...(source.group !== undefined ? { group: source.group } : {}),
  }));
}

/**
 * Every source's jobs by submit time; ties keep source order, then trace order (the sources are
 * concatenated in order and Array.prototype.sort is stable).
 */
function mergeBySubmit(lists: Job[][]): Job[] {
  return lists.flat().sort((a, b) => a.submit_s - b.submit_s);
}

/** Paper 001 §7: memory uniform in [min, max] MB, drawn per job from its id and the seed, so every scheme sees the same sizes. */
function withMemory(jobs: Job[], seed: number, t: { memory_mb_min: number; memory_mb_max: number }): Job[] {
  return jobs.map((j) => ({
    ...j,
    memory_mb: Math.round(new Rng(seed, `memory/${j.id}`).uniform(t.memory_mb_min, t.memory_mb_max)),
  }));
}

/** Paper 001 §6 (Figure 14): every job gets the same width, chosen to keep Σ procs·run about the same. */
function equalWidth(jobs: Job[], report: SourceReport): Job[] {
  const runnable = jobs.filter((j) => j.rejectReason === undefined);
  const work = runnable.reduce((a, j) => a + j.procs * j.run_s, 0);
  const time = runnable.reduce((a, j) => a + j.run_s, 0);
  const width = Math.max(1, Math.round(work / Math.max(1, time)));
  bump(report.adjustments, 'equal_width', runnable.length);
  report.equal_width = width;
  return jobs.map((j) => (j.rejectReason === undefined ? { ...j, procs: width } : j));
}
