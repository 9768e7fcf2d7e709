import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkSchedule, describeScheduleCheck, finalState } from '@gridemu/metrics';
import type { Message } from '@gridemu/protocol';
import { SimRuntime } from '@gridemu/runtime';
import { LocalSchedulerActor } from '../src/paper-001/local-scheduler-actor.js';
import { planGrid, simulate } from '../src/index.js';
import { arbitraryJobs, specOf } from './helpers.js';

const SITES = [
  { id: 'a', cpus: 8 },
  { id: 'b', cpus: 4 },
  { id: 'c', cpus: 6 },
  { id: 'd', cpus: 8 },
];

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
          fc.boolean(),
          (rawJobs, k, latency_ms, timeout_s, seed, claim, transfer) => {
            // With a transfer cost, every job carries 100 MB: 8 s to move at 100 Mbps.
            const jobs = transfer ? rawJobs.map((j) => ({ ...j, memory_mb: 100 })) : rawJobs;
            const spec = specOf({
              sites: SITES,
              seed,
              local: { policy: scheme === 'k-dual' ? 'dual-easy' : 'easy' },
              meta: { scheme, k, load_period_s: 7, claim_timeout_s: timeout_s, claim },
              network: {
                latency_ms,
                jitter_ms: latency_ms / 2,
                ...(transfer ? { transfer: { bandwidth_mbps: 100, memory_mb_min: 100, memory_mb_max: 100 } } : {}),
              },
            });
            const runtime = new SimRuntime<Message>({ seed, network: spec.network });
            const plan = planGrid(spec, jobs);
            for (const p of plan.actors) runtime.spawn(p);
            runtime.start();
            // A job started twice throws (driver and executor assert it). Deliver one message at a
            // time; after each, no site may still hold a waiting copy of a job that started longer
            // ago than two worst-case trips (time for the cancel, or the deny, to land).
            const settle_s = (2 * latency_ms * 1.5) / 1000 + 1e-6;
            const byId = new Map(plan.driver.records.map((r) => [r.job.id, r]));
            const schedulers = plan.actors.flatMap((p) => (p.actor instanceof LocalSchedulerActor ? [p.actor] : []));
            let deliveries = 0;
            while (!plan.driver.done && deliveries++ < 200_000 && runtime.step(1)) {
              for (const s of schedulers) {
                for (const id of s.waitingCopies()) {
                  const started = byId.get(id)!.start_s;
                  if (started !== undefined)
                    expect(
                      runtime.now() - started,
                      `a copy of ${id} outlived its start at ${s.siteId}`,
                    ).toBeLessThanOrEqual(settle_s);
                }
              }
            }
            expect(plan.driver.done, 'the run did not finish within 200,000 deliveries (livelock?)').toBe(true);
            const records = plan.driver.records;
            for (const r of records) {
              expect(['COMPLETED_SUCCESSFULLY', 'REJECTED']).toContain(finalState(r));
              if (r.start_s !== undefined) {
                expect(r.start_s).toBeGreaterThanOrEqual(r.job.submit_s);
                expect(r.finish_s! - r.start_s).toBeCloseTo(r.job.run_s, 9);
              }
            }
            // Give the last cancels and denies time to land, then no copy may be left at all.
            const settle = runtime.now() + settle_s;
            runtime.step(Number.POSITIVE_INFINITY, () => runtime.now() > settle);
            for (const p of plan.actors) if (p.actor instanceof LocalSchedulerActor) expect(p.actor.copiesHeld).toBe(0);
            // Capacity, from the records.
            const events = records
              .filter((r) => r.start_s !== undefined)
              .flatMap((r) => [
                { s: r.execSite!, t: r.start_s!, d: r.job.procs },
                { s: r.execSite!, t: r.finish_s!, d: -r.job.procs },
              ])
              .sort((x, y) => x.t - y.t || x.d - y.d);
            const used: Record<string, number> = {};
            for (const e of events) {
              used[e.s] = (used[e.s] ?? 0) + e.d;
              expect(used[e.s]!).toBeLessThanOrEqual(SITES.find((x) => x.id === e.s)!.cpus);
            }
            // No processor id holds two jobs at once (the check every live run makes).
            const executed = records
              .filter((r) => r.start_s !== undefined)
              .map((r) => ({
                jobId: r.job.id,
                site: r.execSite!,
                procs: r.job.procs,
                start_s: r.start_s!,
                finish_s: r.finish_s!,
                resources: r.resources!,
              }));
            expect(describeScheduleCheck(checkSchedule(executed, new Map(SITES.map((x) => [x.id, x.cpus]))))).toEqual(
              [],
            );
            // What the actors reported doing: copies only to sites the job fits, at most K; one move at most.
            for (const r of records.filter((x) => x.start_s !== undefined)) {
              const fits = SITES.filter((x) => x.cpus >= r.job.procs).length;
              expect(r.copies, `copies of ${r.job.id}`).toBe(scheme.startsWith('k-') ? Math.min(k, fits) : 1);
              expect(r.migrations, `migrations of ${r.job.id}`).toBe(r.execSite === r.job.origin ? 0 : 1);
              expect(r.replans).toBe(0);
            }
          },
        ),
        { numRuns: 80 },
      );
    });
  }

  it('a job that runs away from its origin starts only after its memory has moved (paper 001 §7)', () => {
    // J (6 CPUs, 250 MB) fits only at b. Centralized: central gets it at 10, dispatches at once;
    // the start reaches b 10 ms later, then 250 MB at 10 Mbps take 200 s: J computes from 210.01.
    // K (3 CPUs) then fits only its own site a (b has 2 left): no transfer.
    const jobs = [
      { id: 'w!J', workload: 'w', origin: 'a', submit_s: 10, run_s: 30, estimate_s: 60, procs: 6, memory_mb: 250 },
      { id: 'w!K', workload: 'w', origin: 'a', submit_s: 10, run_s: 30, estimate_s: 60, procs: 3, memory_mb: 250 },
    ];
    const spec = specOf({
      sites: [
        { id: 'a', cpus: 4 },
        { id: 'b', cpus: 8 },
      ],
      meta: { scheme: 'centralized', k: 1, load_period_s: 60, claim_timeout_s: 5, claim: 'hold' },
      network: {
        latency_ms: 10,
        jitter_ms: 0,
        transfer: { bandwidth_mbps: 10, memory_mb_min: 100, memory_mb_max: 1000 },
      },
    });
    const r = simulate(spec, jobs);
    const [j, k] = r.records;
    expect([j!.execSite, j!.start_s, j!.finish_s]).toEqual(['b', 210.01, 240.01]);
    expect(k!.execSite).toBe('a');
    expect(k!.start_s).toBeCloseTo(10.01, 9);
    expect(r.counters['transfers']).toBe(1);
  });

  it('hierarchical: a lost estimate does not hang the run; the round times out and places the job', () => {
    const jobs = [
      { id: 'w!1', workload: 'w', origin: 'a', submit_s: 0, run_s: 10, estimate_s: 20, procs: 2 },
      { id: 'w!2', workload: 'w', origin: 'b', submit_s: 5, run_s: 10, estimate_s: 20, procs: 2 },
    ];
    const spec = specOf({
      sites: SITES,
      meta: { scheme: 'hierarchical', k: 1, load_period_s: 60, claim_timeout_s: 5, claim: 'hold' },
      network: { latency_ms: 10, jitter_ms: 0 },
    });
    let dropped = 0;
    const runtime = new SimRuntime<Message>({
      seed: 1,
      network: spec.network,
      faults: { drop: (_f, _t, m) => m.type === 'start.estimate' && dropped++ === 0 },
    });
    const plan = planGrid(spec, jobs);
    for (const p of plan.actors) runtime.spawn(p);
    runtime.start();
    runtime.step(Number.POSITIVE_INFINITY, () => plan.driver.done);
    expect(plan.driver.done).toBe(true);
    expect(runtime.counters.get('queries.timed_out')).toBe(1);
    // w!1's round lost one of four answers: placed when its 60 s timeout fired, not before.
    expect(plan.driver.records[0]!.start_s).toBeCloseTo(60.01, 6);
    expect(plan.driver.records[1]!.start_s).toBeCloseTo(5.03, 6);
  });

  it('reports no moves under unified and independent, whatever runs where', () => {
    fc.assert(
      fc.property(arbitraryJobs(['a', 'b', 'c', 'd'], 4, { maxJobs: 30 }), (jobs) => {
        for (const scheme of ['unified', 'independent'] as const) {
          const records = simulate(
            specOf({ sites: SITES, meta: { scheme, k: 1, load_period_s: 60, claim_timeout_s: 5, claim: 'hold' } }),
            jobs,
          ).records;
          for (const r of records) expect([r.copies, r.migrations, r.replans]).toEqual([1, 0, 0]);
        }
      }),
      { numRuns: 30 },
    );
  });

  it('with latency 0 and K = 1, k-distributed schedules exactly like distributed', () => {
    fc.assert(
      fc.property(
        arbitraryJobs(['a', 'b', 'c', 'd'], 8, { maxJobs: 40 }),
        fc.integer({ min: 1, max: 120 }),
        (jobs, period) => {
          const run = (scheme: 'distributed' | 'k-distributed') =>
            simulate(
              specOf({
                sites: SITES,
                meta: { scheme, k: 1, load_period_s: period, claim_timeout_s: 5, claim: 'hold' },
              }),
              jobs,
            ).records.map((r) => [r.job.id, r.start_s, r.execSite, finalState(r)]);
          expect(run('k-distributed')).toEqual(run('distributed'));
        },
      ),
      { numRuns: 100 },
    );
  });
});
