import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DagJob, type DagTaskSpec } from '../src/dag/dag-job.js';

/** A Tornado-like job (§4): init feeds p0..p2, which all feed final. */
const tornado = (): DagTaskSpec[] => [
  { id: 'init', parents: [], work_mi: 10 },
  { id: 'p0', parents: ['init'], work_mi: 100 },
  { id: 'p1', parents: ['init'], work_mi: 200 },
  { id: 'p2', parents: ['init'], work_mi: 300 },
  { id: 'final', parents: ['p0', 'p1', 'p2'], work_mi: 10 },
];

const workOf = (t: DagTaskSpec) => t.work_mi;

describe('paper 003: a DAG job (§2, §3)', () => {
  it('makes a task ready only once every parent has finished', () => {
    const j = new DagJob('t!0', tornado());
    expect(j.ready()).toEqual(['init']);
    expect(j.isInitial('init')).toBe(true);
    j.start('init');
    expect(j.finish('init')).toEqual(['p0', 'p1', 'p2']);
    for (const p of ['p0', 'p1', 'p2']) j.start(p);
    expect(j.finish('p1')).toEqual([]);
    expect(j.finish('p0')).toEqual([]);
    expect(j.stateOf('final')).toBe('waiting');
    expect(j.finish('p2')).toEqual(['final']);
    j.start('final');
    expect(j.done).toBe(false);
    j.finish('final');
    expect(j.done).toBe(true);
  });

  it("gives its longest chain of a task length: with the estimated lengths, the limit's base (§4)", () => {
    // init (10) → p2 (300) → final (10); the chains through p0 and p1 are shorter.
    expect(new DagJob('t', tornado()).longestChain(workOf)).toBe(320);
    // As tasks arrive one by one: a parent not yet known adds nothing, and the length grows.
    const growing = new DagJob('g');
    growing.add({ id: 'final', parents: ['p0', 'p1'], work_mi: 5 });
    expect(growing.longestChain(workOf)).toBe(5);
    growing.add({ id: 'p1', parents: ['init'], work_mi: 50 });
    expect(growing.longestChain(workOf)).toBe(55);
    growing.add({ id: 'init', parents: [], work_mi: 7 });
    expect(growing.longestChain(workOf)).toBe(62);
    expect(new DagJob('empty').longestChain(workOf)).toBe(0);
  });

  it('knows its parent sets, the smaller first, and which members sit in a subset', () => {
    // d's parents {a, b} lie inside e's {a, b, c}: d's set comes first, and a and b are marked in e's.
    const j = new DagJob('g', [
      { id: 'a', parents: [], work_mi: 1 },
      { id: 'b', parents: [], work_mi: 1 },
      { id: 'c', parents: [], work_mi: 1 },
      { id: 'e', parents: ['c', 'b', 'a'], work_mi: 1 },
      { id: 'd', parents: ['b', 'a'], work_mi: 1 },
      { id: 'f', parents: ['a', 'b'], work_mi: 1 },
    ]);
    expect(j.parentSets.map((s) => ({ child: s.child, members: s.members, inSubset: [...s.inSubset] }))).toEqual([
      { child: 'd', members: ['a', 'b'], inSubset: [] },
      { child: 'e', members: ['a', 'b', 'c'], inSubset: ['a', 'b'] },
    ]);
  });

  it('tells a fully scheduled parent set (step 2) from a partly processed one (step 3)', () => {
    const j = new DagJob('t!0', tornado());
    const set = j.parentSets[1]!; // {p0, p1, p2}
    expect(set.members).toEqual(['p0', 'p1', 'p2']);
    j.start('init');
    j.finish('init');
    j.start('p0');
    expect([j.fullyScheduled(set), j.partlyProcessed(set)]).toEqual([false, true]);
    j.start('p1');
    j.start('p2');
    expect([j.fullyScheduled(set), j.partlyProcessed(set)]).toEqual([true, false]);
    j.requeue('p2'); // interrupted: idle again
    expect([j.fullyScheduled(set), j.partlyProcessed(set)]).toEqual([false, true]);
  });

  it('refuses a cycle, an unknown parent, a repeated id, and a start out of turn, naming them', () => {
    expect(
      () =>
        new DagJob('x', [
          { id: 'a', parents: ['b'], work_mi: 1 },
          { id: 'b', parents: ['a'], work_mi: 1 },
        ]),
    ).toThrow(/DAG x: its dependencies form a cycle through a, b/);
    expect(() => new DagJob('x', [{ id: 'a', parents: ['z'], work_mi: 1 }])).toThrow(
      /task a names parent z, which is not a task/,
    );
    expect(
      () =>
        new DagJob('x', [
          { id: 'a', parents: [], work_mi: 1 },
          { id: 'a', parents: [], work_mi: 1 },
        ]),
    ).toThrow(/task id a appears twice/);
    expect(() => new DagJob('x', tornado()).start('final')).toThrow(/task final of x started while waiting/);
  });

  it('over random DAGs, runs every task once, each after all of its parents', () => {
    // A random DAG: task i may depend on any earlier task. Run it in a random ready order.
    const dag = fc
      .integer({ min: 1, max: 15 })
      .chain((n) =>
        fc.tuple(
          fc.tuple(...Array.from({ length: n }, (_, i) => fc.subarray(Array.from({ length: i }, (_, k) => k)))),
          fc.array(fc.nat(), { minLength: n * 2, maxLength: n * 2 }),
        ),
      );
    fc.assert(
      fc.property(dag, ([parents, picks]) => {
        const j = new DagJob(
          'r',
          parents.map((ps, i) => ({ id: `t${i}`, parents: ps.map((p) => `t${p}`), work_mi: 1 })),
        );
        const finishedAt = new Map<string, number>();
        const running: string[] = [];
        let step = 0;
        while (!j.done) {
          const ready = j.ready();
          const pick = picks[step % picks.length]!;
          if (ready.length > 0 && (running.length === 0 || pick % 2 === 0)) {
            const id = ready[pick % ready.length]!;
            for (const p of j.task(id).parents)
              expect(finishedAt.has(p), `${id} started before ${p} finished`).toBe(true);
            j.start(id);
            running.push(id);
          } else {
            const [id] = running.splice(pick % running.length, 1);
            j.finish(id!);
            expect(finishedAt.has(id!)).toBe(false);
            finishedAt.set(id!, step);
          }
          step++;
        }
        expect(finishedAt.size).toBe(parents.length);
      }),
    );
  });
});
