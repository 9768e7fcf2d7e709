import { describe, expect, it } from 'vitest';
import type { Job } from '@gridemu/model';
import { jobsCsvText } from '@gridemu/metrics';
import { parseExperiment, simulate } from '../src/index.js';
import { failedChecks } from './helpers.js';

const task = (id: string, run_s: number, submit_s: number): Job => ({
  id,
  workload: 'w',
  origin: 'a',
  submit_s,
  run_s,
  estimate_s: run_s,
  procs: 1,
});

/** Paper 004's grid: one-CPU resources at speeds 1, 2, ..., a router, and `faults` as written. */
function specWith(scheme: string, resources: number, faults: string) {
  const ids = Array.from({ length: resources }, (_, i) => String.fromCharCode(97 + i));
  return parseExperiment(
    [
      'name: shadow-faults',
      'seed: 1',
      `sites: [${ids.map((id) => `{ id: ${id}, cpus: 1 }`).join(', ')}]`,
      'workload: [{ site: a, synthetic: { jobs: 1 } }]',
      `meta: { scheme: ${scheme}, speeds: [${ids.map((_, i) => i + 1).join(', ')}] }`,
      'faults:',
      faults,
    ].join('\n'),
    '/tmp/shadow-faults.yaml',
  ).spec;
}

/** Every task ran once to its end, none twice at once, no resource over its CPUs (gridemu check's verdicts). */
function expectEachOnce(spec: ReturnType<typeof specWith>, result: ReturnType<typeof simulate>, submitted: number) {
  expect(failedChecks(spec, submitted, result.records)).toEqual([]);
}

describe('paper 004 under faults, simulated', () => {
  it("a resource's crash loses its running task, which runs again first when it is back; its queue and a task sent meanwhile wait (hand-checked)", () => {
    // One resource, so every router sends it everything. t1 (100 s) runs from 0, t2 (10 s) queues
    // at 1. a dies at 50 and is back at 80: t1's run [0, 50) is lost and t1 runs again 80..180,
    // then t2 180..190; t3, routed at 60 while a was down, waits for it and runs after t2.
    const spec = specWith('shadow', 1, '  crash: [{ process: a, at_s: 50, down_s: 30 }]');
    const result = simulate(spec, [task('t1', 100, 0), task('t2', 10, 1), task('t3', 5, 60)]);
    const [t1, t2, t3] = result.records;
    expect([t1!.start_s, t1!.finish_s, t1!.lostRuns]).toEqual([80, 180, [{ site: 'a', start_s: 0, end_s: 50 }]]);
    expect([t2!.start_s, t2!.finish_s, t2!.lostRuns]).toEqual([180, 190, []]);
    expect([t3!.start_s, t3!.finish_s]).toEqual([190, 195]);
    expect(result.counters['jobs.lost_runs']).toBe(1);
    expect(result.counters['jobs.lost_processor_s']).toBe(50);
    expectEachOnce(spec, result, 3);
  });

  it("the router's crash holds a task's arrival until it is back; it then routes it (hand-checked)", () => {
    // Grid Shadow sends no query: t1, submitted at 10 while the router is down 5..25, is routed at
    // 25 and runs at once on its resource; t0, routed before the crash, is not touched.
    const spec = specWith('shadow', 1, '  crash: [{ process: scheduler, at_s: 5, down_s: 20 }]');
    const result = simulate(spec, [task('t0', 1, 0), task('t1', 10, 10)]);
    const [t0, t1] = result.records;
    expect([t0!.start_s, t0!.finish_s]).toEqual([0, 1]);
    expect([t1!.start_s, t1!.finish_s, t1!.lostRuns]).toEqual([25, 35, []]);
    expectEachOnce(spec, result, 2);
  });

  it('MCT: a query to a resource that is down is lost, and the round decides at its timeout with the answers it has (hand-checked)', () => {
    // b (speed 2) would win the round, but is down 5..1000: t1's round at 10 hears only a (its answer
    // is in within milliseconds), waits for b's until its timeout at 10 + 60 s (query_timeout_s), and
    // sends t1 to a.
    const spec = specWith('mct', 2, '  crash: [{ process: b, at_s: 5, down_s: 995 }]');
    const result = simulate(spec, [task('t1', 10, 10)]);
    const [t1] = result.records;
    expect(t1!.execSite).toBe('a');
    expect(t1!.start_s).toBeCloseTo(70, 9);
    expect(result.counters['routing.timeouts']).toBe(1);
    expect(result.counters['messages.lost_while_down']).toBe(1);
    expectEachOnce(spec, result, 1);
  });

  it('every router over crashes of resources and the router, a partition and loss: each task ends once, none lost, the same bytes per seed', () => {
    // 300 tasks 40 s apart, of 20 to 980 s at rate 1, on rates 1 + 2 x 2 + 4 + 8: a load of about 0.7.
    const jobs = Array.from({ length: 300 }, (_, i) => task(`w!${i}`, 20 + ((i * 311) % 961), 40 * i));
    const span = 40 * 300;
    for (const scheme of ['shadow', 'shadow-classes', 'mct', 'jsq']) {
      const spec = parseExperiment(
        [
          'name: shadow-chaos',
          'seed: 7',
          'sites: [{ id: a, cpus: 1 }, { id: b, cpus: 2 }, { id: c, cpus: 1 }, { id: d, cpus: 1 }]',
          'workload: [{ site: a, synthetic: { jobs: 1 } }]',
          `meta: { scheme: ${scheme}, speeds: [1, 2, 4, 8], query_timeout_s: 30, task_output_bytes: 200000${scheme === 'shadow-classes' ? ', class_lengths_s: [60, 600, 6000]' : ''} }`,
          'network: { latency_ms: 40, jitter_ms: 10 }',
          'faults:',
          `  crash: [{ process: d, at_s: ${span * 0.2}, down_s: ${span / 10} }, { process: scheduler, at_s: ${span * 0.4}, down_s: ${span / 20} }, { process: b, at_s: ${span * 0.6}, down_s: ${span / 10} }, { process: d, at_s: ${span * 0.7}, down_s: 100 }]`,
          `  partition: [{ sites: [c], from_s: ${span * 0.3}, to_s: ${span * 0.5} }]`,
          '  drop: 0.1',
        ].join('\n'),
        '/tmp/shadow-chaos.yaml',
      ).spec;
      const first = simulate(spec, jobs);
      expect(jobsCsvText(simulate(spec, jobs).records), scheme).toBe(jobsCsvText(first.records));
      expectEachOnce(spec, first, jobs.length);
      const c = (k: string) => first.counters[k] ?? 0;
      expect(c('jobs.lost_runs'), scheme).toBeGreaterThan(0);
      expect(c('messages.held_by_partition'), scheme).toBeGreaterThan(0);
      // Outputs are durable: 10% of them would be lost otherwise, and the run would not end.
      expect(c('routing.outputs'), scheme).toBe(jobs.length);
      if (scheme === 'mct' || scheme === 'jsq') {
        expect(c('messages.dropped'), scheme).toBeGreaterThan(0);
        expect(c('routing.timeouts'), scheme).toBeGreaterThan(0);
      }
    }
  });
});
