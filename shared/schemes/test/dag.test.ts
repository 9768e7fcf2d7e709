import { describe, expect, it } from 'vitest';
import {
  checkSchedule,
  executedJobsFromCsv,
  jobsCsvText,
  newRecord,
  summarize,
  type JobRecord,
} from '@gridemu/metrics';
import { SpecError } from '@gridemu/model';
import {
  loadExperimentWorkload as loadWorkload,
  parseExperiment,
  schemeBusyProcessor_s,
  simulate,
} from '../src/index.js';
import { asDagTask, type DagTaskJob } from '../src/dag/index.js';
import { dagSummary } from '../src/dag/summary.js';

/** Paper 003's set-up, scaled down: 4 sites of 8 CRs, 20 Tornado-like jobs of 5 parallel tasks. */
const text = (
  meta: string[],
  workload = '[{ name: tor, site: s1, tornado: { jobs: 20, parallel: 5, variation: high } }]',
) =>
  [
    'name: dag-test',
    'seed: 2',
    'sites: [{ id: s1, cpus: 8 }, { id: s2, cpus: 8 }, { id: s3, cpus: 8 }, { id: s4, cpus: 8 }]',
    `workload: ${workload}`,
    'meta:',
    ...meta.map((m) => `  ${m}`),
  ].join('\n');

async function run(meta: string[]) {
  const s = parseExperiment(text(meta), '/tmp/dag-test.yaml').spec;
  const w = await loadWorkload(s, { specFile: '/tmp/dag-test.yaml' });
  const r = simulate(s, w.jobs);
  return { s, w, r, dag: r.counters['dag.migrations'] ?? 0 };
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
      // No job stopped at a limit here: every task runs to its end.
      const { w, r } = await run([`scheme: ${scheme}`, 'limit_basis: true_length']);
      expect(r.records).toHaveLength(20 * 7);
      const byId = new Map(r.records.map((x) => [x.job.id, x]));
      for (const x of r.records) {
        expect(x.finish_s, `${x.job.id} under ${scheme}`).toBeDefined();
        for (const p of asDagTask(x.job).parents) expect(x.start_s!).toBeGreaterThanOrEqual(byId.get(p)!.finish_s!);
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

  it("counts each site's busy CR time, which its utilization is made of: with every CR at 1000 MIPS, the tasks' run times", async () => {
    // Migrations carry their checkpoint's work, interrupted initial tasks keep theirs, and nothing
    // is stopped at a limit here: the CRs ran each task's work once, its run_s at 1000 MIPS.
    for (const scheme of ['dag-static', 'dag-adaptive']) {
      const { s, w, r, dag } = await run([`scheme: ${scheme}`, 'limit_basis: true_length', 'mips: [1000, 1000]']);
      if (scheme === 'dag-adaptive') expect(dag).toBeGreaterThan(0);
      const busy = schemeBusyProcessor_s(s, r.counters)!;
      expect(Object.keys(busy)).toEqual(['s1', 's2', 's3', 's4']);
      const work_s = w.jobs.reduce((a, j) => a + j.run_s, 0);
      expect(Object.values(busy).reduce((a, b) => a + b, 0)).toBeCloseTo(work_s, 3);
      const summary = summarize(r.records, r.execSites, busy);
      expect(summary.utilization.overall).toBeCloseTo(work_s / (32 * summary.makespan_s), 5);
      expect(summary.utilization.overall).toBeLessThanOrEqual(1);
      // Without the busy time, its tasks hold no processors of their own, and the jobs say 0.
      expect(summarize(r.records, r.execSites).utilization.overall).toBe(0);
    }
  });

  it('stops a job at 200% of its initially estimated length (§4): its unfinished tasks fail, and none of its work is useful', async () => {
    for (const scheme of ['dag-static', 'dag-adaptive']) {
      const { r } = await run([`scheme: ${scheme}`]);
      const byDag = new Map<string, JobRecord[]>();
      for (const x of r.records) byDag.set(x.job.dag!, [...(byDag.get(x.job.dag!) ?? []), x]);
      let failedJobs = 0;
      for (const [dag, tasks] of byDag) {
        // The deadline from what the scheduler knew at submission: the longest chain of rough estimates.
        const est = new Map<string, number>();
        const chain = (id: string): number => {
          const t = asDagTask(tasks.find((x) => x.job.id === id)!.job);
          return est.get(id) ?? est.set(id, t.estimate_s + Math.max(0, ...t.parents.map(chain))).get(id)!;
        };
        const submit = Math.min(...tasks.map((x) => x.job.submit_s));
        const deadline = submit + 2 * Math.max(...tasks.map((x) => chain(x.job.id)));
        for (const x of tasks)
          expect(x.finish_s !== undefined, `${x.job.id}: finished or failed, not both`).toBe(
            x.failReason === undefined,
          );
        const failed = tasks.filter((x) => x.failReason !== undefined);
        if (failed.length === 0) continue;
        failedJobs++;
        for (const x of failed) {
          expect(x.failReason, x.job.id).toBe('growth_limit');
          expect(x.failed_s!, x.job.id).toBeGreaterThanOrEqual(deadline);
        }
        // Nothing of a failed job starts after its deadline, and what ran was stopped there (within a hop).
        for (const x of tasks)
          if (x.start_s !== undefined) expect(x.start_s, `${dag}: ${x.job.id}`).toBeLessThanOrEqual(deadline);
        for (const x of failed) if (x.start_s !== undefined) expect(x.failed_s! - deadline).toBeLessThan(1);
      }
      const summary = dagSummary(
        r.counters,
        parseExperiment(text([`scheme: ${scheme}`]), '/tmp/dag-test.yaml').spec,
        r.records,
      );
      const d = summary['dag'] as Record<string, number>;
      expect(d['jobs_failed_at_limit']).toBe(failedJobs);
      expect(d['jobs_within_limit']! + failedJobs).toBeLessThanOrEqual(byDag.size);
      // The schedule with failed tasks in it is one that could have happened.
      const csv = jobsCsvText(r.records);
      expect(
        checkSchedule(
          executedJobsFromCsv(csv, 'jobs.csv'),
          new Map([
            ['s1', 8],
            ['s2', 8],
            ['s3', 8],
            ['s4', 8],
          ]),
        ).ok,
      ).toBe(true);
      expect(failedJobs, scheme).toBeGreaterThan(0);
    }
  });

  it('runs DAGs with a parent subset (§2): every task once, after its parents, under both schedulers', async () => {
    const workload = '[{ name: tor, site: s1, tornado: { jobs: 20, parallel: 5, variation: high, subset: 2 } }]';
    for (const scheme of ['dag-static', 'dag-adaptive']) {
      const s = parseExperiment(
        text([`scheme: ${scheme}`, 'limit_basis: true_length'], workload),
        '/tmp/dag-test.yaml',
      ).spec;
      const r = simulate(s, (await loadWorkload(s, { specFile: '/tmp/dag-test.yaml' })).jobs);
      expect(r.records).toHaveLength(20 * 8);
      const byId = new Map(r.records.map((x) => [x.job.id, x]));
      for (const x of r.records) {
        expect(x.finish_s, `${x.job.id} under ${scheme}`).toBeDefined();
        for (const p of asDagTask(x.job).parents) expect(x.start_s!).toBeGreaterThanOrEqual(byId.get(p)!.finish_s!);
      }
    }
  });

  it('MP skips migrations: fewer of them as it grows (§4, Figure 8)', async () => {
    const counts = [];
    for (const mp of [0, 0.5, 0.9]) counts.push((await run(['scheme: dag-adaptive', `min_improvement: ${mp}`])).dag);
    expect(counts[0]!).toBeGreaterThan(counts[1]!);
    expect(counts[1]!).toBeGreaterThanOrEqual(counts[2]!);
    expect(counts[0]!).toBeGreaterThan(0);
  });

  it("the increasing model's exponent reaches the progress the CRs report: a larger one moves differently", async () => {
    // The same jobs and grid; only how progress accrues differs, so the adaptive moves do.
    const base = await run(['scheme: dag-adaptive']);
    const stated = await run(['scheme: dag-adaptive', 'model_exponent: 0.5']);
    const other = await run(['scheme: dag-adaptive', 'model_exponent: 0.9']);
    expect(stated.dag).toBe(base.dag);
    expect(other.dag).not.toBe(base.dag);
  });

  it('refuses what does not fit, naming the field', () => {
    expect(issues(text(['scheme: dag-static', 'min_improvement: 0.2']))).toEqual([
      'meta.min_improvement: applies only to dag-adaptive (dag-static never reschedules)',
    ]);
    expect(issues(text(['scheme: dag-adaptive', 'model: wavy']))).toEqual([
      'meta.model: must be one of: decreasing, increasing, oscillating (got "wavy")',
    ]);
    expect(issues(text(['scheme: dag-adaptive', 'model_exponent: 1.5']))).toEqual([
      "meta.model_exponent: must be below 1 for 'increasing' (P = x^a rises early)",
    ]);
    expect(issues(text(['scheme: dag-adaptive', 'model: decreasing', 'model_exponent: 0.5']))).toEqual([
      "meta.model_exponent: must be above 1 for 'decreasing' (P = x^a rises late)",
    ]);
    expect(issues(text(['scheme: dag-adaptive', 'model: oscillating', 'model_exponent: 2']))).toEqual([
      "meta.model_exponent: applies only to the power models, 'increasing' and 'decreasing'",
    ]);
    expect(issues(text(['scheme: dag-adaptive'], '[{ site: s1, synthetic: { jobs: 3 } }]'))).toEqual([
      'workload[0]: scheme "dag-adaptive" does not take synthetic sources (those that do: independent, unified, centralized, hierarchical, distributed, k-distributed, k-dual, gruber, fcfs-flat, fcfs-hierarchy, mq-flat, mq-hierarchy, shadow, mct, jsq, shadow-classes, external)',
    ]);
    expect(issues(text(['scheme: k-distributed']))).toEqual([
      'workload[0]: scheme "k-distributed" does not take tornado sources (those that do: dag-static, dag-adaptive)',
    ]);
  });
});

describe("paper 003's figures in summary.json (hand-checked)", () => {
  it('counts as useful the work of DAG jobs done within the window and within 200% of their critical path', () => {
    const s = parseExperiment(text(['scheme: dag-adaptive']), '/tmp/dag-test.yaml').spec;
    const task = (
      id: string,
      dag: string,
      run_s: number,
      submit_s: number,
      start_s: number,
      finish_s: number,
      parents: string[] = [],
    ) => ({
      ...newRecord({
        id,
        workload: 'w',
        origin: 's1',
        submit_s,
        run_s,
        estimate_s: run_s,
        procs: 0,
        dag,
        parents,
      } as DagTaskJob),
      start_s,
      finish_s,
    });
    const records = [
      // A: critical path 10 + 100 = 110 s; done in 110 s, within 220: useful, 110,000 MI.
      task('a/init', 'a', 10, 0, 0, 10),
      task('a/p', 'a', 100, 0, 10, 110, ['a/init']),
      // B: 50 s long, done in 150 s, over 100: offered, not useful.
      task('b/x', 'b', 50, 0, 100, 150),
      // C: arrives after the 24 h window: neither.
      task('c/x', 'c', 10, 200_000, 200_000, 200_010),
    ];
    const d = (
      dagSummary(
        { 'dag.migrations': 3, 'dag.bytes.input': 4e6, 'dag.bytes.checkpoint': 2e6, 'dag.bytes.restart_input': 1e6 },
        s,
        records,
      ) as { dag: Record<string, unknown> }
    ).dag;
    expect(d).toMatchObject({
      jobs: 3,
      jobs_completed: 3,
      jobs_within_limit: 2,
      useful_work_mi: 110_000,
      useful_work_share: 0.6875,
      migrations: 3,
      // The moves: their 2 MB of checkpoints and the 1 MB of inputs sent again (part of the 4).
      network_mb: { input: 4, checkpoint: 2, total: 6, moves: 3 },
    });
    expect(d['mean_turnaround_s']).toBeCloseTo((110 + 150 + 10) / 3, 3);
  });
});
