import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { finalState } from '@gridemu/metrics';
import type { Message } from '@gridemu/protocol';
import { SimRuntime } from '@gridemu/runtime';
import { LocalSchedulerActor, planGrid, simulate } from '../src/index.js';
import { arbitraryJobs, specOf } from './helpers.js';

const SITES = [{ id: 'a', cpus: 8 }, { id: 'b', cpus: 4 }, { id: 'c', cpus: 6 }, { id: 'd', cpus: 8 }];

describe('metascheduling schemes over random workloads, latencies and timeouts', () => {
  for (const scheme of ['centralized', 'hierarchical', 'distributed', 'k-distributed', 'k-dual'] as const) {
    it(`${scheme}: each job starts once, none is lost, no copy outlives its job, no site over capacity`, () => {
      fc.assert(
        fc.property(
          arbitraryJobs(['a', 'b', 'c', 'd'], 8, { maxJobs: 30 }),
          fc.integer({ min: 1, max: 4 }),
          fc.integer({ min: 0, max: 3000 }),
          fc.double({ min: 0.5, max: 10, noNaN: true }),
          fc.integer({ min: 1, max: 100 }),
          fc.constantFrom('hold' as const, 'optimistic' as const),
          (jobs, k, latency_ms, timeout_s, seed, claim) => {
            const spec = specOf({
              sites: SITES,
              seed,
              local: { policy: scheme === 'k-dual' ? 'dual-easy' : 'easy' },
              meta: { scheme, k, load_period_s: 7, claim_timeout_s: timeout_s, claim },
              network: { latency_ms, jitter_ms: latency_ms / 2 },
            });
            const runtime = new SimRuntime<Message>({ seed, network: spec.network });
            const plan = planGrid(spec, jobs);
            for (const p of plan.actors) runtime.spawn(p.address, p.site, p.actor);
            runtime.start();
            // A job started twice throws (driver and executor assert it); run to the last outcome.
            runtime.step(200_000, () => plan.driver.done);
            expect(plan.driver.done, 'the run did not finish within 200,000 deliveries (livelock?)').toBe(true);
            const records = plan.driver.records;
            for (const r of records) {
              expect(['COMPLETED_SUCCESSFULLY', 'REJECTED']).toContain(finalState(r));
              if (r.start_s !== undefined) {
                expect(r.start_s).toBeGreaterThanOrEqual(r.job.submit_s);
                expect(r.finish_s! - r.start_s).toBeCloseTo(r.job.run_s, 9);
              }
            }
            // Give every cancel and deny time to land (two worst-case trips), then no copy may be left.
            const settle = runtime.now() + 2 * (latency_ms * 1.5) / 1000 + 1e-6;
            runtime.step(Number.POSITIVE_INFINITY, () => runtime.now() > settle);
            for (const p of plan.actors) if (p.actor instanceof LocalSchedulerActor) expect(p.actor.copiesHeld).toBe(0);
            // Capacity, from the records.
            const events = records
              .filter((r) => r.start_s !== undefined)
              .flatMap((r) => [{ s: r.execSite!, t: r.start_s!, d: r.job.procs }, { s: r.execSite!, t: r.finish_s!, d: -r.job.procs }])
              .sort((x, y) => x.t - y.t || x.d - y.d);
            const used: Record<string, number> = {};
            for (const e of events) {
              used[e.s] = (used[e.s] ?? 0) + e.d;
              expect(used[e.s]!).toBeLessThanOrEqual(SITES.find((x) => x.id === e.s)!.cpus);
            }
          },
        ),
        { numRuns: 80 },
      );
    });
  }

  it('with latency 0 and K = 1, k-distributed schedules exactly like distributed', () => {
    fc.assert(
      fc.property(arbitraryJobs(['a', 'b', 'c', 'd'], 8, { maxJobs: 40 }), fc.integer({ min: 1, max: 120 }), (jobs, period) => {
        const run = (scheme: 'distributed' | 'k-distributed') =>
          simulate(specOf({ sites: SITES, meta: { scheme, k: 1, load_period_s: period, claim_timeout_s: 5, claim: 'hold' } }), jobs).records.map((r) => [
            r.job.id, r.start_s, r.execSite, finalState(r),
          ]);
        expect(run('k-distributed')).toEqual(run('distributed'));
      }),
      { numRuns: 100 },
    );
  });
});
