import type { FaultsSpec } from './faults.js';

/** The experiment file (DESIGN.md, "The experiment file"), after validation and defaults. */
export interface ExperimentSpec {
  readonly name: string;
  readonly seed: number;
  readonly sites: readonly SiteSpec[];
  readonly workload: readonly WorkloadSource[];
  readonly local: LocalSpec;
  readonly meta: MetaSpec;
  readonly network: NetworkSpec;
  readonly live: LiveSpec;
  /** Faults injected on purpose; none when the file has no `faults:`. */
  readonly faults: FaultsSpec;
  /**
   * `protocol_trace: true`: both modes write `protocol-trace.csv`, every protocol step of every job
   * (copies sent, a claim sent, granted, denied or timed out, a cancel) with its emulated time and
   * location, so a live run and its simulation can be compared job by job. Absent: none.
   */
  readonly protocol_trace?: boolean;
}

export interface SiteSpec {
  readonly id: string;
  readonly cpus: number;
  /** CPU speed relative to the grid's reference CPU (GRUBER, paper 002: a job runs run_s / speed there); 1 when not given. */
  readonly speed?: number;
  /** Disk the site offers to grid jobs, GB; unlimited when not given. */
  readonly disk_gb?: number;
}

export const LOCAL_POLICIES = ['fcfs', 'easy', 'dual-easy'] as const;
export type LocalPolicyName = (typeof LOCAL_POLICIES)[number];

export interface LocalSpec {
  readonly policy: LocalPolicyName;
}

/**
 * `meta:` as the scheme module that owns `scheme` read and defaulted it. Each module narrows it to
 * its own options, so across modules it is a union discriminated by `scheme` (shared/schemes).
 */
export interface MetaSpec {
  readonly scheme: string;
  readonly [option: string]: unknown;
}

export interface NetworkSpec {
  readonly latency_ms: number;
  readonly jitter_ms: number;
  /** Per-link overrides: matrix[from][to] = one-way latency in ms. */
  readonly matrix?: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Job transfer cost (paper 001 §7); absent: moving a job is free. */
  readonly transfer?: TransferSpec;
}

/**
 * Each job gets a memory size uniform in [memory_mb_min, memory_mb_max] (seeded, the same in every
 * scheme); a job that runs away from its origin holds its processors for memory × 8 / bandwidth
 * seconds of transfer before it starts.
 */
export interface TransferSpec {
  readonly bandwidth_mbps: number;
  readonly memory_mb_min: number;
  readonly memory_mb_max: number;
}

export interface LiveSpec {
  readonly speedup: number;
  /**
   * Every site (and central) process keeps a journal, so that `gridemu run`, docker-compose's or
   * Kubernetes' restart policy can bring back one that died unplanned, with its state.
   * Processes faults.crash names keep one anyway.
   */
  readonly journal?: boolean;
  /**
   * At most one latest-value report (load gossip) per sender on the bus every this many wall ms;
   * a newer one replaces one that waits. 0: every report goes. Absent:
   * DEFAULT_REPORT_INTERVAL_MS.
   */
  readonly report_interval_ms?: number;
  /**
   * Synthetic jobs per site of the throwaway grid each process runs before the clock starts, so
   * that V8 has compiled the run's code by the epoch (shared/live/src/warm-up.ts). 0: none.
   * Absent: DEFAULT_WARM_UP_JOBS.
   */
  readonly warm_up_jobs?: number;
}

/**
 * 250: a site process's warm-up grid then has 500 jobs, about 0.3 s on an idle core. On the bench's
 * run at speed-up 300,000 it raised jobs/s by a median 1.44× (three pairs; 100 gave 1.15×).
 */
export const DEFAULT_WARM_UP_JOBS = 250;

/**
 * 20 wall ms binds only where a report's period is under 20 ms × the speed-up, which is where one
 * hop of 3–5 ms is already over 5% of it and the fidelity guard warns anyway.
 */
export const DEFAULT_REPORT_INTERVAL_MS = 20;

/** Options every source shares (DESIGN.md). */
export interface SourceCommon {
  /** Label used as Batsim's workload_name and as the job id prefix; defaults to the site id or `w<index>`. */
  readonly name: string;
  /** Origin site for every job of this source; absent when the source is split over `split_sites`. */
  readonly site?: string;
  /** Sites a split source deals its jobs to, round-robin in submission order. */
  readonly split_sites?: readonly string[];
  /** Take the first `jobs` jobs after skipping `skip`. */
  readonly jobs?: number;
  readonly skip: number;
  /** Time-zone shift added to every submit time, hours (paper 001 §3: up to 3 h). */
  readonly shift_h: number;
  /** Stretch of run and requested time (paper 001 §3: two sites ×1.7). */
  readonly runtime_scale: number;
  /** Replace requested time with run time (paper 001 §6: perfectly accurate estimates). */
  readonly exact_estimates: boolean;
  /**
   * Give every job the same processor count, Σ procs·run / Σ run rounded, so the total load is
   * about the same (paper 001 §6, Figure 14: "all jobs request an identical number of processors").
   */
  readonly equal_width: boolean;
  /** The virtual organization every job of the source belongs to (GRUBER's usage SLAs, paper 002). */
  readonly vo?: string;
  /** The group, within its VO, every job of the source belongs to. */
  readonly group?: string;
}

export interface SwfSource extends SourceCommon {
  readonly kind: 'swf';
  /** The trace file (given as `swf:`, `gwf:` or `batsim:`): absolute, relative to the file, or a bare archive name. */
  readonly swf: string;
  /** Its format: the Standard Workload Format, the Grid Workloads Format, or Batsim's workload JSON. */
  readonly format: 'swf' | 'gwf' | 'batsim';
  /** Skip and count malformed lines instead of failing. */
  readonly lenient: boolean;
}

export interface SyntheticSource extends SourceCommon {
  readonly kind: 'synthetic';
  readonly synthetic: LublinParams;
}

/**
 * A bag of BLAST tasks (paper 002 §3.2): `submitters` users each submit `jobs` independent
 * one-CPU jobs of about `runtime_s` on the reference CPU, with tiny input and output; each
 * submitter is its own group of `vo`.
 */
export interface BlastSource extends SourceCommon {
  readonly kind: 'blast';
  readonly blast: BlastParams;
}

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
  /** Input staged in per job, kB (uniform in the range). */
  readonly input_kb: readonly [number, number];
  /** Output staged out per job, MB (uniform in the range). */
  readonly output_mb: readonly [number, number];
}

/**
 * Divisible tasks (paper 000): a generated stream biased to short tasks and arriving in bursts
 * (Figure 7), and/or tasks listed one by one (Table 1's long and short task). Work is seconds on
 * one reference CPU (P = 1); a listed task may fix how many jobs it splits into.
 */
export interface TasksSource extends SourceCommon {
  readonly kind: 'tasks';
  readonly tasks: TasksParams;
}

export interface TasksParams {
  /** The generated stream (workload/src/task-stream.ts); absent when only `list` is given. */
  readonly stream?: TaskStreamSpec;
  readonly list: readonly ListedTask[];
}

/** A stream of divisible tasks as paper 000's Superlink-online saw them (§5, Figure 7). */
export interface TaskStreamSpec {
  readonly tasks: number;
  /** Share of tasks lasting a few minutes (Figure 7: about 60%), log-uniform in [short_min_s, short_max_s]. */
  readonly short_share: number;
  readonly short_min_s: number;
  readonly short_max_s: number;
  /** Share up to a few hours (Figure 7: about 28%), log-uniform in [short_max_s, medium_max_s]. */
  readonly medium_share: number;
  readonly medium_max_s: number;
  /** The rest: a Pareto tail from medium_max_s with this shape (smaller: heavier), capped at tail_max_s. */
  readonly tail_shape: number;
  readonly tail_max_s: number;
  /** Mean seconds between bursts, and mean tasks per burst (geometric); tasks of a burst come seconds apart. */
  readonly burst_gap_s: number;
  readonly burst_size: number;
  readonly within_burst_gap_s: number;
}

export const TASK_STREAM_DEFAULTS: Omit<TaskStreamSpec, 'tasks'> = {
  short_share: 0.6,
  short_min_s: 30,
  short_max_s: 600,
  medium_share: 0.28,
  medium_max_s: 3 * 3600,
  tail_shape: 1.2,
  tail_max_s: 20 * 24 * 3600,
  burst_gap_s: 1800,
  burst_size: 4,
  within_burst_gap_s: 20,
};

export interface ListedTask {
  readonly submit_s: number;
  readonly work_s: number;
  /** Jobs it is split into wherever it runs in parallel (else each queue splits by its job size). */
  readonly jobs?: number;
}

/**
 * Tornado-like DAG jobs (paper 003 §4), generated: an initial task, a parent set of `parallel`
 * tasks, a final task (workload/src/tornado.ts has the models and our parameters).
 */
export interface TornadoSource extends SourceCommon {
  readonly kind: 'tornado';
  readonly tornado: TornadoSpec;
}

export type VariationModel = 'high' | 'medium' | 'low';

export interface TornadoSpec {
  readonly jobs: number;
  /** Tasks in the parent set (the paper: 2, 5, 10 or 20). */
  readonly parallel: number;
  /** How much the parallel tasks' lengths vary (the paper's High-, Medium- and LowVariation). */
  readonly variation: VariationModel;
  /** Median length of a job's parallel tasks, seconds on the 1000-MIPS reference. */
  readonly median_s: number;
  /** Mean jobs per batch (geometric), mean hours between batches, and the share of batches by day. */
  readonly batch_size: number;
  readonly batch_gap_h: number;
  readonly day_share: number;
}

export const TORNADO_DEFAULTS: Omit<TornadoSpec, 'jobs' | 'parallel' | 'variation'> = {
  median_s: 1800,
  batch_size: 5,
  batch_gap_h: 1,
  day_share: 0.8,
};

/** A WfCommons WfFormat instance (1.5 or 1.6) replayed `instances` times, `interarrival_s` apart (paper 003 with real workflows). */
export interface WfFormatSource extends SourceCommon {
  readonly kind: 'wfformat';
  /** The instance's JSON file, found the way traces are. */
  readonly wfformat: string;
  readonly instances: number;
  readonly interarrival_s: number;
  /** `fixed`: the instances come exactly interarrival_s apart; `poisson`: exponential gaps of that mean, drawn from the seed. */
  readonly arrivals: 'fixed' | 'poisson';
}

export type WorkloadSource = SwfSource | SyntheticSource | BlastSource | TasksSource | TornadoSource | WfFormatSource;

/** The kinds of source, as the schemes name what they take. */
export type WorkloadKind = WorkloadSource['kind'];

/**
 * Lublin & Feitelson, "The workload on parallel supercomputers: modeling the characteristics of
 * rigid jobs", JPDC 63(11), 2003. Defaults are the published values; `batch` and `interactive`
 * job classes each have their own parameters, and the class of each job is the one whose next
 * arrival comes first.
 */
export interface LublinParams {
  readonly model: 'lublin99';
  readonly jobs: number;
  /** log2 of the largest job; defaults to log2 of the origin site's CPUs. */
  readonly uhi?: number;
  /** Multiplies every inter-arrival time: 0.5 doubles the offered load. */
  readonly arrival_scale: number;
  /** Requested time = run time × this factor (>= 1). */
  readonly estimate_factor: number;
  /** Hour of the day the trace starts at. */
  readonly start_hour: number;
  /** Which job classes arrive: both (the model), or only batch or only interactive jobs. */
  readonly classes: 'both' | 'batch' | 'interactive';
  readonly batch: LublinClassParams;
  readonly interactive: LublinClassParams;
}

export interface LublinClassParams {
  readonly serial_prob: number;
  readonly pow2_prob: number;
  readonly ulow: number;
  readonly umed: number;
  readonly uprob: number;
  readonly a1: number;
  readonly b1: number;
  readonly a2: number;
  readonly b2: number;
  readonly pa: number;
  readonly pb: number;
  readonly aarr: number;
  readonly barr: number;
  readonly anum: number;
  readonly bnum: number;
  readonly arar: number;
}

/** Published parameters of the model (batch and interactive classes). */
export const LUBLIN_DEFAULTS: { readonly batch: LublinClassParams; readonly interactive: LublinClassParams } = {
  batch: {
    serial_prob: 0.2927,
    pow2_prob: 0.6686,
    ulow: 1.2,
    umed: 5,
    uprob: 0.875,
    a1: 6.57,
    b1: 0.823,
    a2: 639.1,
    b2: 0.0156,
    pa: -0.003,
    pb: 0.6986,
    aarr: 6.0415,
    barr: 0.8531,
    anum: 6.1271,
    bnum: 5.274,
    arar: 1.0519,
  },
  interactive: {
    serial_prob: 0.1541,
    pow2_prob: 0.625,
    ulow: 1,
    umed: 3,
    uprob: 0.705,
    a1: 3.8351,
    b1: 0.6605,
    a2: 7.073,
    b2: 0.6856,
    pa: -0.0118,
    pb: 0.9156,
    aarr: 6.551,
    barr: 0.6621,
    anum: 8.9186,
    bnum: 3.668,
    arar: 0.9797,
  },
};
