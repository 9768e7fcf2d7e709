import type { ExperimentSpec, Job } from '@gridemu/model';
import { DriverActor } from '@gridemu/actors';
import { DRIVER } from '@gridemu/protocol';
import type { GridActor as GridPlacement, GridPlan } from '../scheme-module.js';
import { GridActor } from './grid-actor.js';
import { hierarchyMeta, type HierarchyMeta, type QueueSpec } from './meta.js';
import { FCFS_QUEUE, GRID_TOPIC, QUEUE_TOPIC, gridAddress, queueAddress } from './names.js';
import { QueueActor, type Lane, type QueueConfig } from './queue-actor.js';
import { phi, type QueueLimits } from './queue-limits.js';

/**
 * Paper 000's deployment (§5, Figure 3): every site is a grid; every queue is its own location
 * (live: a `hierarchy` process each) connected to its grids. The flat schemes connect every queue
 * to every grid, as one big pool; the FCFS schemes have one queue, which over the hierarchy places
 * each task at the level its estimated complexity belongs to (Table 1's four columns).
 */
export function planHierarchy(spec: ExperimentSpec, jobs: readonly Job[]): GridPlan {
  const meta = hierarchyMeta(spec);
  const flat = meta.scheme.endsWith('-flat');
  const all = spec.sites.map((s) => s.id);
  const maxLevel = Math.max(...meta.queues.map((q) => q.level));
  const lanes = new Map(meta.queues.map((q) => [q.id, laneOf(meta, q, flat ? all : q.grids)]));
  const levels = Array.from({ length: maxLevel }, (_, i) => {
    const q = firstAt(meta, i + 1);
    const lane = lanes.get(q.id)!;
    return { level: i + 1, N: lane.N, P: lane.P, C_e: lane.C_e };
  });
  const actors: GridPlacement[] = [];
  for (const s of spec.sites) {
    const g = meta.grids[s.id]!;
    actors.push({
      address: gridAddress(s.id),
      location: s.id,
      actor: new GridActor(
        s.id,
        { cpus: s.cpus, ...g, beta: meta.beta, preempt: true },
        meta.enforce_period_s,
        spec.seed,
      ),
    });
  }
  const services: Record<string, string> = {};
  const common = {
    estimator: meta.estimator,
    load_sharing: meta.load_sharing,
    enforce_period_s: meta.enforce_period_s,
    dagman_s: meta.dagman_s,
    beta: meta.beta,
    seed: spec.seed,
    levels,
  };
  let entry: string;
  if (meta.scheme.startsWith('fcfs')) {
    const top = firstAt(meta, 1);
    const fcfsLanes = flat
      ? [laneOf(meta, firstAt(meta, maxLevel), all)]
      : levels.map((l) => lanes.get(firstAt(meta, l.level).id)!);
    const config: QueueConfig = {
      ...common,
      id: FCFS_QUEUE,
      level: 1,
      mode: 'fcfs',
      limits: limitsOf(meta, top, lanes.get(top.id)!, false),
      lanes: fcfsLanes,
      peers: [],
    };
    actors.push({
      address: queueAddress(FCFS_QUEUE),
      location: FCFS_QUEUE,
      topics: [GRID_TOPIC],
      actor: new QueueActor(config),
    });
    services[FCFS_QUEUE] = 'hierarchy';
    entry = FCFS_QUEUE;
  } else {
    for (const q of meta.queues) {
      const lane = lanes.get(q.id)!;
      const next = meta.queues.find((x) => x.level === q.level + 1);
      const config: QueueConfig = {
        ...common,
        id: q.id,
        level: q.level,
        mode: 'mq',
        limits: limitsOf(meta, q, lane, q.level === maxLevel),
        lanes: [lane],
        ...(next ? { next: next.id } : {}),
        peers: q.share_with,
      };
      actors.push({
        address: queueAddress(q.id),
        location: q.id,
        topics: [GRID_TOPIC, QUEUE_TOPIC],
        actor: new QueueActor(config),
      });
      services[q.id] = 'hierarchy';
    }
    entry = meta.queues.find((q) => q.level === 1 && q.entry)!.id;
  }
  const driver = new DriverActor(jobs, () => queueAddress(entry));
  return {
    actors: [{ address: DRIVER, location: undefined, actor: driver }, ...actors],
    driver,
    execSites: spec.sites,
    services,
  };
}

function firstAt(meta: HierarchyMeta, level: number): QueueSpec {
  return meta.queues.find((q) => q.level === level && q.entry) ?? meta.queues.find((q) => q.level === level)!;
}

/**
 * A queue's grids as one lane: N adds up over them, up to what one submission machine runs at once
 * (`submit_limit`, §5), and P is their N-weighted mean.
 */
function laneOf(meta: HierarchyMeta, q: QueueSpec, gridIds: readonly string[]): Lane {
  const grids = gridIds.map((id) => ({ id, N: meta.grids[id]!.N }));
  const N = Math.min(
    meta.submit_limit ?? Infinity,
    grids.reduce((a, g) => a + g.N, 0),
  );
  const P = grids.reduce((a, g) => a + g.N * meta.grids[g.id]!.P, 0) / grids.reduce((a, g) => a + g.N, 0);
  return {
    grids,
    N,
    P,
    job_s: q.job_s,
    parallel: q.parallel,
    priority: q.priority,
    level: q.level,
    flock: q.flock,
    C_e: phi(q.T_e, { N, P, beta: meta.beta }),
  };
}

function limitsOf(meta: HierarchyMeta, q: QueueSpec, lane: Lane, last: boolean): QueueLimits {
  return {
    T_q: q.T_q,
    T_e: q.T_e,
    N: lane.N,
    P: lane.P,
    beta: meta.beta,
    alpha: meta.alpha,
    policies: q.policies,
    last,
  };
}
