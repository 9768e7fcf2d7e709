import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DriverActor } from '@gridemu/actors';
import { DRIVER, type Message } from '@gridemu/protocol';
import { Rng, SimRuntime, silentLogger } from '@gridemu/runtime';
import type { DagTaskIn, DagTaskJob } from '../src/dag/dag-sources.js';
import { CheckpointServerActor } from '../src/dag/checkpoint-server-actor.js';
import { DagGrid, PAPER_003_GRID, SERVICES, type DagGridParams } from '../src/dag/dag-grid.js';
import { InformationServiceActor } from '../src/dag/information-service-actor.js';
import { DagSchedulerActor, type DagScheme } from '../src/dag/scheduler-actor.js';
import { DagSiteActor } from '../src/dag/site-actor.js';

/**
 * Paper 003's actors together in the simulator, on DAGs built by hand: the scheduler, the
 * information service and the checkpoint server at `services`, one actor per site for its CRs.
 */
/** A task's true length on the 1000-MIPS reference, the rough estimate the scheduler gets, and what it reads (unset: §4's 1 MB). */
type TaskIn = DagTaskIn;
interface DagIn {
  readonly name: string;
  readonly submit_s: number;
  readonly tasks: readonly TaskIn[];
}

/** A CR's log line at the begin or end of one run of a task. */
interface RunEvent {
  readonly event: 'dag.begin' | 'dag.end';
  readonly jobId: string;
  readonly resource: string;
  readonly time_s: number;
  readonly done_mi: number;
}

/**
 * The runs of each task from the CRs' begin and end lines: none overlaps another of its task, and
 * each begins with exactly the work the previous one ended with (its checkpoint).
 */
function checkRuns(events: readonly RunEvent[], work_mi: (jobId: string) => number): void {
  const open = new Map<string, RunEvent>();
  const last = new Map<string, RunEvent>();
  for (const e of events) {
    if (e.event === 'dag.begin') {
      expect(
        open.has(e.jobId),
        `${e.jobId} begins on ${e.resource} while it runs on ${open.get(e.jobId)?.resource}`,
      ).toBe(false);
      const before = last.get(e.jobId);
      expect(e.done_mi, `${e.jobId} restarts without its checkpoint`).toBeCloseTo(before?.done_mi ?? 0, 6);
      if (before) expect(e.time_s).toBeGreaterThanOrEqual(before.time_s);
      open.set(e.jobId, e);
    } else {
      expect(open.get(e.jobId)?.resource, `${e.jobId} ends on ${e.resource} where it did not run`).toBe(e.resource);
      open.delete(e.jobId);
      last.set(e.jobId, e);
    }
  }
  expect([...open.keys()]).toEqual([]);
  for (const [jobId, e] of last) expect(e.done_mi, `${jobId} ended short of its work`).toBeCloseTo(work_mi(jobId), 3);
}

const SCHEDULER = `${SERVICES}/gsched`;
const IS = `${SERVICES}/is`;
const CS = `${SERVICES}/cs`;

function run(
  scheme: DagScheme,
  dags: readonly DagIn[],
  params: DagGridParams,
  o: { round_period_s?: number; min_improvement?: number; seed?: number } = {},
) {
  const grid = new DagGrid(params, new Rng(o.seed ?? 1, 'grid'));
  const jobs: DagTaskJob[] = [];
  for (const d of dags) {
    for (const t of d.tasks) {
      const bytes = {
        ...(t.input_bytes === undefined ? {} : { input_bytes: t.input_bytes }),
        ...(t.parent_bytes === undefined ? {} : { parent_bytes: t.parent_bytes }),
      };
      jobs.push({
        id: `${d.name}/${t.id}`,
        workload: 'dag',
        origin: SERVICES,
        submit_s: d.submit_s,
        run_s: t.run_s,
        estimate_s: t.estimate_s,
        procs: 1,
        dag: d.name,
        parents: t.parents.map((p) => `${d.name}/${p}`),
        ...bytes,
      });
    }
  }
  const runs: RunEvent[] = [];
  const log = {
    ...silentLogger,
    info: (f: Record<string, unknown>) =>
      void (f['event'] === 'dag.begin' || f['event'] === 'dag.end' ? runs.push(f as unknown as RunEvent) : undefined),
  };
  const rt = new SimRuntime<Message>({ seed: o.seed ?? 1, network: { latency_ms: 0, jitter_ms: 0 }, log });
  const driver = new DriverActor(jobs, () => SCHEDULER);
  const cs = new CheckpointServerActor(SCHEDULER);
  rt.spawn({ address: DRIVER, location: undefined, actor: driver });
  rt.spawn({
    address: SCHEDULER,
    location: SERVICES,
    actor: new DagSchedulerActor({
      scheme,
      grid,
      siteActor: (s) => `${s}/crs`,
      informationService: IS,
      round_period_s: o.round_period_s ?? 10,
      min_improvement: o.min_improvement ?? 0,
    }),
  });
  rt.spawn({ address: IS, location: SERVICES, actor: new InformationServiceActor() });
  rt.spawn({ address: CS, location: SERVICES, actor: cs });
  for (const site of grid.sites) {
    rt.spawn({
      address: `${site}/crs`,
      location: site,
      actor: new DagSiteActor({
        site,
        resources: grid.resources.filter((r) => r.site === site),
        model: 'increasing',
        progress_period_s: 5,
        checkpoint_delay_s: [0.5, 0.5],
        checkpoint_bytes: 1e6,
        scheduler: SCHEDULER,
        informationService: IS,
        checkpointServer: CS,
      }),
    });
  }
  rt.start();
  rt.step(1_000_000, () => driver.done);
  const rec = new Map(driver.records.map((r) => [r.job.id, r]));
  return { driver, rec, counters: rt.counters, cs, grid, runs };
}

const tornado = (name: string, submit_s: number, lengths: readonly number[], estimate_s = 10): DagIn => ({
  name,
  submit_s,
  tasks: [
    { id: 'init', parents: [], run_s: 1, estimate_s: 1 },
    ...lengths.map((l, i) => ({ id: `p${i}`, parents: ['init'], run_s: l, estimate_s })),
    { id: 'final', parents: lengths.map((_, i) => `p${i}`), run_s: 1, estimate_s: 1 },
  ],
});

describe('paper 003: the scheduler, IS, CS and sites in the simulator', () => {
  it('adaptive: a long task placed on a slow CR by its poor estimate moves to the fast one once its progress shows it, keeping its work', () => {
    // One site, CRs of 4000, 1000 and 100 MIPS. Step 3 places p1 (estimate 100 s, 100,000 MI) on
    // the 4000-MIPS CR and p0, estimated at 1 s, on the slowest that keeps the set's end: the
    // 100-MIPS one. p0 truly takes 200 s on the reference (200,000 MI: 2000 s there). Once p1 is
    // done the set {p0, p1} is fully scheduled with p0 alone running; its progress shows it long,
    // and step 2 moves it to the 4000-MIPS CR with what it has done.
    const params: DagGridParams = { ...PAPER_003_GRID, sites: 1, resources: 3, mips_list: [4000, 1000, 100] };
    const dag: DagIn = {
      name: 'j!0',
      submit_s: 0,
      tasks: [
        { id: 'init', parents: [], run_s: 1, estimate_s: 1 },
        { id: 'p0', parents: ['init'], run_s: 200, estimate_s: 1 },
        { id: 'p1', parents: ['init'], run_s: 100, estimate_s: 100 },
        { id: 'final', parents: ['p0', 'p1'], run_s: 1, estimate_s: 1 },
      ],
    };
    const adaptive = run('dag-adaptive', [dag], params);
    const p0 = adaptive.rec.get('j!0/p0')!;
    expect(adaptive.counters.get('dag.migrations')).toBe(1);
    expect(adaptive.rec.get('j!0/p0')!.migrations).toBe(1); // jobs.csv's migrations column
    expect(adaptive.cs.stored.get('j!0/p0')).toBeGreaterThan(0);
    // Statically it would have taken 2000 s on the slow CR; moved, far less.
    expect(p0.finish_s! - p0.start_s!).toBeLessThan(200);
    checkRuns(
      adaptive.runs,
      (id) => ({ 'j!0/init': 1000, 'j!0/p0': 200_000, 'j!0/p1': 100_000, 'j!0/final': 1000 })[id]!,
    );
    expect(adaptive.runs.filter((e) => e.jobId === 'j!0/p0').map((e) => `${e.event}@${e.resource}`)).toEqual([
      'dag.begin@cr3',
      'dag.end@cr3',
      'dag.begin@cr1',
      'dag.end@cr1',
    ]);
    const fin = adaptive.rec.get('j!0/final')!;
    expect(fin.start_s!).toBeGreaterThanOrEqual(p0.finish_s!);
    const none = run('dag-adaptive', [dag], params, { min_improvement: 0.999 });
    expect(none.counters.get('dag.migrations') ?? 0).toBe(0); // MP skips every move
  });

  it('adaptive: an initial task on the CR a dependent task takes is interrupted and moved to the free CR, keeping its work (step 1)', () => {
    // CRs of 4000 (cr1) and 2000 MIPS (cr2). b's only task, initial and 400,000 MI long, starts at 0
    // on the fastest free CR, cr1. a arrives at 10 s: its initial task joins cr1 (initial tasks hold
    // no place), and when it ends its dependent p0 takes cr1, the fastest CR with no dependent task.
    // b's task would stand still there, so it is checkpointed and moved to cr2, free. p0 then runs
    // alone at 4000 MIPS: its 50,000 MI take 12.5 s.
    const params: DagGridParams = { ...PAPER_003_GRID, sites: 1, resources: 2, mips_list: [4000, 2000] };
    const b: DagIn = { name: 'b!0', submit_s: 0, tasks: [{ id: 'only', parents: [], run_s: 400, estimate_s: 400 }] };
    const a = tornado('a!0', 10, [50], 50);
    const r = run('dag-adaptive', [b, a], params);
    expect(r.counters.get('dag.initial_interruptions')).toBe(1);
    expect(r.runs.filter((e) => e.jobId === 'b!0/only').map((e) => `${e.event}@${e.resource}`)).toEqual([
      'dag.begin@cr1',
      'dag.end@cr1',
      'dag.begin@cr2',
      'dag.end@cr2',
    ]);
    expect(r.runs.filter((e) => e.jobId === 'a!0/p0').map((e) => `${e.event}@${e.resource}`)).toEqual([
      'dag.begin@cr1',
      'dag.end@cr1',
    ]);
    const p0 = r.rec.get('a!0/p0')!;
    expect(p0.finish_s! - p0.start_s!).toBeCloseTo(12.5, 6);
    checkRuns(r.runs, (id) => ({ 'b!0/only': 400_000, 'a!0/init': 1000, 'a!0/p0': 50_000, 'a!0/final': 1000 })[id]!);
    // The static scheduler never moves it: there it waits while a dependent task runs on its CR.
    expect(run('dag-static', [b, a], params).counters.get('dag.initial_interruptions') ?? 0).toBe(0);
  });

  it("moves what a task reads: its files' sizes when it has them, 1 MB per input otherwise, and waits for them to arrive", () => {
    // One CR of a one-site grid and one on another site, so nothing is local but what shares a CR.
    // init reads 5 MB from outside; p0 reads 1 GB of init's outputs: over 1 Gbit/s that takes 8 s
    // (plus the link's latency) unless p0 runs where init did; final reads p0's output, 1 MB.
    const params: DagGridParams = { ...PAPER_003_GRID, sites: 2, resources: 2, mips_list: [1000, 1000] };
    const dag: DagIn = {
      name: 'w!0',
      submit_s: 0,
      tasks: [
        { id: 'init', parents: [], run_s: 1, estimate_s: 1, input_bytes: 5e6 },
        { id: 'p0', parents: ['init'], run_s: 10, estimate_s: 10, parent_bytes: [1e9] },
        { id: 'final', parents: ['p0'], run_s: 1, estimate_s: 1 },
      ],
    };
    const seen = new Set<boolean>();
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const r = run('dag-static', [dag], params, { seed });
      expect(r.counters.get('dag.bytes.input')).toBe(5e6 + 1e9 + 1e6);
      const begins = new Map(r.runs.filter((e) => e.event === 'dag.begin').map((e) => [e.jobId, e]));
      const apart = begins.get('w!0/init')!.resource !== begins.get('w!0/p0')!.resource;
      const gap = r.rec.get('w!0/p0')!.start_s! - r.rec.get('w!0/init')!.finish_s!;
      if (apart) expect(gap).toBeGreaterThan(8);
      else expect(gap).toBe(0);
      seen.add(apart);
    }
    expect([...seen].sort()).toEqual([false, true]); // the random placements tried both cases
  });

  it('static: places each ready task at random and never moves it', () => {
    const r = run('dag-static', [tornado('a!0', 0, [50, 80, 20]), tornado('a!1', 30, [10, 10])], {
      ...PAPER_003_GRID,
      sites: 2,
      resources: 4,
      mips_list: [1000, 2000, 500, 4000],
    });
    expect(r.counters.get('dag.migrations') ?? 0).toBe(0);
    expect(r.driver.records.every((x) => x.finish_s !== undefined)).toBe(true);
  });

  it('over random Tornado-like jobs and both schedulers: every task runs to its end once, after all its parents, in one place at a time, keeping its checkpoints', () => {
    let migrations = 0;
    const job = fc.record({
      submit_s: fc.integer({ min: 0, max: 500 }),
      lengths: fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 6 }),
      estimate_s: fc.integer({ min: 1, max: 400 }),
    });
    fc.assert(
      fc.property(
        fc.constantFrom<DagScheme>('dag-static', 'dag-adaptive'),
        fc.array(job, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 50 }),
        (scheme, js, seed) => {
          const dags = js.map((j, i) => tornado(`t!${i}`, j.submit_s, j.lengths, j.estimate_s));
          const r = run(scheme, dags, { ...PAPER_003_GRID, sites: 2, resources: 6, mips: [100, 4000] }, { seed });
          for (const d of dags) {
            for (const t of d.tasks) {
              const x = r.rec.get(`${d.name}/${t.id}`)!;
              expect(x.finish_s, `${x.job.id} did not finish`).toBeDefined();
              // A task's run is at least its work at the fastest CR's speed.
              expect(x.finish_s! - x.start_s!).toBeGreaterThanOrEqual((t.run_s * 1000) / 4000 - 1e-6);
              for (const p of t.parents)
                expect(x.start_s!, `${x.job.id} started before ${p} ended`).toBeGreaterThanOrEqual(
                  r.rec.get(`${d.name}/${p}`)!.finish_s!,
                );
            }
          }
          const work = new Map<string, number>(
            dags.flatMap((d) => d.tasks.map((t) => [`${d.name}/${t.id}`, t.run_s * 1000] as const)),
          );
          checkRuns(r.runs, (id) => work.get(id)!);
          migrations += r.counters.get('dag.migrations') ?? 0;
        },
      ),
      {
        numRuns: 60,
        // Found by this property: an initial task interrupted while its inputs were on their way, before
        // it ever began, restarted without reporting its start.
        examples: [
          [
            'dag-adaptive',
            [
              { submit_s: 0, lengths: [28, 258], estimate_s: 1 },
              { submit_s: 0, lengths: [1, 1, 227, 196, 1], estimate_s: 1 },
              { submit_s: 110, lengths: [1], estimate_s: 1 },
              { submit_s: 0, lengths: [1], estimate_s: 1 },
            ],
            1,
          ],
        ],
      },
    );
    // The checkpoint check above means something only if tasks did move.
    expect(migrations).toBeGreaterThan(10);
  });

  it('over random DAGs (any parents, several initial tasks): every task ends once, after its parents, keeping its checkpoints', () => {
    // Task i may depend on any earlier task: one job is any DAG of up to 8 tasks.
    const dag = fc.integer({ min: 1, max: 8 }).chain((n) =>
      fc.record({
        parents: fc.tuple(...Array.from({ length: n }, (_, i) => fc.subarray(Array.from({ length: i }, (_, k) => k)))),
        lengths: fc.array(fc.integer({ min: 1, max: 300 }), { minLength: n, maxLength: n }),
        estimate_s: fc.integer({ min: 1, max: 300 }),
        submit_s: fc.integer({ min: 0, max: 300 }),
      }),
    );
    fc.assert(
      fc.property(
        fc.constantFrom<DagScheme>('dag-static', 'dag-adaptive'),
        fc.array(dag, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 50 }),
        (scheme, js, seed) => {
          const dags: DagIn[] = js.map((j, d) => ({
            name: `g!${d}`,
            submit_s: j.submit_s,
            tasks: j.parents.map((ps, i) => ({
              id: `t${i}`,
              parents: ps.map((p) => `t${p}`),
              run_s: j.lengths[i]!,
              estimate_s: j.estimate_s,
            })),
          }));
          const r = run(scheme, dags, { ...PAPER_003_GRID, sites: 2, resources: 4, mips: [100, 4000] }, { seed });
          const work = new Map<string, number>();
          for (const d of dags) {
            for (const t of d.tasks) {
              const x = r.rec.get(`${d.name}/${t.id}`)!;
              expect(x.finish_s, `${x.job.id} did not finish`).toBeDefined();
              for (const p of t.parents)
                expect(x.start_s!, `${x.job.id} started before ${p} ended`).toBeGreaterThanOrEqual(
                  r.rec.get(`${d.name}/${p}`)!.finish_s!,
                );
              work.set(x.job.id, t.run_s * 1000);
            }
          }
          checkRuns(r.runs, (id) => work.get(id)!);
        },
      ),
      { numRuns: 60 },
    );
  });
});
