import { metaTimescales, type SchemeModule } from '../scheme-module.js';
import { HIERARCHY_DURABLE, HIERARCHY_MESSAGES } from './messages.js';
import { hierarchyMeta, readHierarchyMeta } from './meta.js';
import { FCFS_QUEUE, HIERARCHY_SCHEMES, gridCpuCounter } from './names.js';
import { planHierarchy } from './plan.js';
import { HIERARCHY_METRICS, hierarchySummary } from './summary.js';
import { HIERARCHY_FUZZ } from './fuzz.js';
import { DIVISIBLE_TASK_FIELDS, TASKS_SOURCE } from './task-source.js';

/** Paper 000 (Silberstein et al.: scheduling mixed workloads in multi-grids, the grid execution hierarchy). */
export const hierarchy: SchemeModule = {
  family: 'paper-000',
  fuzz: HIERARCHY_FUZZ,
  schemes: HIERARCHY_SCHEMES,
  // A queue's tasks and a grid's submitted jobs are durable state; a crashed grid's running jobs
  // are evicted (grid-actor.ts), which the queues already recover from.
  faultTolerant: HIERARCHY_SCHEMES,
  durableMessages: HIERARCHY_DURABLE,
  locations: [FCFS_QUEUE],
  readMeta: readHierarchyMeta,
  plan: planHierarchy,
  messages: HIERARCHY_MESSAGES,
  sources: [TASKS_SOURCE],
  jobFields: DIVISIBLE_TASK_FIELDS,
  summary: hierarchySummary,
  busyProcessor_s: (counters, spec) =>
    Object.fromEntries(spec.sites.map((s) => [s.id, counters[gridCpuCounter(s.id)] ?? 0])),
  metrics: HIERARCHY_METRICS,
  timescales: (spec) => metaTimescales(spec, ['load_sharing.period_s', 'enforce_period_s', 'estimator.tau_s']),
  // A pool in an outage starts nothing (grid-actor.ts).
  meanOutage_s: (spec) => Math.max(0, ...Object.values(hierarchyMeta(spec).grids).map((g) => g.outages?.mean_s ?? 0)),
};

export { hierarchyMeta, type HierarchyMeta, type QueueSpec, type GridSpec } from './meta.js';
export { queueAddress, gridAddress, FCFS_QUEUE } from './names.js';
export {
  phi,
  processNewTask,
  afterEstimation,
  enforceQueueLimits,
  MIGRATION_POLICIES,
  type QueueLimits,
  type MigrationPolicy,
} from './queue-limits.js';
export { DivisibleTask } from './divisible-task.js';
export { generateTaskStream, TASK_STREAM_DEFAULTS, type TaskStreamParams } from './task-stream.js';
export type { DivisibleTaskJob, TasksParams, TasksSource } from './task-source.js';
