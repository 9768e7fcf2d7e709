import {
  NON_NEGATIVE,
  POSITIVE,
  PROBABILITY,
  fieldPath as join,
  type ExperimentSpec,
  type FieldReader,
  type LocalSpec,
  type MetaContext,
  type MetaSpec,
} from '@gridemu/model';
import type { EstimatorParams } from './estimator.js';
import type { LoadSharingParams } from './load-sharing.js';
import { FCFS_QUEUE, HIERARCHY_SCHEMES, type HierarchyScheme } from './names.js';
import { MIGRATION_POLICIES, type MigrationPolicy } from './queue-limits.js';

/** A grid as a queue sees it (§2.1, Table 2, Table 3); its CPU count is its site's. */
export interface GridSpec {
  /** CPUs one queue (one submission machine) may hold there. */
  readonly N: number;
  /** Average performance of its CPUs, relative to the reference CPU task work is measured on. */
  readonly P: number;
  /** Mean seconds from submitting a job to its being matched (seconds on a dedicated pool, minutes on a big shared one). */
  readonly overhead_s: number;
  /** Evictions per CPU-hour of a running job (volatility). */
  readonly evictions_per_hour: number;
  /**
   * Condor's negotiation cycle (§5: the pools are Condor pools): jobs are matched only at its
   * ticks, after which `overhead_s` is the claim's start-up. 0: no cycles, every job matched after
   * its own `overhead_s`.
   */
  readonly cycle_s: number;
  /** Jobs one negotiation cycle matches, for every user together; unlimited when absent. */
  readonly matches_per_cycle?: number;
  /**
   * Other users' fair share (§1: large pools are "shared by hundreds or thousands of users"): the
   * chance a cycle serves only them, and their part of a cycle that reaches ours.
   */
  readonly others_share: number;
  /** Whole-pool outages that come and go: running jobs are evicted, nothing is matched until the end. */
  readonly outages?: { readonly mean_s: number; readonly mean_between_s: number };
}

export interface QueueSpec {
  readonly id: string;
  /** Level of the hierarchy, 1 at the top; a task migrates to the first queue of the next level. */
  readonly level: number;
  readonly grids: readonly string[];
  /** Waiting-time and execution-time limits, seconds (Table 2 gives minutes). */
  readonly T_q: number;
  readonly T_e: number;
  /** Split tasks into jobs of about this many seconds on the queue's grids (Table 3's job durations). */
  readonly job_s: number;
  /** false: run each task whole on one CPU (Q1 invokes tasks "directly without parallelization"). */
  readonly parallel: boolean;
  /** Whether new tasks enter here (Q3 takes tasks only from Q2). */
  readonly entry: boolean;
  /** Jobs of a lower number go first on a shared grid and may preempt others (§5: Q3 over Q4). */
  readonly priority: number;
  readonly policies: ReadonlySet<MigrationPolicy>;
  /** Queues of the same level it shares load with (§3.3). */
  readonly share_with: readonly string[];
  /**
   * Condor flocking (§5): a job goes to the first of `grids`, and on to the next when a
   * negotiation cycle there leaves it unmatched; false: each job to the grid with most room.
   */
  readonly flock: boolean;
}

export interface HierarchyMeta extends MetaSpec {
  readonly scheme: HierarchyScheme;
  /** β of Eq. 1: the application's share of CPU-bound operations. */
  readonly beta: number;
  /** α of Figure 1: the share of T_e complexity estimation may take. */
  readonly alpha: number;
  readonly estimator: EstimatorParams & { readonly stop_ratio: number };
  readonly grids: Readonly<Record<string, GridSpec>>;
  readonly queues: readonly QueueSpec[];
  readonly load_sharing: LoadSharingParams & { readonly period_s: number };
  /** How often a queue runs EnforceQueueLimits and grids report availability. */
  readonly enforce_period_s: number;
  /**
   * Seconds DAGMan takes to see that a parallel task's last job has ended (§6: "DAGman ... carries
   * its own 4 seconds"); a task run whole on one CPU (Q1) has no DAGMan. 0: none.
   */
  readonly dagman_s: number;
  /**
   * Jobs one submission machine runs at once, whatever its grids offer (§5: Madison's "limit of 500
   * jobs is due to the recommended value of the maximum number of running jobs concurrently handled
   * by a single submission machine"). Every queue is one submission machine, so under the flat
   * schemes the one queue's pool is held to it too. Unlimited when absent.
   */
  readonly submit_limit?: number;
}

const OPTIONS = [
  'scheme',
  'beta',
  'alpha',
  'estimator',
  'grids',
  'queues',
  'load_sharing',
  'enforce_period_s',
  'dagman_s',
  'submit_limit',
];
const QUEUE_KEYS = [
  'id',
  'level',
  'grids',
  'T_q_min',
  'T_e_min',
  'job_min',
  'parallel',
  'entry',
  'priority',
  'policies',
  'share_with',
  'flock',
];
const NAME = /^[A-Za-z0-9_-]+$/;

export function readHierarchyMeta(
  scheme: string,
  raw: Readonly<Record<string, unknown>>,
  r: FieldReader,
  context: MetaContext,
): { meta: HierarchyMeta; local: LocalSpec; processes: readonly string[] } {
  r.onlyKeys(raw, 'meta', OPTIONS);
  const grids = readGrids(r, raw['grids'], context);
  const queues = readQueues(r, raw['queues'], grids);
  context.workload.forEach((w, i) => {
    if (w.kind !== 'tasks')
      r.fail(
        join('workload', i),
        `paper 000's schemes run divisible tasks: give this source as tasks: (a stream or a list), not ${w.kind}`,
      );
  });
  for (const [i, q] of queues.entries())
    if (context.sites.some((s) => s.id === q.id))
      r.fail(join(join('meta.queues', i), 'id'), `"${q.id}" is a site: a queue is a location of its own`);
  const e = raw['estimator'] === undefined ? {} : (r.object(raw['estimator'], 'meta.estimator') ?? {});
  r.onlyKeys(e, 'meta.estimator', ['k_min', 'k_max', 'tau_s', 'stop_ratio']);
  const k_min = r.number(e['k_min'], 'meta.estimator.k_min', { min: 1 }, 1.5);
  const k_max = r.number(e['k_max'], 'meta.estimator.k_max', { min: 1 }, 4);
  if (k_max < k_min) r.fail('meta.estimator.k_max', `must be at least k_min (${k_min})`);
  const ls = raw['load_sharing'] === undefined ? {} : (r.object(raw['load_sharing'], 'meta.load_sharing') ?? {});
  r.onlyKeys(ls, 'meta.load_sharing', ['period_s', 'history_weight', 'min_pending_jobs', 'margin']);
  const meta: HierarchyMeta = {
    scheme: scheme as HierarchyScheme,
    beta: r.number(raw['beta'], 'meta.beta', { exclusiveMin: 0, max: 1 }, 1),
    alpha: r.number(raw['alpha'], 'meta.alpha', PROBABILITY, 0.1),
    estimator: {
      k_min,
      k_max,
      tau_s: r.number(e['tau_s'], 'meta.estimator.tau_s', POSITIVE, 5),
      stop_ratio: r.number(e['stop_ratio'], 'meta.estimator.stop_ratio', { min: 1 }, 1.1),
    },
    grids,
    queues,
    load_sharing: {
      period_s: r.number(ls['period_s'], 'meta.load_sharing.period_s', POSITIVE, 60),
      history_weight: r.number(ls['history_weight'], 'meta.load_sharing.history_weight', PROBABILITY, 0.7),
      min_pending_jobs: r.number(ls['min_pending_jobs'], 'meta.load_sharing.min_pending_jobs', NON_NEGATIVE, 10),
      margin: r.number(ls['margin'], 'meta.load_sharing.margin', PROBABILITY, 0.2),
    },
    enforce_period_s: r.number(raw['enforce_period_s'], 'meta.enforce_period_s', POSITIVE, 30),
    dagman_s: r.number(raw['dagman_s'], 'meta.dagman_s', NON_NEGATIVE, 0),
    ...(raw['submit_limit'] === undefined
      ? {}
      : { submit_limit: r.number(raw['submit_limit'], 'meta.submit_limit', { integer: true, min: 1 }) }),
  };
  // The FCFS schemes run one queue process of their own; the MQ schemes one per queue (plan.ts).
  const processes = meta.scheme.startsWith('fcfs') ? [FCFS_QUEUE] : queues.map((q) => q.id);
  return { meta, local: context.local, processes };
}

function readGrids(r: FieldReader, raw: unknown, context: MetaContext): Record<string, GridSpec> {
  const out: Record<string, GridSpec> = {};
  const o = r.object(raw, 'meta.grids') ?? {};
  const sites = new Map(context.sites.map((s) => [s.id, s]));
  for (const [id, v] of Object.entries(o)) {
    const p = join('meta.grids', id);
    const site = sites.get(id);
    if (!site) r.fail(p, `no site with id "${id}": a grid is a site (sites: ${[...sites.keys()].join(', ')})`);
    const g = r.object(v, p) ?? {};
    r.onlyKeys(g, p, [
      'N',
      'P',
      'overhead_s',
      'evictions_per_hour',
      'cycle_s',
      'matches_per_cycle',
      'others_share',
      'outages',
    ]);
    let outages: GridSpec['outages'];
    if (g['outages'] !== undefined) {
      const op = join(p, 'outages');
      const o = r.object(g['outages'], op) ?? {};
      r.onlyKeys(o, op, ['mean_s', 'mean_between_s']);
      outages = {
        mean_s: r.number(o['mean_s'], join(op, 'mean_s'), POSITIVE),
        mean_between_s: r.number(o['mean_between_s'], join(op, 'mean_between_s'), POSITIVE),
      };
    }
    const cycle_s = r.number(g['cycle_s'], join(p, 'cycle_s'), NON_NEGATIVE, 0);
    for (const k of ['matches_per_cycle', 'others_share'])
      if (g[k] !== undefined && cycle_s === 0) r.fail(join(p, k), 'needs cycle_s: it shapes each negotiation cycle');
    const N = r.number(g['N'], join(p, 'N'), { integer: true, min: 1 }, site?.cpus ?? 1);
    if (site && N > site.cpus) r.fail(join(p, 'N'), `is more than the grid's ${site.cpus} CPUs`);
    out[id] = {
      N,
      P: r.number(g['P'], join(p, 'P'), POSITIVE, site?.speed ?? 1),
      overhead_s: r.number(g['overhead_s'], join(p, 'overhead_s'), NON_NEGATIVE, 0),
      evictions_per_hour: r.number(g['evictions_per_hour'], join(p, 'evictions_per_hour'), NON_NEGATIVE, 0),
      cycle_s,
      ...(g['matches_per_cycle'] === undefined
        ? {}
        : {
            matches_per_cycle: r.number(g['matches_per_cycle'], join(p, 'matches_per_cycle'), {
              integer: true,
              min: 1,
            }),
          }),
      others_share: r.number(g['others_share'], join(p, 'others_share'), { min: 0, max: 0.99 }, 0),
      ...(outages ? { outages } : {}),
    };
  }
  for (const s of context.sites)
    if (!(s.id in out))
      r.fail(
        'meta.grids',
        `says nothing about site "${s.id}": every site is a grid with N, P, overhead_s and evictions_per_hour`,
      );
  return out;
}

function readQueues(r: FieldReader, raw: unknown, grids: Record<string, GridSpec>): QueueSpec[] {
  const list = r.array(raw, 'meta.queues') ?? [];
  const queues: QueueSpec[] = [];
  const ids = new Set<string>();
  for (const [i, item] of list.entries()) {
    const p = join('meta.queues', i);
    const q = r.object(item, p);
    if (!q) continue;
    r.onlyKeys(q, p, QUEUE_KEYS);
    const id = r.string(q['id'], join(p, 'id'));
    if (!NAME.test(id) || id === FCFS_QUEUE)
      r.fail(join(p, 'id'), `a queue id uses only letters, digits, "_" and "-", and is not "${FCFS_QUEUE}"`);
    if (ids.has(id)) r.fail(join(p, 'id'), `queue "${id}" is named twice`);
    ids.add(id);
    const gl = r.array(q['grids'], join(p, 'grids')) ?? [];
    const qGrids = gl.map((g, k) => {
      const name = r.string(g, join(join(p, 'grids'), k));
      if (!(name in grids)) r.fail(join(join(p, 'grids'), k), `no grid "${name}" in meta.grids`);
      return name;
    });
    if (qGrids.length === 0) r.fail(join(p, 'grids'), 'must name at least one grid');
    const T_q = r.number(q['T_q_min'], join(p, 'T_q_min'), POSITIVE) * 60;
    const T_e = r.number(q['T_e_min'], join(p, 'T_e_min'), POSITIVE) * 60;
    if (T_e > T_q) r.fail(join(p, 'T_e_min'), 'must be at most T_q_min (§3.2.1: T_e <= T_q)');
    const pol = q['policies'] === undefined ? {} : (r.object(q['policies'], join(p, 'policies')) ?? {});
    r.onlyKeys(pol, join(p, 'policies'), MIGRATION_POLICIES);
    const policies = new Set<MigrationPolicy>(
      MIGRATION_POLICIES.filter((m) => r.boolean(pol[m], join(join(p, 'policies'), m), true)),
    );
    const level = r.number(q['level'], join(p, 'level'), { integer: true, min: 1 });
    const share =
      q['share_with'] === undefined
        ? []
        : (r.array(q['share_with'], join(p, 'share_with')) ?? []).map((s, k) =>
            r.string(s, join(join(p, 'share_with'), k)),
          );
    queues.push({
      id,
      level,
      grids: qGrids,
      T_q,
      T_e,
      job_s: r.number(q['job_min'], join(p, 'job_min'), POSITIVE, 10) * 60,
      parallel: r.boolean(q['parallel'], join(p, 'parallel'), true),
      entry: r.boolean(q['entry'], join(p, 'entry'), true),
      priority: r.number(q['priority'], join(p, 'priority'), { integer: true, min: 0 }, level),
      policies,
      share_with: share,
      flock: r.boolean(q['flock'], join(p, 'flock'), false),
    });
  }
  if (queues.length === 0) r.fail('meta.queues', 'must list at least one queue');
  for (const [i, q] of queues.entries()) {
    for (const [k, other] of q.share_with.entries()) {
      const peer = queues.find((x) => x.id === other);
      if (!peer) r.fail(join(join(join('meta.queues', i), 'share_with'), k), `no queue "${other}"`);
      else if (peer.level !== q.level)
        r.fail(
          join(join(join('meta.queues', i), 'share_with'), k),
          `queue "${other}" is at level ${peer.level}, not ${q.level}: load is shared within a level (§3.3)`,
        );
    }
  }
  const levels = [...new Set(queues.map((q) => q.level))].sort((a, b) => a - b);
  levels.forEach((l, i) => {
    if (l !== i + 1) r.fail('meta.queues', `levels must run 1, 2, ... without a gap (found ${levels.join(', ')})`);
  });
  if (queues.length > 0 && !queues.some((q) => q.level === 1 && q.entry))
    r.fail('meta.queues', 'needs an entry queue at level 1');
  return queues;
}

export function hierarchyMeta(spec: ExperimentSpec): HierarchyMeta {
  if (!(HIERARCHY_SCHEMES as readonly string[]).includes(spec.meta.scheme))
    throw new Error(`assertion: scheme ${spec.meta.scheme} is not paper 000's`);
  return spec.meta as HierarchyMeta;
}
