import {
  NON_NEGATIVE,
  POSITIVE,
  type ExperimentSpec,
  type FieldReader,
  type LocalSpec,
  type MetaContext,
  type MetaSpec,
  type NumberRule,
} from '@gridemu/model';
import { Rng } from '@gridemu/runtime';
import { DagGrid, PAPER_003_GRID, type DagGridParams } from './dag-grid.js';
import { DAG_SCHEMES, SERVICES_LOCATION } from './names.js';
import { DEFAULT_EXPONENT, PREDICTION_MODELS, type PredictionModel } from './progress-model.js';
import type { DagScheme } from './scheduler-actor.js';

export interface DagMeta extends MetaSpec {
  readonly scheme: DagScheme;
  /** How the tasks' reported progress predicts their length (§4, Figure 3); the paper studies `increasing`. */
  readonly model: PredictionModel;
  /**
   * The exponent a of the power models, P = x^a (`increasing`: below 1, `decreasing`: above 1);
   * unset, ours (0.5 and 2, Figure 3 read by eye). Not for `oscillating`.
   */
  readonly model_exponent?: number;
  /** MP (§4): a migration must shorten the task's predicted time by at least this fraction. */
  readonly min_improvement: number;
  /** How often dag-adaptive collects progress and reschedules (steps 1 and 2). */
  readonly round_period_s: number;
  /** How often each site's CRs report their tasks' progress to the IS. */
  readonly progress_period_s: number;
  /** The grid of §4: each site's CRs (its `cpus`) get MIPS drawn from `mips`. */
  readonly mips: readonly [number, number];
  readonly wan_latency_ms: readonly [number, number];
  readonly lan_latency_ms: number;
  readonly bandwidth_gbps: number;
  /** Inputs, outputs and checkpoints, MB each (§4: 1). */
  readonly file_mb: number;
  readonly checkpoint_delay_s: readonly [number, number];
  /** The observation window after the first arrival (§4: 24 h), for the useful work. */
  readonly horizon_s: number;
  /**
   * How much a DAG job may grow beyond its length (§4: "the limit for the increase in job execution
   * time is initialized to 200% of the initially estimated job length": so 1, a job may take twice it).
   */
  readonly growth_limit: number;
  /**
   * The length the limit applies to. `estimate` (the paper's): the job's length as the scheduler
   * estimates it at submission, the longest chain of its tasks' rough estimates on the reference
   * CR with their inputs' staging (estimated-length.ts); a job still running at submission +
   * (1 + growth_limit) × that fails there, its tasks stopped, and its work is not useful.
   * `true_length`: the longest chain of its true lengths, judged after the run, nothing stopped
   * (this project's earlier reading, kept to compare).
   */
  readonly limit_basis: LimitBasis;
}

export const LIMIT_BASES = ['estimate', 'true_length'] as const;
export type LimitBasis = (typeof LIMIT_BASES)[number];

const OPTIONS = [
  'scheme',
  'model',
  'model_exponent',
  'min_improvement',
  'round_period_s',
  'progress_period_s',
  'mips',
  'wan_latency_ms',
  'lan_latency_ms',
  'bandwidth_gbps',
  'file_mb',
  'checkpoint_delay_s',
  'horizon_s',
  'growth_limit',
  'limit_basis',
];

export function readDagMeta(
  scheme: string,
  raw: Readonly<Record<string, unknown>>,
  r: FieldReader,
  context: MetaContext,
): { meta: DagMeta; local: LocalSpec; processes: readonly string[] } {
  r.onlyKeys(raw, 'meta', OPTIONS);
  const g = PAPER_003_GRID;
  const meta: DagMeta = {
    scheme: scheme as DagScheme,
    model: r.oneOf(raw['model'], 'meta.model', PREDICTION_MODELS, 'increasing'),
    min_improvement: r.number(raw['min_improvement'], 'meta.min_improvement', { min: 0, max: 0.99 }, 0),
    round_period_s: r.number(raw['round_period_s'], 'meta.round_period_s', POSITIVE, 60),
    progress_period_s: r.number(raw['progress_period_s'], 'meta.progress_period_s', POSITIVE, 30),
    mips: range(r, raw['mips'], 'meta.mips', g.mips, POSITIVE),
    wan_latency_ms: range(r, raw['wan_latency_ms'], 'meta.wan_latency_ms', g.wan_latency_ms, NON_NEGATIVE),
    lan_latency_ms: r.number(raw['lan_latency_ms'], 'meta.lan_latency_ms', NON_NEGATIVE, g.lan_latency_ms),
    bandwidth_gbps: r.number(raw['bandwidth_gbps'], 'meta.bandwidth_gbps', POSITIVE, g.bandwidth_bps / 1e9),
    file_mb: r.number(raw['file_mb'], 'meta.file_mb', NON_NEGATIVE, g.file_bytes / 1e6),
    checkpoint_delay_s: range(
      r,
      raw['checkpoint_delay_s'],
      'meta.checkpoint_delay_s',
      g.checkpoint_delay_s,
      NON_NEGATIVE,
    ),
    horizon_s: r.number(raw['horizon_s'], 'meta.horizon_s', POSITIVE, 86_400),
    growth_limit: r.number(raw['growth_limit'], 'meta.growth_limit', NON_NEGATIVE, 1),
    limit_basis: r.oneOf(raw['limit_basis'], 'meta.limit_basis', LIMIT_BASES, 'estimate'),
  };
  const exponent = modelExponent(r, raw['model_exponent'], meta.model);
  if (scheme === 'dag-static' && (raw['min_improvement'] !== undefined || raw['round_period_s'] !== undefined)) {
    r.fail(
      raw['min_improvement'] !== undefined ? 'meta.min_improvement' : 'meta.round_period_s',
      'applies only to dag-adaptive (dag-static never reschedules)',
    );
  }
  return {
    meta: exponent === undefined ? meta : { ...meta, model_exponent: exponent },
    local: context.local,
    processes: [SERVICES_LOCATION],
  };
}

/** meta.model_exponent: a power model's a, on the side of 1 that keeps the model's direction. */
function modelExponent(r: FieldReader, raw: unknown, model: PredictionModel): number | undefined {
  if (raw === undefined) return undefined;
  const path = 'meta.model_exponent';
  if (model === 'oscillating') {
    r.fail(path, "applies only to the power models, 'increasing' and 'decreasing'");
    return undefined;
  }
  const a = r.number(raw, path, POSITIVE, DEFAULT_EXPONENT[model]);
  if (model === 'increasing' && !(a < 1)) r.fail(path, "must be below 1 for 'increasing' (P = x^a rises early)");
  if (model === 'decreasing' && !(a > 1)) r.fail(path, "must be above 1 for 'decreasing' (P = x^a rises late)");
  return a;
}

function range(
  r: FieldReader,
  raw: unknown,
  path: string,
  fallback: readonly [number, number],
  rule: NumberRule,
): readonly [number, number] {
  if (raw === undefined) return fallback;
  const list = r.array(raw, path) ?? [];
  if (list.length !== 2) {
    r.fail(path, 'must be [lowest, highest]');
    return fallback;
  }
  const lo = r.number(list[0], `${path}[0]`, rule, fallback[0]);
  const hi = r.number(list[1], `${path}[1]`, rule, fallback[1]);
  if (hi < lo) r.fail(path, 'highest must be at least lowest');
  return [lo, hi];
}

export function dagMeta(spec: ExperimentSpec): DagMeta {
  if (!(DAG_SCHEMES as readonly string[]).includes(spec.meta.scheme))
    throw new Error(`assertion: scheme ${spec.meta.scheme} is not paper 003's`);
  return spec.meta as DagMeta;
}

/** The grid parameters the meta gives (sites and their CR counts come from the spec's sites). */
export function gridParams(meta: DagMeta): DagGridParams {
  return {
    ...PAPER_003_GRID,
    mips: meta.mips,
    wan_latency_ms: meta.wan_latency_ms,
    lan_latency_ms: meta.lan_latency_ms,
    bandwidth_bps: meta.bandwidth_gbps * 1e9,
    file_bytes: meta.file_mb * 1e6,
    checkpoint_delay_s: meta.checkpoint_delay_s,
  };
}

/** The run's grid: its CRs' MIPS drawn from the seed, the same wherever it is built (the plan, the summary). */
export function dagGridOf(spec: ExperimentSpec): DagGrid {
  return new DagGrid(gridParams(dagMeta(spec)), new Rng(spec.seed, 'dag-grid'), spec.sites);
}
