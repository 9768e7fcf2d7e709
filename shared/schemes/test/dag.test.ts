import { describe, expect, it } from 'vitest';
import { SpecError } from '@gridemu/model';
import { loadWorkload } from '@gridemu/workload';
import { parseExperiment, simulate } from '../src/index.js';

/** Paper 003's set-up, scaled down: 4 sites of 8 CRs, 20 Tornado-like jobs of 5 parallel tasks. */
const text = (meta: string[], workload = '[{ name: tor, site: s1, tornado: { jobs: 20, parallel: 5, variation: high } }]') =>
  ['name: dag-test', 'seed: 2', 'sites: [{ id: s1, cpus: 8 }, { id: s2, cpus: 8 }, { id: s3, cpus: 8 }, { id: s4, cpus: 8 }]', `workload: ${workload}`, 'meta:', ...meta.map((m) => `  ${m}`)].join('\n');

async function run(meta: string[]) {
  const s = parseExperiment(text(meta), '/tmp/dag-test.yaml').spec;
  const w = await loadWorkload(s, { specFile: '/tmp/dag-test.yaml' });
  const r = simulate(s, w.jobs);
  return { w, r, dag: (r.counters['dag.migrations'] ?? 0) };
}

const issues = (t: string) => {
  try {
    parseExperiment(t, '/tmp/dag-test.yaml');
  } catch (err) {
    return (err as SpecError).issues.map((i) => `${i.path}: ${i.message}`);
  }
  return [];
};

describe('paper 003 as a scheme: dag-static and dag-adaptive, simulated', () => {
  it('runs every task of every DAG once, after its parents, under both schedulers; adaptive turns the jobs around sooner', async () => {
    const turnaround: Record<string, number> = {};
    for (const scheme of ['dag-static', 'dag-adaptive']) {
      const { w, r } = await run([`scheme: ${scheme}`]);
      expect(r.records).toHaveLength(20 * 7);
      const byId = new Map(r.records.map((x) => [x.job.id, x]));
      for (const x of r.records) {
        expect(x.finish_s, `${x.job.id} under ${scheme}`).toBeDefined();
        for (const p of x.job.parents ?? []) expect(x.start_s!).toBeGreaterThanOrEqual(byId.get(p)!.finish_s!);
      }
      expect(w.jobs.every((j) => j.dag !== undefined)).toBe(true);
      const dags = new Map<string, { submit: number; end: number }>();
      for (const x of r.records) {
        const d = dags.get(x.job.dag!) ?? { submit: x.job.submit_s, end: 0 };
        d.end = Math.max(d.end, x.finish_s!);
        dags.set(x.job.dag!, d);
      }
      turnaround[scheme] = [...dags.values()].reduce((a, d) => a + d.end - d.submit, 0) / dags.size;
    }
    // The paper's claim (§4, Figure 6): adaptive rescheduling beats random static placement.
    expect(turnaround['dag-adaptive']!).toBeLessThan(turnaround['dag-static']!);
  });

  it('MP skips migrations: fewer of them as it grows (§4, Figure 8)', async () => {
    const counts = [];
    for (const mp of [0, 0.5, 0.9]) counts.push((await run(['scheme: dag-adaptive', `min_improvement: ${mp}`])).dag);
    expect(counts[0]!).toBeGreaterThan(counts[1]!);
    expect(counts[1]!).toBeGreaterThanOrEqual(counts[2]!);
    expect(counts[0]!).toBeGreaterThan(0);
  });

  it('refuses what does not fit, naming the field', () => {
    expect(issues(text(['scheme: dag-static', 'min_improvement: 0.2']))).toEqual(['meta.min_improvement: applies only to dag-adaptive (dag-static never reschedules)']);
    expect(issues(text(['scheme: dag-adaptive', 'model: wavy']))).toEqual(['meta.model: must be one of: decreasing, increasing, oscillating (got "wavy")']);
    expect(issues(text(['scheme: dag-adaptive'], '[{ site: s1, synthetic: { jobs: 3 } }]'))).toEqual([
      'workload[0]: scheme "dag-adaptive" does not take synthetic sources (those that do: independent, unified, centralized, hierarchical, distributed, k-distributed, k-dual, gruber, fcfs-flat, fcfs-hierarchy, mq-flat, mq-hierarchy, shadow, mct, jsq)',
    ]);
    expect(issues(text(['scheme: k-distributed']))).toEqual(['workload[0]: scheme "k-distributed" does not take tornado sources (those that do: dag-static, dag-adaptive)']);
  });
});
