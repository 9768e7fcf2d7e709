import {
  faultTimeIssues,
  InputError,
  isCoreSource,
  runEpoch_s,
  SpecError,
  type ExperimentSpec,
  type FamilySource,
  type Job,
  type SpecIssue,
  type SourceCommon,
  type SwfSource,
  type SyntheticSource,
} from '@gridemu/model';
import { Rng } from '@gridemu/runtime';
import { bump, convertRecord, sourceTimes, type AdjustmentCounts } from './conversion.js';
import { generateLublin } from './lublin.js';
import { readSwfBatches } from './swf-reader.js';
import { readGwfBatches } from './gwf-reader.js';
import { readBatsimWorkload } from './batsim-reader.js';
import type { SwfRecord } from './swf-record.js';
import type { SwfFormatError } from './swf-record.js';
import { resolveTrace } from './trace-dir.js';
import { sha256OfFile } from './file-digest.js';

/** What one source contributed, for summary.json: nothing is adjusted or skipped unseen. */
export interface SourceReport {
  readonly name: string;
  /** `swf`, `synthetic`, or a family's kind of source. */
  readonly kind: string;
  readonly file?: string;
  /** The SHA-256 of the file's bytes, when the source read a file: which version of a trace it was. */
  readonly sha256?: string;
  readonly jobs: number;
  readonly adjustments: AdjustmentCounts;
  readonly malformed_lines: number;
  /** The first few malformed lines skipped in lenient mode, as `file:line: reason`. */
  readonly malformed_examples: string[];
  /** The width every job was given, with equal_width. */
  equal_width?: number;
  /**
   * The source's first and last submit times, as the run has them (after skip and shift_h): where
   * its jobs fall beside the other sources' (sourcesApartInTime).
   */
  first_submit_s?: number;
  last_submit_s?: number;
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
  /** The families' kinds of source (a bag of BLAST tasks, DAG jobs); the scheme registry has them. */
  readonly familySources?: readonly SourceLoader[];
  /** Gives an issue found here its line in the experiment file (LoadedSpec.locate). */
  readonly locateIssues?: (issues: readonly SpecIssue[]) => readonly SpecIssue[];
}

/** What one source gives: its jobs, and what was done to them. */
export interface LoadedSource {
  readonly jobs: Job[];
  readonly report: SourceReport;
}

/** How a family turns a source of its own kind into jobs. */
export interface SourceLoader {
  readonly kind: string;
  load(source: FamilySource, context: SourceContext): LoadedSource | Promise<LoadedSource>;
}

/** What a family's source may use while it makes its jobs. */
export interface SourceContext {
  readonly spec: ExperimentSpec;
  /** Its random stream, forked from the seed by the source's place and name. */
  readonly rng: Rng;
  /** A file it names, found the way traces are (beside the experiment file, GRIDEMU_TRACE_DIR). */
  resolveFile(name: string): string;
}

export async function loadWorkload(spec: ExperimentSpec, options: LoadWorkloadOptions = {}): Promise<Workload> {
  const perSource: Job[][] = [];
  const sources: SourceReport[] = [];
  for (const [index, source] of spec.workload.entries()) {
    let loaded: { jobs: Job[]; report: SourceReport };
    try {
      loaded = !isCoreSource(source)
        ? await loadFamilySource(source, spec, index, options)
        : source.kind === 'swf'
          ? await loadSwfSource(source, options)
          : loadSyntheticSource(source, spec, index);
    } catch (err) {
      if (err instanceof InputError) throw err;
      // A file that cannot be opened or read (a folder, no permission): one line, the cause kept.
      throw new InputError(`workload[${index}] (${source.name}): cannot load it: ${(err as Error).message}`, {
        cause: err,
      });
    }
    const report: SourceReport =
      loaded.report.file !== undefined && loaded.report.sha256 === undefined
        ? { ...loaded.report, sha256: await sha256OfFile(loaded.report.file) }
        : loaded.report;
    // A synthetic source's jobs are made with their membership and numbered one by one
    // (loadSyntheticSource); a trace's numbers are its own, and may repeat.
    const jobs = source.kind === 'synthetic' ? loaded.jobs : uniqueIds(withMembership(loaded.jobs, source));
    perSource.push(source.equal_width ? equalWidth(jobs, report) : jobs);
    sources.push({ ...report, ...submitWindow(jobs) });
  }
  const merged = mergeBySubmit(perSource);
  const jobs = spec.network.transfer ? withMemory(merged, spec.seed, spec.network.transfer) : merged;
  // The one place both runtimes learn when the run starts: fault times are checked against it here.
  const early = faultTimeIssues(spec.faults, runEpoch_s(jobs));
  if (early.length > 0)
    throw new SpecError(options.specFile ?? 'the experiment', options.locateIssues?.(early) ?? early);
  return { jobs, sources };
}

/** A source's first and last submit times (a family's jobs need not come in submit order). */
function submitWindow(jobs: readonly Job[]): Pick<SourceReport, 'first_submit_s' | 'last_submit_s'> {
  if (jobs.length === 0) return {};
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const j of jobs) {
    first = Math.min(first, j.submit_s);
    last = Math.max(last, j.submit_s);
  }
  return { first_submit_s: first, last_submit_s: last };
}

function loadFamilySource(
  source: FamilySource,
  spec: ExperimentSpec,
  index: number,
  options: LoadWorkloadOptions,
): LoadedSource | Promise<LoadedSource> {
  const loader = options.familySources?.find((l) => l.kind === source.kind);
  if (!loader)
    throw new Error(`assertion: no family loads ${source.kind} sources (loadWorkload was not given the registry's)`);
  return loader.load(source, {
    spec,
    rng: sourceRng(spec, index, source),
    resolveFile: (name) => resolveTrace(name, options.specFile, options.env),
  });
}

/** A source's own random stream: its place in the workload and its name, so adding a source changes no other's jobs. */
function sourceRng(spec: ExperimentSpec, index: number, source: SourceCommon): Rng {
  return new Rng(spec.seed).fork(`workload/${index}/${source.name}`);
}

/** Deals a source's jobs to its site, or round-robin over its sites in submission order. */
export function originFor(source: SourceCommon, n: number): string {
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
  const had =
    malformed > 0
      ? `${count(records, 'record')} and ${count(malformed, 'malformed line')}, skipped`
      : count(records, 'record');
  if (source.jobs !== undefined && jobs.length < source.jobs) {
    throw new Error(
      `${file}: source ${source.name} asks for ${source.jobs} jobs after skipping ${source.skip}, but the trace has only ${had}`,
    );
  }
  // An empty file, or a skip past the end: a run of no jobs is all zeros, never what was meant.
  if (jobs.length === 0) {
    throw new Error(`${file}: source ${source.name} has no jobs after skipping ${source.skip}: the trace has ${had}`);
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

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
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
  const rng = sourceRng(spec, index, source);
  const adjustments: AdjustmentCounts = {};
  const jobs: Job[] = [];
  const membership = membershipOf(source);
  let n = 0;
  for (const g of generateLublin({ ...source.synthetic, jobs: source.synthetic.jobs + source.skip }, maxProcs, rng)) {
    if (n++ < source.skip) continue;
    if (source.jobs !== undefined && jobs.length >= source.jobs) break;
    const { run_s, estimate_s } = sourceTimes(source, g.run_s, g.estimate_s, adjustments);
    // One literal, not spreads of generatedJob's and sourceTimes' objects: a grid's local users
    // submit some 130,000 jobs a run (paper 002), and copying each through spreads was a tenth of it.
    const { id, workload, origin, submit_s } = generatedJob(source, jobs.length, g);
    jobs.push({
      id,
      workload,
      origin,
      submit_s,
      run_s,
      estimate_s,
      procs: g.procs,
      ...membership,
    });
  }
  return { jobs, report: generatedReport(source, 'synthetic', jobs, adjustments) };
}

/** What every generated job shares: its id, source, origin (dealt in order) and shifted submit time. */
export function generatedJob(
  source: SourceCommon,
  dealt: number,
  g: { readonly number: number; readonly submit_s: number },
) {
  return {
    id: `${source.name}!${g.number}`,
    workload: source.name,
    origin: originFor(source, dealt),
    submit_s: g.submit_s + source.shift_h * 3600,
  };
}

/** The report of a source that made its jobs (nothing read, so nothing malformed). */
export function generatedReport(
  source: SourceCommon,
  kind: string,
  jobs: readonly Job[],
  adjustments: AdjustmentCounts,
): SourceReport {
  return { name: source.name, kind, jobs: jobs.length, adjustments, malformed_lines: 0, malformed_examples: [] };
}

/**
 * The source's jobs, if no id repeats among them. Every id starts with its source's name, and
 * names are unique, so ids of two sources never clash.
 */
function uniqueIds(jobs: Job[]): Job[] {
  const seen = new Set<string>();
  for (const j of jobs) {
    if (seen.has(j.id))
      throw new InputError(
        `job id ${j.id} appears twice in source ${j.workload}: job numbers in a trace must be unique`,
      );
    seen.add(j.id);
  }
  return jobs;
}

/** A source's `vo:` and `group:` given to each of its jobs (a trace's own group number is replaced). */
function withMembership(jobs: Job[], source: SourceCommon): Job[] {
  if (source.vo === undefined && source.group === undefined) return jobs;
  const membership = membershipOf(source);
  return jobs.map((j) => ({ ...j, ...membership }));
}

/** The `vo:` and `group:` a source gives its jobs, as fields to spread over each. */
function membershipOf(source: SourceCommon): Pick<Job, 'vo' | 'group'> {
  return {
    ...(source.vo !== undefined ? { vo: source.vo } : {}),
    ...(source.group !== undefined ? { group: source.group } : {}),
  };
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
