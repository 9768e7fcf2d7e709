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
 * A kind of source a scheme family defines (a bag of BLAST tasks, divisible tasks, DAG jobs): the
 * family reads its options from the experiment file and turns them into jobs
 * (shared/schemes/src/<family>/, through the registry's workload sources).
 */
export interface FamilySource extends SourceCommon {
  /** The key that names it in the file (`blast`, `tornado`); never `swf` or `synthetic`. */
  readonly kind: string;
  /** Its options, as its family read them: under its kind's key (`blast: {...}`), and any of its own keys. */
  readonly [option: string]: unknown;
}

/** A source every family may take: a trace file or a workload model. */
export type CoreSource = SwfSource | SyntheticSource;

export type WorkloadSource = CoreSource | FamilySource;

/** The kinds of source, as the schemes name what they take. */
export type WorkloadKind = string;

/** The sources gridemu itself reads; every other kind is a family's. */
export function isCoreSource(source: WorkloadSource): source is CoreSource {
  return source.kind === 'swf' || source.kind === 'synthetic';
}

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
