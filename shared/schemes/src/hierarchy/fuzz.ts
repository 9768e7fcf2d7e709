import { randomFaults, type FuzzSpecs } from '../fuzz-draw.js';
import { FCFS_QUEUE } from './names.js';

/** One of paper 000's four schemes over three grids and four queues, with evictions, often under faults (queues crashed too). */
export const HIERARCHY_FUZZ: FuzzSpecs = {
  weight: 1,
  spec: (draw) => {
    const { rng, pick } = draw;
    const scheme = pick(['fcfs-flat', 'fcfs-hierarchy', 'mq-flat', 'mq-hierarchy']);
    return [
      ...draw.head,
      'sites: [{ id: server, cpus: 2 }, { id: small, cpus: 20 }, { id: big, cpus: 100 }]',
      'workload:',
      `  - { name: tasks, site: server, tasks: { stream: { tasks: ${rng.int(10, 60)}, short_max_s: 180, medium_max_s: 100000, tail_max_s: 2000000, burst_gap_s: ${pick([300, 3600])} } } }`,
      'meta:',
      `  scheme: ${scheme}`,
      `  alpha: ${pick([0.05, 0.1, 0.3])}`,
      '  grids:',
      '    server: { N: 2, P: 1.2, overhead_s: 0, evictions_per_hour: 0 }',
      `    small: { N: 10, P: 1.1, overhead_s: ${pick([5, 20])}, evictions_per_hour: ${pick([0, 0.5])} }`,
      `    big: { N: 50, P: 1, overhead_s: ${pick([60, 180])}, evictions_per_hour: ${pick([0, 0.3, 2])} }`,
      '  queues:',
      '    - { id: Q1, level: 1, grids: [server], T_q_min: 6, T_e_min: 3, parallel: false }',
      `    - { id: Q2, level: 2, grids: [small], T_q_min: 60, T_e_min: 30, job_min: 5, share_with: [Q3] }`,
      '    - { id: Q3, level: 2, grids: [big], T_q_min: 60, T_e_min: 30, job_min: 5, entry: false, priority: 1 }',
      `    - { id: Q4, level: 3, grids: [big], T_q_min: 600, T_e_min: 600, job_min: 10, priority: 3, policies: { task-potential-overdue: ${pick([true, false])} } }`,
      `  load_sharing: { period_s: ${pick([10, 60])}, min_pending_jobs: ${pick([1, 5])} }`,
      draw.network,
      ...(rng.next() < 0.5
        ? randomFaults(
            draw,
            ['server', 'small', 'big'],
            scheme.startsWith('fcfs') ? [FCFS_QUEUE] : ['Q1', 'Q2', 'Q3', 'Q4'],
          )
        : []),
    ].join('\n');
  },
};
