import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Job, SchedulableJob } from '@gridemu/model';
import { finalState, type JobRecord } from '@gridemu/metrics';
import { DRIVER, siteAddress, type Message } from '@gridemu/protocol';
import { SimRuntime } from '@gridemu/runtime';
import { createLocalPolicy, type LocalPolicy, type QueueKind, type Reservation } from '@gridemu/scheduling';
import { DriverActor } from '@gridemu/actors';
import { ExecutorActor } from '../src/paper-001/executor-actor.js';
import { LocalSchedulerActor } from '../src/paper-001/local-scheduler-actor.js';
import { simulate, LOAD_TOPIC } from '../src/index.js';
import { MetaschedulerActor } from '../src/paper-001/index.js';
import { arbitraryJobs, specOf } from './helpers.js';

/** Checks the invariants every run must keep; returns nothing, throws on the first broken one. */
function checkRun(records: readonly JobRecord[], jobs: readonly Job[], capacity: Record<string, number>): void {
  // Every job has exactly one record, and every one that could run ran to the end.
  expect(records.map((r) => r.job.id)).toEqual(jobs.map((j) => j.id));
  for (const r of records) {
    if (finalState(r) === 'REJECTED') continue;
    expect(finalState(r)).toBe('COMPLETED_SUCCESSFULLY');
    expect(r.start_s!).toBeGreaterThanOrEqual(r.job.submit_s);
    expect(r.finish_s! - r.start_s!).toBe(r.job.run_s);
  }
  // No site ever over capacity: sweep starts and finishes (a finish frees before a start at the same time).
  const events: { site: string; t: number; d: number }[] = [];
  for (const r of records) {
    if (r.start_s === undefined) continue;
    events.push(
      { site: r.execSite!, t: r.start_s, d: r.job.procs },
      { site: r.execSite!, t: r.finish_s!, d: -r.job.procs },
    );
  }
  events.sort((a, b) => a.t - b.t || a.d - b.d);
  const used: Record<string, number> = {};
  for (const e of events) {
    used[e.site] = (used[e.site] ?? 0) + e.d;
    expect(used[e.site]!).toBeLessThanOrEqual(capacity[e.site]!);
  }
}

describe('simulation invariants over random workloads', () => {
  for (const policy of ['fcfs', 'easy', 'dual-easy'] as const) {
    it(`${policy}, independent sites with latency: no job lost, none early, no site over capacity`, () => {
      fc.assert(
        fc.property(arbitraryJobs(['a', 'b', 'c'], 8), fc.integer({ min: 0, max: 50 }), (jobs, latency) => {
          const spec = specOf({
            sites: [
              { id: 'a', cpus: 8 },
              { id: 'b', cpus: 4 },
              { id: 'c', cpus: 6 },
            ],
            local: { policy },
            network: { latency_ms: latency, jitter_ms: latency / 2 },
          });
          const result = simulate(spec, jobs);
          checkRun(result.records, jobs, { a: 8, b: 4, c: 6 });
          // Jobs wider than their origin site are rejected, never dropped.
          for (const r of result.records) {
            const cpus = { a: 8, b: 4, c: 6 }[r.job.origin as 'a' | 'b' | 'c'];
            expect(finalState(r) === 'REJECTED').toBe(r.job.procs > cpus);
          }
        }),
        { numRuns: 60 },
      );
    });
  }

  it('unified: one site with all CPUs runs every stream', () => {
    fc.assert(
      fc.property(arbitraryJobs(['a', 'b'], 12), (jobs) => {
        const spec = specOf({
          sites: [
            { id: 'a', cpus: 8 },
            { id: 'b', cpus: 4 },
          ],
          meta: { scheme: 'unified', k: 1, load_period_s: 60, claim_timeout_s: 5, claim: 'hold' },
        });
        const result = simulate(spec, jobs);
        checkRun(result.records, jobs, { unified: 12 });
        expect(new Set(result.records.map((r) => r.execSite))).toEqual(new Set(['unified']));
      }),
      { numRuns: 60 },
    );
  });
});

/** Wraps a policy and remembers, for each job, the reservation it got when it first became the head. */
class ReservationLog implements LocalPolicy {
  readonly firstReservation = new Map<string, number>();
  constructor(private readonly inner: LocalPolicy) {}
  get name() {
    return this.inner.name;
  }
  get cpus() {
    return this.inner.cpus;
  }
  get free() {
    return this.inner.free;
  }
  get queued() {
    return this.inner.queued;
  }
  get running() {
    return this.inner.running;
  }
  private note<T>(out: T): T {
    const r = this.inner.reservation();
    if (r && !this.firstReservation.has(r.jobId)) this.firstReservation.set(r.jobId, r.start_s);
    return out;
  }
  submit(now: number, job: SchedulableJob, queue?: QueueKind) {
    return this.note(this.inner.submit(now, job, queue));
  }
  finish(now: number, id: string) {
    return this.note(this.inner.finish(now, id));
  }
  withdraw(now: number, id: string) {
    return this.note(this.inner.withdraw(now, id));
  }
  requeue(now: number, job: SchedulableJob, queue?: QueueKind, held?: boolean) {
    return this.note(this.inner.requeue(now, job, queue, held));
  }
  reservation(): Reservation | undefined {
    return this.inner.reservation();
  }
  backlog_s(now: number) {
    return this.inner.backlog_s(now);
  }
  expectedStart(now: number, job: SchedulableJob) {
    return this.inner.expectedStart(now, job);
  }
}

describe("EASY's reservation is never delayed when estimates are exact", () => {
  it('every job starts no later than the reservation it got as queue head', () => {
    fc.assert(
      fc.property(arbitraryJobs(['s'], 10, { exact: true, maxJobs: 60 }), (jobs) => {
        const runtime = new SimRuntime<Message>({ seed: 1, network: { latency_ms: 0, jitter_ms: 0 } });
        const policy = new ReservationLog(createLocalPolicy('easy', 10));
        const driver = new DriverActor(jobs, () => siteAddress('s', 'scheduler'));
        runtime.spawn({ address: DRIVER, location: undefined, actor: driver });
        runtime.spawn({
          address: siteAddress('s', 'scheduler'),
          location: 's',
          actor: new LocalSchedulerActor('s', policy),
        });
        runtime.spawn({ address: siteAddress('s', 'executor'), location: 's', actor: new ExecutorActor('s', 10) });
        runtime.start();
        runtime.run();
        checkRun(driver.records, jobs, { s: 10 });
        for (const r of driver.records) {
          const reserved = policy.firstReservation.get(r.job.id);
          if (reserved !== undefined) expect(r.start_s!).toBeLessThanOrEqual(reserved);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('dual queue: remote jobs never delay the reserved local head', () => {
    // Replays submissions and exact-estimate completions straight into the policy.
    const arb = fc.array(
      fc.record({
        t: fc.integer({ min: 0, max: 300 }),
        run: fc.integer({ min: 1, max: 100 }),
        procs: fc.integer({ min: 1, max: 10 }),
        remote: fc.boolean(),
      }),
      { minLength: 1, maxLength: 60 },
    );
    fc.assert(
      fc.property(arb, (raw) => {
        const log = new ReservationLog(createLocalPolicy('dual-easy', 10));
        const subs = raw.sort((a, b) => a.t - b.t).map((r, i) => ({ ...r, id: `j${i}` }));
        const ends: { t: number; id: string }[] = [];
        const start: Record<string, number> = {};
        const started = (t: number, js: SchedulableJob[]) =>
          js.forEach((j) => {
            start[j.id] = t;
            ends.push({ t: t + j.estimate_s, id: j.id });
          });
        let i = 0;
        while (i < subs.length || ends.length > 0) {
          ends.sort((a, b) => a.t - b.t);
          const nextSub = subs[i];
          if (nextSub && (ends.length === 0 || nextSub.t <= ends[0]!.t)) {
            i++;
            started(
              nextSub.t,
              log.submit(
                nextSub.t,
                { id: nextSub.id, procs: nextSub.procs, estimate_s: nextSub.run },
                nextSub.remote ? 'remote' : 'local',
              ),
            );
          } else {
            const e = ends.shift()!;
            started(e.t, log.finish(e.t, e.id));
          }
        }
        for (const s of subs) {
          if (s.remote) continue;
          expect(start[s.id]).toBeDefined();
          const reserved = log.firstReservation.get(s.id);
          if (reserved !== undefined) expect(start[s.id]!).toBeLessThanOrEqual(reserved);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('k-dual, whole system: a local job starts no later than its local reservation plus one claim round trip', () => {
    // Through the real metaschedulers, claims and executors, with exact estimates. A remote copy
    // holds its CPUs while its claim travels to its origin and back, then runs its full time, so it
    // ends one claim round trip later than the local policy planned: that, and only that, may push
    // back the reservation a local head got at its own site (docs/metascheduling.md).
    fc.assert(
      fc.property(
        arbitraryJobs(['a', 'b', 'c'], 8, { exact: true, maxJobs: 50 }),
        fc.integer({ min: 0, max: 40 }),
        (jobs, latency_ms) => {
          const sites = [
            { id: 'a', cpus: 8 },
            { id: 'b', cpus: 6 },
            { id: 'c', cpus: 8 },
          ];
          const runtime = new SimRuntime<Message>({ seed: 1, network: { latency_ms, jitter_ms: 0 } });
          const driver = new DriverActor(jobs, (j) => siteAddress(j.origin, 'meta'));
          runtime.spawn({ address: DRIVER, location: undefined, actor: driver });
          const logs = new Map<string, ReservationLog>();
          for (const site of sites) {
            const log = new ReservationLog(createLocalPolicy('dual-easy', site.cpus));
            logs.set(site.id, log);
            runtime.spawn({
              address: siteAddress(site.id, 'meta'),
              location: site.id,
              topics: [LOAD_TOPIC],
              actor: new MetaschedulerActor(site.id, { scheme: 'k-dual', k: 2, sites }),
            });
            runtime.spawn({
              address: siteAddress(site.id, 'scheduler'),
              location: site.id,
              actor: new LocalSchedulerActor(site.id, log, { gossip: true, loadPeriod_s: 13 }),
            });
            runtime.spawn({
              address: siteAddress(site.id, 'executor'),
              location: site.id,
              actor: new ExecutorActor(site.id, site.cpus),
            });
          }
          runtime.start();
          runtime.step(500_000, () => driver.done);
          expect(driver.done).toBe(true);
          for (const r of driver.records) {
            if (r.execSite !== r.job.origin) continue;
            const reserved = logs.get(r.job.origin)!.firstReservation.get(r.job.id);
            const claimRoundTrip_s = (2 * latency_ms) / 1000;
            if (reserved !== undefined) expect(r.start_s!).toBeLessThanOrEqual(reserved + claimRoundTrip_s + 1e-9);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
