import { describe, expect, it } from 'vitest';
import { Rng } from '@gridemu/runtime';
import { generateBlast, managerCycle, misbehaviourOf, proneSites } from '../src/gruber/index.js';
import { drawnSites } from '../src/gruber/drawn-sites.js';

describe("GRUBER's sites as paper 002 found them", () => {
  it('a misbehaving period is where the timeline says, and its changes alternate', () => {
    const spec = { sites: 1, mean_episode_s: 600, mean_between_s: 3000 };
    const t = misbehaviourOf(spec, 7, 's1');
    let at = 0;
    let state = t.inPeriodAt(0);
    expect(state).toBe(false); // it starts behaving
    let down = 0;
    for (let i = 0; i < 2000; i++) {
      const next = t.nextChange(at);
      expect(next).toBeGreaterThan(at);
      // Unchanged just before the change, flipped at it.
      expect(t.inPeriodAt((at + next) / 2)).toBe(state);
      expect(t.inPeriodAt(next)).toBe(!state);
      if (state) down += next - at;
      at = next;
      state = !state;
    }
    // Over a thousand periods, the share of time down is near 600 / 3600.
    expect(down / at).toBeGreaterThan(0.13);
    expect(down / at).toBeLessThan(0.2);
    // The same seed and site give the same periods; another site, others.
    const again = misbehaviourOf(spec, 7, 's1');
    const other = misbehaviourOf(spec, 7, 's2');
    expect(again.nextChange(0)).toBe(misbehaviourOf(spec, 7, 's1').nextChange(0));
    expect(other.nextChange(0)).not.toBe(again.nextChange(0));
  });

  it('the prone sites: the named ones, or a share of the grid drawn from the seed', () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    const spec = { mean_episode_s: 1, mean_between_s: 1 };
    expect([...proneSites({ ...spec, sites: ['c', 'e'] }, ids, 1)]).toEqual(['c', 'e']);
    const four = proneSites({ ...spec, sites: 0.4 }, ids, 1);
    expect(four.size).toBe(4);
    expect([...four].every((s) => ids.includes(s))).toBe(true);
    expect(proneSites({ ...spec, sites: 0.4 }, ids, 1)).toEqual(four);
    const draws = new Set(
      Array.from({ length: 20 }, (_, s) => [...proneSites({ ...spec, sites: 0.4 }, ids, s)].join()),
    );
    expect(draws.size).toBeGreaterThan(1);
    expect(proneSites({ ...spec, sites: 0 }, ids, 1).size).toBe(0);
  });

  it('two properties drawn as shares of the grid fall on sites independently of each other', () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    // The misbehaving managers keep their own stream: the same draw as before this helper existed.
    expect(drawnSites(0.4, ids, 3, 'gruber/misbehaving-sites')).toEqual(
      proneSites({ sites: 0.4, mean_episode_s: 1, mean_between_s: 1 }, ids, 3),
    );
    const differ = Array.from({ length: 20 }, (_, seed) => seed).filter(
      (seed) =>
        [...drawnSites(0.3, ids, seed, 'gruber/misbehaving-sites')].join() !==
        [...drawnSites(0.3, ids, seed, 'gruber/misconfigured-sites')].join(),
    );
    expect(differ.length).toBeGreaterThan(10);
    expect(drawnSites(0.3, ids, 5, 'x').size).toBe(3);
    expect(drawnSites(['b'], ids, 5, 'x')).toEqual(new Set(['b']));
  });

  it("a manager's next tick: one phase plus whole cycles, never before now; at once without a cycle", () => {
    expect(managerCycle(0, 1, 'a').nextTick(123.5)).toBe(123.5);
    const c = managerCycle(300, 1, 'a');
    const first = c.nextTick(0);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThan(300);
    expect(c.nextTick(first)).toBe(first);
    expect(c.nextTick(first + 1e-3)).toBeCloseTo(first + 300, 9);
    expect(c.nextTick(first + 299)).toBeCloseTo(first + 300, 9);
    expect(c.nextTick(first + 3000)).toBeCloseTo(first + 3000, 9);
  });

  it('a medium workload goes in steps (§3.2): step_jobs at once, step_interval_s apart', () => {
    const jobs = generateBlast(
      {
        submitters: 2,
        jobs: 5,
        vo: 'v',
        groups: ['g1', 'g2'],
        runtime_s: 2400,
        runtime_spread: 0,
        interval_s: 0,
        step_jobs: 2,
        step_interval_s: 3000,
        input_kb: [10, 10],
        output_mb: [1, 1],
      },
      new Rng(1, 'blast'),
    );
    expect(jobs.filter((j) => j.submitter === 0).map((j) => j.submit_s)).toEqual([0, 0, 3000, 3000, 6000]);
    expect(jobs.filter((j) => j.submitter === 1).map((j) => j.submit_s)).toEqual([0, 0, 3000, 3000, 6000]);
  });
});
