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

  it('ends with the jobs it submitted and what made the run, when its summary says', () => {
    expect(runFacts(CLEAN).find(([k]) => k === 'made by')).toBeUndefined();
    const provenance = {
      gridemu: '0.1.0',
      commit: '8dd27ef4bb0a7454330fe2298f85c3e7d7c758e2',
      modified: true,
      node: 'v20.20.2',
      platform: 'linux x64',
      cpu: 'AMD EPYC',
      cores: 2,
    };
    expect(runFacts({ ...CLEAN, provenance }).at(-1)).toEqual([
      'made by',
      'gridemu 0.1.0 (commit 8dd27ef4bb0a, with tracked files changed), Node v20.20.2, linux x64, AMD EPYC x2',
    ]);
    // The jobs' digest comes just before, when the summary has one.
    const digest = 'ab'.repeat(32);
    expect(runFacts({ ...CLEAN, provenance, jobs_sha256: digest }).at(-2)).toEqual([
      'jobs submitted, SHA-256',
      `${digest} (the same in every run of these jobs)`,
    ]);
    expect(runFacts(CLEAN).find(([k]) => k === 'jobs submitted, SHA-256')).toBeUndefined();
    const { commit: _, modified: __, ...image } = provenance;
    expect(runFacts({ ...CLEAN, provenance: image }).at(-1)![1]).toBe(
      'gridemu 0.1.0 (commit unknown), Node v20.20.2, linux x64, AMD EPYC x2',
    );
  });

  it('has neither for a run that ended as it should', () => {
    const facts = runFacts(CLEAN);
    expect(facts[0]![0]).toBe('experiment');
    expect(facts).toContainEqual(['jobs', '10 submitted, 10 completed, 0 rejected']);
  });

  it("says a live run's speed-up, delays and fidelity guard, and that a run had no faults", () => {
    const live = {
      speedup: 5000,
      run_wall_s: 94.04,
      emulated_s: 469857.8,
      latency_ms: { count: 8270, mean_ms: 4.844, p95_ms: 9.955 },
      emulated_latency_mean_s: 24.22,
      timer_lag_ms: { mean_ms: 1.33, p95_ms: 3.091 },
      fidelity: {
        timescales: { 'meta.claim_timeout_s': 900, median_run_s: 774 },
        measured: { warnings: [], hop_s: 30.406, timer_lag_s: 6.65, share: 0.05 },
      },
    };
    const facts = runFacts({ ...CLEAN, live });
    expect(facts).toContainEqual(['faults', 'none injected']);
    expect(facts).toContainEqual(['live run', 'speed-up 5000: 94.0 s wall for 469858 emulated s']);
    expect(facts).toContainEqual([
      'one-way latency seen',
      'mean 4.84 wall ms (24.22 emulated s), p95 9.96 ms, over 8270 messages between processes',
    ]);
    expect(facts).toContainEqual(['timer lag', 'mean 1.33 wall ms, p95 3.09 ms']);
    expect(facts).toContainEqual([
      'fidelity guard',
      "quiet: one hop 30.41 emulated s, timer lag 6.65 s, small against the scheme's timeouts and periods (the shortest: median_run_s, 774 s)",
    ]);
    const warned = runFacts({
      ...CLEAN,
      live: { ...live, fidelity: { ...live.fidelity, measured: { ...live.fidelity.measured, warnings: ['late'] } } },
    });
    expect(warned[0]).toEqual(['FIDELITY WARNING', 'late']);
    expect(warned).toContainEqual(['fidelity guard', '1 warning, at the top of this table']);
    // A simulation has none of it.
    expect(runFacts({ ...CLEAN, mode: 'simulate' }).map(([k]) => k)).not.toContain('live run');
  });
});
