import type { DriverActor } from '@gridemu/actors';
import type {
  ExperimentSpec,
  FieldReader,
  Job,
  LocalSpec,
  MetaContext,
  MetaSpec,
  SourceKindReader,
  WorkloadKind,
} from '@gridemu/model';
import type { JobRecord, ProtocolTraceRow, SiteCapacity } from '@gridemu/metrics';
import type { JobFieldRules, Message, MessageShapes } from '@gridemu/protocol';
import type { SourceLoader } from '@gridemu/workload';
import type { ActorPlacement } from '@gridemu/runtime';
import type { FuzzSpecs } from './fuzz-draw.js';

/** One actor and where it lives; a runtime (simulated or live) spawns these. */
export type GridActor = ActorPlacement<Message>;

/** What a scheme's plan puts where. */
export interface GridPlan {
  readonly actors: readonly GridActor[];
  /** The actor that submits the workload and records every job's outcome. */
  readonly driver: DriverActor;
  /** The sites that execute jobs, for utilization. */
  readonly execSites: readonly SiteCapacity[];
  /**
   * The process kind hosting each location that is not a grid site (`central`: the central
   * service); every site's location is hosted by a `site` process. Live runs start one process
   * per location (services/<kind>).
   */
  readonly services: Readonly<Record<string, string>>;
  /** Releases what the plan's actors hold outside the runtime (an external policy's process), once the run is over. */
  readonly close?: () => void;
}

/** A figure of the scheme's own that `compare` and `sweep` know: a path in summary.json and a flat column name. */
export interface SchemeMetric {
  readonly path: string;
  readonly column: string;
  /** Compared by `gridemu compare` by default. */
  readonly compared?: boolean;
}

/**
 * A family of schemes: everything a scheme is lives in its module, found through the registry
 * (registry.ts). Adding a family adds a folder and a line there (docs/architecture.md).
 */
export interface SchemeModule {
  /** The family, e.g. `paper-001`. */
  readonly family: string;
  /** The `meta.scheme` names it answers to. */
  readonly schemes: readonly string[];
  /** Locations of its own processes (`central`), which no site may be named. */
  readonly locations?: readonly string[];
  /**
   * Reads, defaults and validates `meta:` for one of its schemes; an unknown field (one of another
   * module's) is an issue naming it. May require a local policy (k-dual needs dual-queue EASY).
   * `processes`: the scheme's processes beside the sites under this meta (paper 000's queues, a
   * central metascheduler), the ones `faults.crash` may name.
   */
  readMeta(
    scheme: string,
    raw: Readonly<Record<string, unknown>>,
    r: FieldReader,
    context: MetaContext,
  ): { meta: MetaSpec; local: LocalSpec; processes: readonly string[] };
  /** The actors the scheme needs for this grid and workload, and where each lives. */
  plan(spec: ExperimentSpec, jobs: readonly Job[]): GridPlan;
  /**
   * Its schemes whose actors survive an experiment's `faults:`: crashed processes that
   * come back, partitions, lost messages. Fuzzing with faults covers these.
   */
  readonly faultTolerant?: readonly string[];
  /** Its small random experiments, which `gridemu fuzz` draws among every family's. */
  readonly fuzz?: FuzzSpecs;
  /**
   * The kinds of workload source its schemes take; by default the trace files, the models and every
   * family's kinds of source whose jobs are independent (WorkloadSourceKind.independentJobs).
   */
  readonly sourceKinds?: readonly WorkloadKind[];
  /** Kinds of workload source it defines: their options in the experiment file, and their jobs. */
  readonly sources?: readonly WorkloadSourceKind[];
  /** Messages its actors add to the core catalogue, with their shapes (the bus validates them). */
  readonly messages?: MessageShapes;
  /** Fields its jobs carry beside the core's (a DAG task's parents), with their rules (the bus validates them). */
  readonly jobFields?: JobFieldRules;
  /**
   * Its message types that must not be lost, beside the core's (CORE_DURABLE_MESSAGES): faults never
   * drop them, and a live run resends them until acknowledged.
   */
  readonly durableMessages?: readonly string[];
  /**
   * Its topics whose newest message makes older ones from the same sender moot (a site's load). A
   * live run may thin them in wall time; see reportPeriods.
   */
  readonly latestValueTopics?: readonly string[];
  /** Its part of summary.json, from the counters its actors bumped and the jobs' records. */
  summary?(
    counters: Readonly<Record<string, number>>,
    spec: ExperimentSpec,
    records: readonly JobRecord[],
  ): Record<string, unknown>;
  /**
   * The processor-seconds each executing site was busy, from its actors' counters, where its jobs'
   * processors × run time do not say it (paper 003's tasks share a CR and hold no processors of
   * their own; paper 000's tasks run as many grid jobs): summary.json's utilization is then these
   * over CPUs × makespan. Absent: the jobs' processors × run time.
   */
  busyProcessor_s?(counters: Readonly<Record<string, number>>, spec: ExperimentSpec): Readonly<Record<string, number>>;
  /**
   * Why its schemes start a live run cold, without the warm-up's throwaway run of the grid (the
   * external policy: the warm-up would start the user's programs and ask them about jobs that are
   * not the run's); undefined: they warm up.
   */
  readonly noWarmUp?: string;
  /**
   * The longest, in wall seconds, one of its live processes may send nothing, heartbeats included,
   * and still be well (the external scheme: a site's process waits for its policy's answer that
   * long before it stops the run itself, naming the policy). The driver's allowance for a silent
   * process is at least this and a margin, so that the scheme's own error comes first; undefined:
   * its processes are never blocked so.
   */
  longestSilence_s?(spec: ExperimentSpec): number;
  /**
   * The mean length, in emulated seconds, of its own outages that hold jobs back however the grid
   * is (paper 000's pool outages, paper 002's misbehaving managers): the simulator allows a quiet
   * without any job's outcome of many of them before it calls a run stuck (stalled-run.ts);
   * undefined: none.
   */
  meanOutage_s?(spec: ExperimentSpec): number | undefined;
  /** Its figures that `compare` and `sweep` know. */
  readonly metrics?: readonly SchemeMetric[];
  /**
   * The emulated durations its schedule depends on (timeouts, periods), by name, in seconds: the
   * fidelity guard of `gridemu run` warns when a hop or a timer's lag is a large share of one.
   */
  timescales?(spec: ExperimentSpec): Record<string, number>;
  /**
   * The periods of its reports on a latest-value topic (latestValueTopics), by name, in emulated
   * seconds: the fidelity guard warns when the bus's bound on them (live.report_interval_ms) thins one.
   */
  reportPeriods?(spec: ExperimentSpec): Record<string, number>;
  /**
   * Two runs' protocol traces (`protocol_trace: true`) side by side in the terms of its own
   * protocol, for `gridemu compare` (where a live run and its replay part ways).
   */
  compareTraces?(a: readonly ProtocolTraceRow[], b: readonly ProtocolTraceRow[]): TraceComparison;
}

/** What `gridemu compare` prints of two protocol traces: a table, the jobs furthest apart, and what --json gives. */
export interface TraceComparison {
  /** The first line above the table. */
  readonly heading: string;
  readonly rows: readonly { readonly label: string; readonly a: number | undefined; readonly b: number | undefined }[];
  /** The jobs whose figure differs most between the runs, with a line saying what the figure is. */
  readonly furthest?: {
    readonly heading: string;
    readonly jobs: readonly { readonly job: string; readonly a: number; readonly b: number }[];
  };
  readonly json: Readonly<Record<string, unknown>>;
}

/** The `meta:` fields named by their dotted paths that the spec's scheme has, as timescales. */
export function metaTimescales(spec: ExperimentSpec, paths: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const path of paths) {
    let v: unknown = spec.meta;
    for (const part of path.split('.'))
      v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[part] : undefined;
    if (typeof v === 'number' && v > 0 && Number.isFinite(v)) out[`meta.${path}`] = v;
  }
  return out;
}

/** A kind of workload source a family defines: how the experiment file's reader reads it, and how its jobs are made. */
export interface WorkloadSourceKind extends SourceKindReader, SourceLoader {
  /** Its jobs are independent jobs (not tasks of a DAG), so every family that takes plain jobs takes it. */
  readonly independentJobs: boolean;
}

/** The sources gridemu reads itself, which every family that takes plain jobs takes. */
export const CORE_SOURCE_KINDS: readonly WorkloadKind[] = ['swf', 'synthetic'];
