import { describe, expect, it } from 'vitest';
import type { Job } from '@gridemu/model';
import { parseExperiment } from '@gridemu/schemes';
import { fidelityEstimateLines } from '../src/live/fidelity-estimate.js';

const job = (i: number, run_s: number): Job => ({
  id: `j${i}`,
  workload: 'w',
  origin: 's1',
  submit_s: i * 100,
  run_s,
  estimate_s: run_s,
  procs: 1,
});

/** Paper 001's K-distributed scheme: a claim times out after 200 s, loads go out every 300 s. */
function spec(speedup: number, latency_ms: number) {
  return parseExperiment(
    `name: guard
seed: 1
sites: [{ id: s1, cpus: 8 }, { id: s2, cpus: 8 }]
workload: [{ site: s1, synthetic: { jobs: 10 } }]
meta: { scheme: k-distributed, k: 2, claim_timeout_s: 200, load_period_s: 300 }
network: { latency_ms: ${latency_ms} }
live: { speedup: ${speedup} }
`,
    'guard.yaml',
  ).spec;
}

describe('the fidelity estimate gridemu run says before it starts the processes', () => {
  const jobs = [1, 2, 3].map((i) => job(i, 4000));

  it('names what the link latency alone takes too large a share of, and the speed-up that keeps within it', () => {
    // 10 ms at 5000x is 50 emulated s: 25% of the 200 s claim timeout, 17% of the 300 s load period.
    expect(fidelityEstimateLines(spec(5000, 10), jobs)).toEqual([
      'FIDELITY WARNING, estimated from the experiment file before the run:',
      '  - one hop takes at least the link latency, 50 emulated s at speed-up 5000: more than 5% of ' +
        'meta.claim_timeout_s (200 s), meta.load_period_s (300 s)',
      "  - speed-up 1000 or lower keeps within them (summary.live.fidelity has the guard's verdicts, the bus measured)",
    ]);
  });

  it('says nothing when the latency is a small share of everything at this speed-up', () => {
    // 10 ms at 500x is 5 emulated s: 2.5% of the claim timeout.
    expect(fidelityEstimateLines(spec(500, 10), jobs)).toEqual([]);
    expect(fidelityEstimateLines(spec(5000, 0), jobs)).toEqual([]);
  });
});
