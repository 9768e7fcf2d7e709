import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SpecError } from '@gridemu/model';
import { loadExperimentWorkload as loadWorkload, parseExperiment } from '../src/index.js';
import { asDagTask } from '../src/dag/index.js';
import { diamond } from './wfformat-diamond.js';

const tempDir = () => mkdtempSync(join(tmpdir(), 'gridemu-test-'));
/** A DAG experiment's spec: the DAG schemes alone take DAG sources. */
const parseSpecText = (text: string, file: string) => parseExperiment(`${text}meta: { scheme: dag-static }\n`, file);

describe('DAG sources (paper 003)', () => {
  it('replays a WfFormat instance: a DAG per replay, task ids <name>!<n>/<task>, parents by job id, arrivals interarrival_s apart', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'diamond.json'), JSON.stringify(diamond));
    const { spec } = parseSpecText(
      'name: t\nsites: [{ id: s1, cpus: 4 }]\nworkload: [{ name: wf, wfformat: diamond.json, instances: 2, interarrival_s: 600 }]\n',
      join(dir, 'e.yaml'),
    );
    const w = await loadWorkload(spec, { specFile: join(dir, 'e.yaml') });
    expect(w.jobs.map((j) => `${j.id}@${j.submit_s}`)).toEqual([
      'diamond!0/T1@0',
      'diamond!0/T2@0',
      'diamond!0/T3@0',
      'diamond!0/T4@0',
      'diamond!1/T1@600',
      'diamond!1/T2@600',
      'diamond!1/T3@600',
      'diamond!1/T4@600',
    ]);
    expect(w.jobs[3]).toMatchObject({
      dag: 'diamond!0',
      parents: ['diamond!0/T2', 'diamond!0/T3'],
      run_s: 2,
      estimate_s: 2,
      procs: 0,
      workload: 'wf',
      origin: 's1',
    });
    // What each task reads: from outside the grid, and from each parent (its files' sizes).
    expect(
      w.jobs
        .slice(0, 4)
        .map(asDagTask)
        .map((j) => [j.input_bytes, j.parent_bytes]),
    ).toEqual([
      [5_000_000, []],
      [0, [1_000_000]],
      [0, [2_000_000]],
      [0, [3000, 4000]],
    ]);
    expect(w.sources[0]).toMatchObject({ kind: 'wfformat', jobs: 8 });
  });

  it('replays an instance with Poisson arrivals: exponential gaps of the mean, the same from the same seed', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'diamond.json'), JSON.stringify(diamond));
    const text =
      'name: t\nseed: 3\nsites: [{ id: s1, cpus: 4 }]\nworkload: [{ wfformat: diamond.json, instances: 400, interarrival_s: 600, arrivals: poisson }]\n';
    const { spec } = parseSpecText(text, join(dir, 'e.yaml'));
    const load = async () =>
      (await loadWorkload(spec, { specFile: join(dir, 'e.yaml') })).jobs
        .filter((j) => j.id.endsWith('/T1'))
        .map((j) => j.submit_s);
    const t = await load();
    expect(t[0]).toBe(0);
    const gaps = t.slice(1).map((x, i) => x - t[i]!);
    expect(gaps.every((g) => g >= 0)).toBe(true);
    expect(new Set(gaps).size).toBeGreaterThan(300); // not a fixed gap
    expect(gaps.reduce((a, g) => a + g, 0) / gaps.length).toBeGreaterThan(500);
    expect(gaps.reduce((a, g) => a + g, 0) / gaps.length).toBeLessThan(700);
    expect(await load()).toEqual(t);
  });

  it('generates Tornado-like jobs: init, the parent set, final; the same from the same seed', async () => {
    const text =
      'name: t\nseed: 4\nsites: [{ id: s1, cpus: 4 }, { id: s2, cpus: 4 }]\nworkload: [{ name: tor, tornado: { jobs: 3, parallel: 5, variation: low } }]\n';
    const { spec } = parseSpecText(text, 'e.yaml');
    const w = await loadWorkload(spec);
    expect(w.jobs).toHaveLength(3 * 7);
    const first = w.jobs.filter((j) => j.dag === 'tor!0');
    expect(first.map((j) => j.id)).toEqual([
      'tor!0/init',
      'tor!0/p0',
      'tor!0/p1',
      'tor!0/p2',
      'tor!0/p3',
      'tor!0/p4',
      'tor!0/final',
    ]);
    expect(asDagTask(first.at(-1)!).parents).toEqual(['tor!0/p0', 'tor!0/p1', 'tor!0/p2', 'tor!0/p3', 'tor!0/p4']);
    // Each DAG comes from one site, dealt in turn.
    expect([...new Set(w.jobs.map((j) => `${j.dag}@${j.origin}`))]).toEqual(['tor!0@s1', 'tor!1@s2', 'tor!2@s1']);
    expect((await loadWorkload(spec)).jobs).toEqual(w.jobs);
  });

  it('names the file and JSON path of a broken instance', async () => {
    const dir = tempDir();
    const broken = structuredClone(diamond);
    broken.workflow.specification.tasks[3]!.parents = ['T2', 'T9'];
    writeFileSync(join(dir, 'd.json'), JSON.stringify(broken));
    const { spec } = parseSpecText(
      'name: t\nsites: [{ id: s1, cpus: 4 }]\nworkload: [{ wfformat: d.json }]\n',
      join(dir, 'e.yaml'),
    );
    const err = (await loadWorkload(spec, { specFile: join(dir, 'e.yaml') }).then(
      () => new Error('no error'),
      (e: unknown) => e,
    )) as Error;
    // T3 still lists T4 as its child: the first disagreement, by its JSON path.
    expect(err.message).toMatch(
      /d\.json: workflow\.specification\.tasks\[2\]\.children\[0\]: "T4" is a child of "T3", but tasks\[3\]\.parents does not list "T3"/,
    );
  });

  it('reads what a DAG source takes, and names what it cannot', () => {
    const issues = (workload: string) => {
      try {
        parseSpecText(`name: t\nsites: [{ id: s1, cpus: 4 }]\nworkload: ${workload}\n`, 'e.yaml');
      } catch (err) {
        return (err as SpecError).issues.map((i) => `${i.line ?? '-'} ${i.path}: ${i.message}`);
      }
      return [];
    };
    const { spec } = parseSpecText(
      'name: t\nsites: [{ id: s1, cpus: 4 }]\nworkload: [{ site: s1, tornado: { jobs: 2, parallel: 5 } }]\n',
      'e.yaml',
    );
    expect(spec.workload[0]).toMatchObject({
      kind: 'tornado',
      tornado: {
        jobs: 2,
        parallel: 5,
        variation: 'high',
        median_s: 1800,
        batch_size: 5,
        batch_gap_h: 1,
        day_share: 0.8,
      },
    });
    expect(issues('[{ site: s1, wfformat: m.json, jobs: 4, tornado: { jobs: 1, parallel: 2 } }]')).toEqual([
      '3 workload[0]: needs exactly one of swf, gwf or batsim (a trace file), synthetic (a workload model), blast (a bag of BLAST tasks), tasks (divisible tasks), tornado (generated DAG jobs), wfformat (a WfCommons workflow, replayed)',
    ]);
    expect(issues('[{ site: s1, wfformat: m.json, lenient: true }]')).toEqual([
      '3 workload[0].lenient: applies only to line-based traces (swf, gwf)',
    ]);
    expect(issues('[{ site: s1, wfformat: m.json, jobs: 4 }]')).toEqual([
      '3 workload[0].jobs: does not apply to the tasks of DAG jobs (a wfformat source)',
    ]);
    expect(issues('[{ site: s1, tornado: { jobs: 1, parallel: 2, variation: wild } }]')).toEqual([
      '3 workload[0].tornado.variation: must be one of: high, medium, low (got "wild")',
    ]);
    expect(issues('[{ site: s1, tornado: { jobs: 1, parallel: 2, subset: 2 } }]')).toEqual([
      '3 workload[0].tornado.subset: must be smaller than parallel (2): a subset of the parent set',
    ]);
    expect(issues('[{ site: s1, tornado: { jobs: 1, parallel: 2 }, instances: 2 }]')).toEqual([
      '3 workload[0].instances: applies only to a wfformat source',
    ]);
  });
});
