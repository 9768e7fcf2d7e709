import { describe, expect, it } from 'vitest';
import { jobsCsvText } from '@gridemu/metrics';
import { loadExperimentWorkload, parseExperiment, simulate } from '../src/index.js';
import { asDagTask } from '../src/dag/index.js';
import { failedChecks } from './helpers.js';

async function run(lines: readonly string[]) {
  const file = '/tmp/dag-faults.yaml';
  const { spec } = parseExperiment(lines.join('\n'), file);
  const { jobs } = await loadExperimentWorkload(spec, { specFile: file });
  return { spec, jobs, result: simulate(spec, jobs) };
}

/** One site of one CR, one Tornado DAG of three tasks in a chain, the static scheduler. */
const CHAIN = [
  'name: dag-faults',
  'seed: 3',
  'sites: [{ id: s1, cpus: 1 }]',
  'workload: [{ name: tor, site: s1, tornado: { jobs: 1, parallel: 1, variation: low, median_s: 600 } }]',
  'meta: { scheme: dag-static, limit_basis: true_length, growth_limit: 100 }',
];

describe('paper 003 under faults, simulated', () => {
  it("a site's crash loses the work its CR did since the task's last checkpoint; the task runs again from there on the same CR when the site is back (hand-checked against the run without)", async () => {
    const calm = await run(CHAIN);
    expect(calm.result.records).toHaveLength(3);
    // The middle task: the chain's second.
    const middle = calm.result.records.find((r) => r.job.id.endsWith('/p0'))!;
    const { start_s, finish_s } = middle;
    const length = finish_s! - start_s!;
    expect(length).toBeGreaterThan(0);
    // s1 dies half-way through it and is back 100 s later. On its first run it has no checkpoint:
    // it runs again, whole, from the restart; its start stays its first one.
    const at = start_s! + length / 2;
    const crashed = await run([...CHAIN, `faults: { crash: [{ process: s1, at_s: ${at}, down_s: 100 }] }`]);
    const again = crashed.result.records.find((r) => r.job.id === middle.job.id)!;
    expect(again.start_s).toBe(start_s);
    expect(again.finish_s).toBeCloseTo(at + 100 + length, 6);
    expect(again.lostRuns).toEqual([]);
    expect(crashed.result.counters['dag.crash_restarts']).toBe(1);
    expect(crashed.result.counters['jobs.lost_processor_s']).toBeCloseTo(length / 2, 6);
    // The next task waits for it.
    const last = crashed.result.records.find((r) => asDagTask(r.job).parents.includes(middle.job.id))!;
    expect(last.start_s!).toBeGreaterThanOrEqual(again.finish_s!);
  });

  it('both schedulers over crashes of sites and the general services, a partition and loss: each task ends once, after its parents, the same bytes per seed', async () => {
    for (const scheme of ['dag-static', 'dag-adaptive']) {
      const base = [
        'name: dag-chaos',
        'seed: 2',
        'sites: [{ id: s1, cpus: 8 }, { id: s2, cpus: 8 }, { id: s3, cpus: 8 }]',
        'workload: [{ name: tor, site: s1, tornado: { jobs: 8, parallel: 4, variation: high, median_s: 600, batch_gap_h: 0.2 } }]',
        `meta: { scheme: ${scheme}, limit_basis: true_length, growth_limit: 100${scheme === 'dag-adaptive' ? ', round_period_s: 60, progress_period_s: 30' : ''} }`,
        'network: { latency_ms: 20, jitter_ms: 5 }',
      ];
      // Fault times count from the first submission (the workload's own clock).
      const t0 = Math.min(...(await run(base)).jobs.map((j) => j.submit_s));
      const lines = [
        ...base,
        'faults:',
        `  crash: [{ process: s2, at_s: ${t0 + 500}, down_s: 300 }, { process: services, at_s: ${t0 + 900}, down_s: 200 }, { process: s1, at_s: ${t0 + 1500}, down_s: 400 }, { process: s3, at_s: ${t0 + 2500}, down_s: 100 }, { process: s2, at_s: ${t0 + 3000}, down_s: 600 }]`,
        `  partition: [{ sites: [s3], from_s: ${t0 + 1000}, to_s: ${t0 + 2000} }]`,
        '  drop: 0.2',
      ];
      const { spec, jobs, result } = await run(lines);
      expect(jobsCsvText((await run(lines)).result.records), scheme).toBe(jobsCsvText(result.records));
      expect(failedChecks(spec, jobs.length, result.records), scheme).toEqual([]);
      const byId = new Map(result.records.map((r) => [r.job.id, r]));
      for (const r of result.records) {
        expect(r.finish_s, `${r.job.id} under ${scheme}`).toBeDefined();
        for (const p of asDagTask(r.job).parents) expect(r.start_s!).toBeGreaterThanOrEqual(byId.get(p)!.finish_s!);
      }
      const c = (k: string) => result.counters[k] ?? 0;
      expect(c('dag.crash_restarts'), scheme).toBeGreaterThan(0);
      expect(c('messages.held_by_partition'), scheme).toBeGreaterThan(0);
    }
  });
});
