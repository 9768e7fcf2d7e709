import type { ExperimentSpec } from '@gridemu/model';
import type { JobRecord } from './job-record.js';
import type { Provenance } from './provenance.js';
import { faultsSummary, injectsFaults, type FaultsSummary } from './faults-summary.js';
import { roundNumber } from './format.js';
import { summarize, type SiteCapacity, type Summary } from './summary.js';

export interface RunSummaryInput {
  readonly spec: ExperimentSpec;
  readonly mode: 'simulate' | 'run';
  readonly records: readonly JobRecord[];
  readonly execSites: readonly SiteCapacity[];
  /** Each site's busy processor-seconds, where the scheme counts them (shared/schemes' schemeSummaryInput). */
  readonly busyProcessor_s?: Readonly<Record<string, number>>;
  /** Messages sent, by type: all of them, and those that crossed a link between two sites. */
  readonly messages: {
    readonly all: Record<string, number>;
    readonly cross_site: Record<string, number>;
    readonly per_hour?: Record<string, number>;
  };
  readonly counters: Record<string, number>;
  /** Per-source reports from the workload loader (what was read, adjusted, skipped). */
  readonly workload: readonly object[];
  /** The SHA-256 of the jobs submitted (@gridemu/workload's jobsSha256). */
  readonly jobs_sha256: string;
  readonly wall_s: number;
  /** What made the run (runProvenance), kept out of the pure summary's reach. */
  readonly provenance?: Provenance;
  /** `gridemu run` only: timing, latency seen on the wire, the processes and their memory. */
  readonly live?: object;
  /** The scheme module's own part (paper 001: `claims`), from shared/schemes' schemeSummaryInput. */
  readonly scheme?: Record<string, unknown>;
}

/** summary.json. Keys besides these come from the scheme module (paper 001: `claims`). */
export type RunSummary = Summary & {
  readonly name: string;
  readonly mode: 'simulate' | 'run';
  readonly scheme: string;
  readonly local_policy: string;
  readonly seed: number;
  readonly messages: {
    readonly total: number;
    readonly per_job: number;
    readonly by_type: Record<string, number>;
    readonly per_job_by_type: Record<string, number>;
    readonly cross_site_by_type: Record<string, number>;
    /** Messages sent in each emulated hour that saw any, by the hour's number (time_s / 3600, rounded down). */
    readonly per_hour?: Record<string, number>;
  };
  readonly counters: Record<string, number>;
  readonly workload: readonly object[];
  /**
   * The SHA-256 of the jobs submitted, every field in submission order: equal in two runs that
   * submitted the same jobs. Absent from the summaries of gridemu before 2026-12-06.
   */
  readonly jobs_sha256?: string;
  readonly wall_time_s: number;
  readonly provenance?: Provenance;
  readonly live?: object;
  /** When the spec injects faults: what they were and what they cost. */
  readonly faults?: FaultsSummary;
  readonly spec: ExperimentSpec;
  readonly [schemeSection: string]: unknown;
};

/** summary.json: the metrics, what the run cost in messages, where its jobs came from, and its spec. */
export function buildRunSummary(input: RunSummaryInput): RunSummary {
  const metrics = summarize(input.records, input.execSites, input.busyProcessor_s);
  const total = Object.values(input.messages.all).reduce((a, b) => a + b, 0);
  const jobs = Math.max(1, input.records.length);
  const core = new Set([
    ...Object.keys(metrics),
    'name',
    'mode',
    'scheme',
    'local_policy',
    'seed',
    'messages',
    'counters',
    'workload',
    'jobs_sha256',
    'wall_time_s',
    'provenance',
    'live',
    'faults',
    'spec',
  ]);
  const clash = Object.keys(input.scheme ?? {}).find((k) => core.has(k));
  if (clash !== undefined)
    throw new Error(`assertion: the scheme's summary section "${clash}" would overwrite summary.json's own`);
  return {
    name: input.spec.name,
    mode: input.mode,
    scheme: input.spec.meta.scheme,
    local_policy: input.spec.local.policy,
    seed: input.spec.seed,
    ...metrics,
    messages: {
      total,
      per_job: input.records.length > 0 ? roundNumber(total / input.records.length) : 0,
      by_type: input.messages.all,
      per_job_by_type: Object.fromEntries(
        Object.entries(input.messages.all).map(([k, v]) => [k, roundNumber(v / jobs)]),
      ),
      cross_site_by_type: input.messages.cross_site,
      ...(input.messages.per_hour && Object.keys(input.messages.per_hour).length > 0
        ? { per_hour: input.messages.per_hour }
        : {}),
    },
    ...(input.scheme ?? {}),
    counters: input.counters,
    workload: input.workload,
    jobs_sha256: input.jobs_sha256,
    wall_time_s: roundNumber(input.wall_s, 3),
    ...(input.provenance ? { provenance: input.provenance } : {}),
    ...(input.live ? { live: input.live } : {}),
    ...(injectsFaults(input.spec)
      ? { faults: faultsSummary(input.spec, input.mode, input.counters, input.records) }
      : {}),
    spec: input.spec,
  };
}
