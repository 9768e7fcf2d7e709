// Slow tests (npm run test:slow): each family's processes crashed live and the run replayed.
// Paper 001's crash runs stay in test/run-live.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crashedAndReplayed, LIVE_DAG } from '../test/live-checks.js';
import { REPO } from '../test/live-helpers.js';

describe('gridemu run: paper 000 under crashes', () => {
  it('two grids and two queues killed and restarted replay their journals; every task ends once, and the replay crashes them too', async () => {
    const lines = [
      'name: live-hierarchy-crash',
      'seed: 5',
      'sites: [{ id: server, cpus: 2 }, { id: small, cpus: 20 }, { id: big, cpus: 100 }]',
      'workload:',
      // 30 tasks from 0 to about 11,300 s; the last ends near 11,800 s.
      '  - { name: tasks, site: server, tasks: { stream: { tasks: 30, short_max_s: 180, medium_max_s: 20000, tail_max_s: 100000, burst_gap_s: 600 } } }',
      'meta:',
      '  scheme: mq-hierarchy',
      '  grids:',
      '    server: { N: 2, P: 1.2, overhead_s: 0, evictions_per_hour: 0 }',
      '    small: { N: 10, P: 1.1, overhead_s: 20, evictions_per_hour: 0.5 }',
      '    big: { N: 50, P: 1, overhead_s: 60, evictions_per_hour: 0.3 }',
      '  queues:',
      '    - { id: Q1, level: 1, grids: [server], T_q_min: 6, T_e_min: 3, parallel: false }',
      '    - { id: Q2, level: 2, grids: [small], T_q_min: 60, T_e_min: 30, job_min: 5, share_with: [Q3] }',
      '    - { id: Q3, level: 2, grids: [big], T_q_min: 60, T_e_min: 30, job_min: 5, entry: false, priority: 1 }',
      '    - { id: Q4, level: 3, grids: [big], T_q_min: 600, T_e_min: 600, job_min: 10, priority: 3 }',
      'network: { latency_ms: 1 }',
      'live: { speedup: 2000 }',
      'faults:',
      '  crash:',
      '    - { process: small, at_s: 5600, down_s: 300 }',
      '    - { process: Q4, at_s: 6000, down_s: 500 }',
      '    - { process: Q2, at_s: 7500, down_s: 300 }',
      '    - { process: big, at_s: 10500, down_s: 300 }',
      '  drop: 0.05',
    ];
    const { s, r } = await crashedAndReplayed(lines, ['small', 'Q4', 'Q2', 'big']);
    expect(s.jobs.completed).toBe(30);
    expect(r.jobs.completed).toBe(30);
  });
});

describe('gridemu run: GRUBER (paper 002) under crashes', () => {
  it('a site, a decision point and the submit hosts killed and restarted replay their journals; attempts lost in a crash are planned again; every job ends once', async () => {
    // examples/gruber-live.yaml (jobs from 0 s to about 66,000 s), with four crashes and some loss.
    // gridemu check counts one start per attempt in the sites' logs, a local job's lost run apart.
    const { s, r } = await crashedAndReplayed(
      [
        ...readFileSync(join(REPO, 'examples/gruber-live.yaml'), 'utf8').trimEnd().split('\n'),
        'faults:',
        '  crash:',
        '    - { process: s1, at_s: 800, down_s: 1000 }',
        '    - { process: gruber, at_s: 3000, down_s: 1500 }',
        '    - { process: submit, at_s: 6000, down_s: 1500 }',
        '    - { process: s3, at_s: 9000, down_s: 2000 }',
        '  drop: 0.05',
      ],
      ['s1', 'gruber', 'submit', 's3'],
    );
    expect(s.jobs.completed + s.jobs.rejected + s.jobs.failed).toBe(s.jobs.submitted);
    expect(r.jobs.submitted).toBe(s.jobs.submitted);
  });
});

describe('gridemu run: paper 003 under crashes', () => {
  it('two sites and the general services killed and restarted replay their journals; tasks on a crashed site go back to their checkpoints; every task ends once', async () => {
    // Tasks from 61,678 s to about 71,500 s.
    const lines = [
      ...LIVE_DAG,
      'faults:',
      '  crash:',
      '    - { process: s2, at_s: 63000, down_s: 1000 }',
      '    - { process: services, at_s: 65000, down_s: 1000 }',
      '    - { process: s1, at_s: 67000, down_s: 1000 }',
      '  drop: 0.05',
    ];
    const { s, r } = await crashedAndReplayed(lines, ['s2', 'services', 's1']);
    expect(s.jobs.completed + s.jobs.failed).toBe(12 * 7);
    expect(r.jobs.completed + r.jobs.failed).toBe(12 * 7);
  });
});

describe('gridemu run: paper 004 under crashes', () => {
  it('a resource and the scheduler killed and restarted replay their journals; every task runs once, and the replay crashes them too', async () => {
    const lines = [
      'name: live-router-crash',
      'seed: 3',
      'sites: [{ id: a, cpus: 1 }, { id: b, cpus: 1 }, { id: c, cpus: 1 }, { id: d, cpus: 1 }]',
      'workload: [{ site: a, synthetic: { jobs: 60, uhi: 1 } }]',
      // A round waits at most 600 emulated s (0.12 wall s) for a resource that is down.
      'meta: { scheme: mct, speeds: [1, 2, 4, 8], task_output_bytes: 100000, query_timeout_s: 600 }',
      'network: { latency_ms: 5 }',
      'live: { speedup: 5000 }',
      // The tasks arrive from 31 s to 25,747 s.
      'faults:',
      '  crash:',
      '    - { process: d, at_s: 6000, down_s: 3000 }',
      '    - { process: scheduler, at_s: 12000, down_s: 2000 }',
      '    - { process: c, at_s: 18000, down_s: 2000 }',
      '  drop: 0.05',
    ];
    const { s, r } = await crashedAndReplayed(lines, ['d', 'scheduler', 'c']);
    expect(s.jobs.completed).toBe(60);
    // Lost query answers only cost a round its timeout; no task is lost (sr.task is durable).
    expect(s.counters['messages.dropped']).toBeGreaterThan(0);
    expect(r.jobs.completed).toBe(60);
  });
});
