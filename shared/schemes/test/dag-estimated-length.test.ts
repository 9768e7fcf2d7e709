import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Job } from '@gridemu/model';
import { loadExperimentWorkload as loadWorkload, parseExperiment, simulate } from '../src/index.js';
import { asDagTask, type DagTaskJob } from '../src/dag/index.js';
import { estimatedTask_s, inputsOf } from '../src/dag/estimated-length.js';
import { dagSummary } from '../src/dag/summary.js';
import { diamond } from './wfformat-diamond.js';

const task = (over: Partial<DagTaskJob>): DagTaskJob =>
  asDagTask({
    id: 'd/t',
    workload: 'w',
    origin: 's1',
    submit_s: 0,
    run_s: 100,
    estimate_s: 60,
    procs: 0,
    dag: 'd',
    parents: [],
    ...over,
  } as Job);

describe("a DAG task's estimated length: its rough estimate and its inputs' staging", () => {
  it('stages the largest input at the bandwidth (hand-checked)', () => {
    const MB = 1e6;
    const gbps = 1e9;
    // Paper 003's initial task: 1 MB from outside, 8 ms at 1 Gbit/s.
    expect(inputsOf(task({}), MB)).toEqual({ external: MB, fromParents: [] });
    expect(estimatedTask_s(task({}), MB, gbps)).toBeCloseTo(60.008, 9);
    // A dependent task reads 1 MB from each parent, at once: the largest, not the sum.
    const dependent = task({ parents: ['d/a', 'd/b', 'd/c'] });
    expect(inputsOf(dependent, MB)).toEqual({ external: 0, fromParents: [MB, MB, MB] });
    expect(estimatedTask_s(dependent, MB, gbps)).toBeCloseTo(60.008, 9);
    // A WfFormat task's own sizes: 5.1 GB from outside beside 2 MB from its parent, 40.8 s.
    const blast = task({ parents: ['d/split'], input_bytes: 5.1e9, parent_bytes: [2e6] });
    expect(estimatedTask_s(blast, MB, gbps)).toBeCloseTo(100.8, 9);
  });

  it('a job whose input takes 100 s to stage meets a limit that its run times alone would have put at 74 s', async () => {
    // The diamond with T1 reading 12.5 GB from outside (100 s at 1 Gbit/s); run times 5, 12, 30
    // and 2 s on CRs all of the reference's speed. Its rough estimates' chain is 37 s, so a limit
    // on them alone (200%: 74 s) would stop it during its staging; with the staging (T3 reads 2
    // MB, T4 8 kB) it is 137 s (274 s), and the job ends in about 137 s.
    const dir = mkdtempSync(join(tmpdir(), 'gridemu-test-'));
    const tasks = diamond.workflow.specification;
    const files = tasks.files.map((f) => (f.id === 'raw' ? { ...f, sizeInBytes: 12.5e9 } : f));
    writeFileSync(
      join(dir, 'staged.json'),
      JSON.stringify({ ...diamond, workflow: { ...diamond.workflow, specification: { ...tasks, files } } }),
    );
    const specFile = join(dir, 'e.yaml');
    for (const scheme of ['dag-static', 'dag-adaptive']) {
      const { spec } = parseExperiment(
        [
          'name: staged',
          'seed: 1',
          'sites: [{ id: s1, cpus: 4 }, { id: s2, cpus: 4 }]',
          'workload: [{ name: wf, wfformat: staged.json }]',
          `meta: { scheme: ${scheme}, mips: [1000, 1000] }`,
        ].join('\n'),
        specFile,
      );
      const r = simulate(spec, (await loadWorkload(spec, { specFile })).jobs);
      expect(r.records.map((x) => x.failReason).filter(Boolean), scheme).toEqual([]);
      const end = Math.max(...r.records.map((x) => x.finish_s!));
      expect(end, scheme).toBeGreaterThan(2 * 37);
      expect(end, scheme).toBeLessThan(2 * 137);
      expect(dagSummary(r.counters, spec, r.records)['dag'], scheme).toMatchObject({
        jobs_failed_at_limit: 0,
        jobs_within_limit: 1,
      });
    }
  });
});
