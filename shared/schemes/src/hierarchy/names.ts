import type { Address } from '@gridemu/protocol';

/**
 * Paper 000's four scheme combinations (Table 1): FCFS or the multilevel feedback queues (MQ), over
 * one flat pool of every grid or over the grid execution hierarchy.
 */
export const HIERARCHY_SCHEMES = ['fcfs-flat', 'fcfs-hierarchy', 'mq-flat', 'mq-hierarchy'] as const;
export type HierarchyScheme = (typeof HIERARCHY_SCHEMES)[number];

/** The one queue the FCFS schemes have. */
export const FCFS_QUEUE = 'fcfs';

/** A queue's actor, at a location of its own (live: a `hierarchy` process per queue). */
export function queueAddress(queue: string): Address {
  return `${queue}/queue`;
}

/** A grid's pool of CPUs, at its site. */
export function gridAddress(site: string): Address {
  return `${site}/grid`;
}

/** The counter of the CPU-seconds a grid's jobs ran, evicted ones' too (the run's utilization). */
export function gridCpuCounter(site: string): string {
  return `hierarchy.grid.${site}.cpu_s`;
}

/** Grids publish their availability here; every queue samples it. */
export const GRID_TOPIC = 'hierarchy-grids';
/** Queues publish their workload and what their grids offer; queues of one level share load by it (§3.3). */
export const QUEUE_TOPIC = 'hierarchy-queues';
