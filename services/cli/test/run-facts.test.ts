import { describe, expect, it } from 'vitest';
import { runFacts, type ReportSummary } from '../src/report/run-report.js';

const CLEAN: ReportSummary = {
  name: 'x',
  mode: 'run',
  scheme: 'k-distributed',
  jobs: { submitted: 10, completed: 10, rejected: 0, unfinished: 0 },
  mean_wait_s: 1,
  mean_bounded_slowdown: 1,
  utilization: { overall: 0.5, per_site: { s1: 0.5 } },
  makespan_s: 100,
  messages: { total: 5 },
  spec: { sites: [{ id: 's1', cpus: 4 }] },
};

describe("the table at the top of a run's report", () => {
  it('opens with why the run was aborted and each fidelity warning, and counts the unfinished jobs', () => {
    const facts = runFacts({
      ...CLEAN,
      jobs: { submitted: 10, completed: 4, rejected: 0, unfinished: 6 },
      live: { aborted: 'the driver got SIGTERM', fidelity: { measured: { warnings: ['one hop is 60 s', 'slow'] } } },
    });
    expect(facts.slice(0, 3)).toEqual([
      ['ABORTED', 'the driver got SIGTERM: the figures below cover only the jobs that ended before it'],
      ['FIDELITY WARNING', 'one hop is 60 s'],
      ['FIDELITY WARNING', 'slow'],
    ]);
    expect(facts).toContainEqual(['jobs', '10 submitted, 4 completed, 0 rejected, 6 unfinished']);
  });

  it('has neither for a run that ended as it should', () => {
    const facts = runFacts(CLEAN);
    expect(facts[0]![0]).toBe('experiment');
    expect(facts).toContainEqual(['jobs', '10 submitted, 10 completed, 0 rejected']);
  });
});
