import { describe, expect, it } from 'vitest';
import { jobsCsvText } from '@gridemu/metrics';
import { SpecError } from '@gridemu/model';
import { loadExperimentWorkload, parseExperiment, simulate } from '../src/index.js';
import { failedChecks, oneGridLines } from './helpers.js';

/** One grid `g` of one CPU (no overhead, no evictions) under one FCFS queue, two tasks, and `faults`. */
const ONE_GRID = oneGridLines();

async function runOneGrid(faults: string) {
  const file = '/tmp/hierarchy-faults.yaml';
  const { spec } = parseExperiment([...ONE_GRID, faults].join('\n'), file);
  const { jobs } = await loadExperimentWorkload(spec, { specFile: file });
  return simulate(spec, jobs);
}

describe('paper 000 under faults, simulated', () => {
  it("a grid's crash evicts its running job, which its queue submits again when the grid is back (hand-checked)", async () => {
    // Without faults t1 runs 0..1000 and t2 1000..1100. g dies at 500 and is back at 700: t1's job
    // ran 500 s and is evicted; its queue hears so at 700 and submits it again (FCFS: t1 first),
    // 700..1700; t2 then runs 1700..1800. A task's start stays its first job's.
    const r = await runOneGrid('faults: { crash: [{ process: g, at_s: 500, down_s: 200 }] }');
    const [t1, t2] = r.records;
    expect([t1!.start_s, t1!.finish_s, t2!.start_s, t2!.finish_s]).toEqual([0, 1700, 1700, 1800]);
    expect(r.counters['hierarchy.crash_evictions']).toBe(1);
    expect(r.counters['hierarchy.queue.fcfs.evicted_cpu_s']).toBe(500);
    expect(r.counters['jobs.lost_processor_s']).toBe(500);
    // The task was not lost, only one of its jobs: no task ran twice.
    expect([t1!.lostRuns, t2!.lostRuns]).toEqual([[], []]);
  });

  it("the queue's crash holds what its grid tells it until it is back: the task ends, and the next starts, then (hand-checked)", async () => {
    // fcfs is down 990..1190: t1's job ends on g at 1000, and the queue hears it at 1190. t1 is
    // done for its user then, and t2's job goes to g at 1190, 1190..1290.
    const r = await runOneGrid('faults: { crash: [{ process: fcfs, at_s: 990, down_s: 200 }] }');
    const [t1, t2] = r.records;
    expect([t1!.start_s, t1!.finish_s, t2!.start_s, t2!.finish_s]).toEqual([0, 1190, 1190, 1290]);
  });

  it("names the scheme's own processes when a crash names another: an MQ scheme's queues, FCFS's one queue", () => {
    const issues = (scheme: string, process: string) => {
      try {
        parseExperiment(
          [...ONE_GRID, `faults: { crash: [{ process: ${process}, at_s: 5, down_s: 5 }] }`]
            .join('\n')
            .replace('fcfs-flat', scheme),
          'x.yaml',
        );
        return '';
      } catch (err) {
        if (!(err instanceof SpecError)) throw err;
        return err.issues.map((i) => `${i.path}: ${i.message}`).join('\n');
      }
    };
    expect(issues('fcfs-flat', 'Q1')).toBe('faults.crash[0].process: no process "Q1" (one of: g, fcfs)');
    expect(issues('mq-flat', 'fcfs')).toBe('faults.crash[0].process: no process "fcfs" (one of: g, Q1)');
    expect(issues('mq-flat', 'Q1')).toBe('');
    expect(issues('fcfs-flat', 'scheduler')).toMatch(/no process "scheduler"/);
  });

  it('every scheme over crashes of grids and queues, a partition and loss: each task ends once, the same bytes per seed', async () => {
    for (const scheme of ['fcfs-flat', 'fcfs-hierarchy', 'mq-flat', 'mq-hierarchy']) {
      const queues = scheme.startsWith('fcfs') ? ['fcfs', 'fcfs'] : ['Q2', 'Q4'];
      const file = '/tmp/hierarchy-chaos.yaml';
      const { spec } = parseExperiment(
        [
          'name: hierarchy-chaos',
          'seed: 5',
          'sites: [{ id: server, cpus: 2 }, { id: small, cpus: 20 }, { id: big, cpus: 100 }]',
          'workload:',
          '  - { name: tasks, site: server, tasks: { stream: { tasks: 40, short_max_s: 180, medium_max_s: 100000, tail_max_s: 2000000, burst_gap_s: 600 } } }',
          'meta:',
          `  scheme: ${scheme}`,
          '  grids:',
          '    server: { N: 2, P: 1.2, overhead_s: 0, evictions_per_hour: 0 }',
          '    small: { N: 10, P: 1.1, overhead_s: 20, evictions_per_hour: 0.5 }',
          '    big: { N: 50, P: 1, overhead_s: 60, evictions_per_hour: 0.3 }',
          '  queues:',
          '    - { id: Q1, level: 1, grids: [server], T_q_min: 6, T_e_min: 3, parallel: false }',
          '    - { id: Q2, level: 2, grids: [small], T_q_min: 60, T_e_min: 30, job_min: 5, share_with: [Q3] }',
          '    - { id: Q3, level: 2, grids: [big], T_q_min: 60, T_e_min: 30, job_min: 5, entry: false, priority: 1 }',
          '    - { id: Q4, level: 3, grids: [big], T_q_min: 600, T_e_min: 600, job_min: 10, priority: 3 }',
          'network: { latency_ms: 20, jitter_ms: 5 }',
          'faults:',
          `  crash: [{ process: big, at_s: 2000, down_s: 1500 }, { process: ${queues[0]}, at_s: 2500, down_s: 900 }, { process: small, at_s: 4000, down_s: 600 }, { process: ${queues[1]}, at_s: 9000, down_s: 3000 }, { process: big, at_s: 20000, down_s: 800 }]`,
          '  partition: [{ sites: [small], from_s: 6000, to_s: 8000 }]',
          '  drop: 0.2',
        ].join('\n'),
        file,
      );
      const { jobs } = await loadExperimentWorkload(spec, { specFile: file });
      const first = simulate(spec, jobs);
      expect(jobsCsvText(simulate(spec, jobs).records), scheme).toBe(jobsCsvText(first.records));
      expect(failedChecks(spec, jobs.length, first.records), scheme).toEqual([]);
      expect(
        first.records.every((r) => r.finish_s !== undefined),
        scheme,
      ).toBe(true);
      const c = (k: string) => first.counters[k] ?? 0;
      expect(c('hierarchy.crash_evictions'), scheme).toBeGreaterThan(0);
      expect(c('messages.dropped'), scheme).toBeGreaterThan(0);
    }
  });
});
