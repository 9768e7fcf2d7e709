import { describe, expect, it } from 'vitest';
import { checkSchedule, describeScheduleCheck } from '@gridemu/metrics';
import { SpecError } from '@gridemu/model';
import { loadExperimentWorkload as loadWorkload, parseExperiment, schemeSummary, simulate } from '../src/index.js';
import { speedsOf } from '../src/shadow/index.js';

const spec = (scheme: string, extra: string[] = []) =>
  parseExperiment(
    [
      'name: shadow-test',
      'seed: 3',
      'sites: [{ id: a, cpus: 1 }, { id: b, cpus: 1 }, { id: c, cpus: 1 }, { id: d, cpus: 1 }]',
      'workload: [{ site: a, synthetic: { jobs: 400, uhi: 1 } }]',
      'meta:',
      `  scheme: ${scheme}`,
      '  speeds: [1, 2, 4, 8]',
      ...extra,
    ].join('\n'),
    '/tmp/shadow-test.yaml',
  ).spec;

async function run(scheme: string, extra: string[] = []) {
  const s = spec(scheme, extra);
  const w = await loadWorkload(s, { specFile: '/tmp/shadow-test.yaml' });
  return { s, w, r: simulate(s, w.jobs) };
}

describe('paper 004 routers, simulated', () => {
  for (const scheme of ['shadow', 'mct', 'jsq']) {
    it(`${scheme}: every task runs once on a resource, none over capacity; state messages as the router needs them`, async () => {
      const { s, r } = await run(scheme);
      const executed = r.records
        .filter((x) => x.start_s !== undefined)
        .map((x) => ({
          jobId: x.job.id,
          site: x.execSite!,
          procs: x.job.procs,
          start_s: x.start_s!,
          finish_s: x.finish_s!,
          resources: x.resources!,
        }));
      expect(executed).toHaveLength(400);
      expect(describeScheduleCheck(checkSchedule(executed, new Map(s.sites.map((x) => [x.id, x.cpus]))))).toEqual([]);
      const routing = (r.counters['routing.state_messages'] ?? 0) / 400;
      expect(routing).toBe(scheme === 'shadow' ? 0 : 2 * s.sites.length);
    });
  }

  it('runs a task of length L for L / μ on its resource', async () => {
    const { s, r } = await run('jsq');
    const mu = new Map(s.sites.map((x, i) => [x.id, speedsOf(s)[i]!]));
    for (const x of r.records) expect(x.finish_s! - x.start_s!).toBeCloseTo(x.job.run_s / mu.get(x.execSite!)!, 6);
  });

  it("a task's output comes back through the resource's link and the scheduler's, and its flowtime waits for it", async () => {
    // Grid Shadow sends no queries, so outputs change no routing: the same runs, a longer flowtime.
    const bare = await run('shadow');
    const heavy = await run('shadow', ['  task_output_bytes: 1000000']);
    const end = new Map(bare.r.records.map((x) => [x.job.id, x]));
    for (const x of heavy.r.records) {
      const b = end.get(x.job.id)!;
      expect([x.start_s, x.finish_s]).toEqual([b.start_s, b.finish_s]);
    }
    // 1 MB at 10 Mbps is 0.8 s on each link, and each waits behind the outputs before it.
    const routing = (r: typeof bare.r) =>
      schemeSummary(heavy.s, r.counters, r.records)['routing'] as {
        flowtime_mean_s: number;
        output_return_mean_s: number;
      };
    const b = schemeSummary(bare.s, bare.r.counters, bare.r.records)['routing'] as { flowtime_mean_s: number };
    const h = routing(heavy.r);
    expect(h.output_return_mean_s).toBeGreaterThanOrEqual(1.6 - 1e-9);
    // The run ends with every output in: the last tasks' are counted too.
    expect(heavy.r.counters['routing.outputs']).toBe(400);
    expect(h.flowtime_mean_s - b.flowtime_mean_s).toBeCloseTo(h.output_return_mean_s, 2);
  });

  for (const scheme of ['shadow', 'mct']) {
    it(`${scheme}: a resource away from the grid gets no task while it is away, and tasks again after`, async () => {
      // d, the fastest, is away for the second quarter of the arrivals.
      const probe = await run(scheme);
      const times = probe.r.records.map((x) => x.job.submit_s).sort((a, b) => a - b);
      const [leave, back] = [times[100]!, times[200]!];
      const { r } = await run(scheme, [`  away: { d: [[${leave}, ${back}]] }`]);
      // No latency here: a task is routed when it is submitted.
      const atD = r.records.filter((x) => x.execSite === 'd').map((x) => x.job.submit_s);
      expect(atD.filter((t) => t >= leave && t < back)).toEqual([]);
      expect(atD.some((t) => t >= back)).toBe(true);
      expect(atD.some((t) => t < leave)).toBe(true);
      if (scheme === 'mct')
        // Queries go to the resources present: 3 instead of 4 for each task routed while d is away.
        expect(r.counters['routing.state_messages']).toBe(2 * 4 * 400 - 2 * 100);
    });
  }

  it('with exact estimates and no latency, MCT sends every task where it completes earliest', async () => {
    // A link this fast and zero latency: every answer reflects the state the task arrives to.
    const { s, r } = await run('mct', ['  link_mbps: 1000000000', '  state_message_bytes: 0']);
    const mu = speedsOf(s);
    const ids = s.sites.map((x) => x.id);
    // Replay: each resource's queue drains FIFO; a task completes at max(arrival, resource free) + L/μ.
    const freeAt = ids.map(() => 0);
    const bySubmit = [...r.records].sort((x, y) => x.job.submit_s - y.job.submit_s);
    for (const x of bySubmit) {
      const completion = ids.map((_, i) => Math.max(x.job.submit_s, freeAt[i]!) + x.job.run_s / mu[i]!);
      const best = Math.min(...completion);
      const chosen = ids.indexOf(x.execSite!);
      expect(completion[chosen]).toBeCloseTo(best, 6);
      freeAt[chosen] = completion[chosen]!;
    }
  });
});

describe("paper 004's experiment file: resources away", () => {
  it('names the field of a bad away period', () => {
    let issues: string[] = [];
    try {
      spec('shadow', ['  away: { z: [[1, 2]], d: [[5, 3]], c: [[0, 10], [5, 20]], b: [[1]] }']);
    } catch (err) {
      if (!(err instanceof SpecError)) throw err;
      issues = err.issues.map((i) => `${i.path}: ${i.message}`);
    }
    expect(issues).toEqual([
      'meta.away.z: no site with id "z"',
      'meta.away.d[0]: joins (3) before it leaves (5)',
      'meta.away.c[1]: starts before the period before it ends (10): sort them, without overlaps',
      'meta.away.b[0]: must be [leave_s, join_s]',
    ]);
  });
});

describe("paper 004's experiment file: task classes", () => {
  const issuesOf = (scheme: string, lines: string[]): string[] => {
    try {
      spec(scheme, lines);
    } catch (err) {
      if (!(err instanceof SpecError)) throw err;
      return err.issues.map((i) => `${i.path}: ${i.message}`);
    }
    return [];
  };

  it('requires class lengths for shadow-classes, ascending, and refuses them elsewhere', () => {
    expect(issuesOf('shadow-classes', [])).toEqual([
      'meta.class_lengths_s: is required by shadow-classes: one length per task class, ascending',
    ]);
    expect(issuesOf('shadow-classes', ['  class_lengths_s: [10, 5]'])).toEqual([
      'meta.class_lengths_s[1]: must be longer than the class before it (10)',
    ]);
    expect(issuesOf('shadow', ['  class_lengths_s: [5, 10]'])).toEqual([
      'meta.class_lengths_s: is for shadow-classes only (scheme is shadow)',
    ]);
    expect(issuesOf('shadow-classes', ['  class_lengths_s: [5, 10]'])).toEqual([]);
  });
});
