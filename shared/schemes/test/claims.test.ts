import { describe, expect, it } from 'vitest';
import type { Job } from '@gridemu/model';
import { DRIVER, MessageType, siteAddress, type Address, type Message } from '@gridemu/protocol';
import { SimRuntime, type Actor, type ActorContext, type SimFaults } from '@gridemu/runtime';
import { createLocalPolicy } from '@gridemu/scheduling';
import { ExecutorActor } from '../src/paper-001/executor-actor.js';
import { LocalSchedulerActor } from '../src/paper-001/local-scheduler-actor.js';
import { MetaschedulerActor } from '../src/paper-001/index.js';
import { Paper001MessageType } from '../src/index.js';

/** Sends each scripted message at its time (a stand-in for users and for the driver). */
class Script implements Actor<Message> {
  private readonly pending: { at: number; to: Address; msg: Message }[];
  constructor(items: { at: number; to: Address; msg: Message }[]) {
    this.pending = [...items].sort((a, b) => a.at - b.at);
  }
  start(ctx: ActorContext<Message>): void {
    for (const item of this.pending) ctx.schedule(item.at, item.msg);
  }
  receive(ctx: ActorContext<Message>): void {
    const item = this.pending.shift()!;
    ctx.send(item.to, item.msg);
  }
}

/** Collects what the sites report, in order, with the time. */
class Reports implements Actor<Message> {
  readonly log: { t: number; msg: Message }[] = [];
  receive(ctx: ActorContext<Message>, msg: Message): void {
    this.log.push({ t: ctx.now(), msg });
  }
  /** Where and when a job started (as reported, not when the report arrived), rounded to the microsecond. */
  starts(jobId: string) {
    return this.log
      .filter((e) => e.msg.type === MessageType.JobStarted && e.msg.jobId === jobId)
      .map((e) => ({
        t: Math.round((e.msg as { time_s: number }).time_s * 1e6) / 1e6,
        site: (e.msg as { site: string }).site,
      }));
  }
}

const job = (id: string, origin: string, procs: number, run_s: number, submit_s = 0): Job => ({
  id,
  workload: 'w',
  origin,
  submit_s,
  run_s,
  estimate_s: run_s,
  procs,
});

function grid(o: {
  sites: { id: string; cpus: number }[];
  latency_ms: number;
  k: number;
  timeout_s?: number;
  optimistic?: boolean;
  faults?: SimFaults;
  script: { at: number; to: Address; msg: Message }[];
  forger?: { address: Address; script: { at: number; to: Address; msg: Message }[] };
}) {
  const rt = new SimRuntime<Message>({
    seed: 1,
    network: { latency_ms: o.latency_ms, jitter_ms: 0 },
    ...(o.faults ? { faults: o.faults } : {}),
  });
  const reports = new Reports();
  const schedulers = new Map<string, LocalSchedulerActor>();
  rt.spawn({ address: DRIVER, location: undefined, actor: reports });
  rt.spawn({ address: 'script', location: undefined, actor: new Script(o.script) });
  if (o.forger)
    rt.spawn({
      address: o.forger.address,
      location: o.forger.address.split('/')[0],
      actor: new Script(o.forger.script),
    });
  for (const s of o.sites) {
    const scheduler = new LocalSchedulerActor(s.id, createLocalPolicy('easy', s.cpus), {
      claimTimeout_s: o.timeout_s ?? 5,
      claimMode: o.optimistic ? 'optimistic' : 'hold',
    });
    schedulers.set(s.id, scheduler);
    rt.spawn({
      address: siteAddress(s.id, 'meta'),
      location: s.id,
      actor: new MetaschedulerActor(s.id, { scheme: 'k-distributed', k: o.k, sites: o.sites }),
    });
    rt.spawn({ address: siteAddress(s.id, 'scheduler'), location: s.id, actor: scheduler });
    rt.spawn({ address: siteAddress(s.id, 'executor'), location: s.id, actor: new ExecutorActor(s.id, s.cpus) });
  }
  rt.start();
  rt.run();
  return { rt, reports, schedulers, counter: (name: string) => rt.counters.get(name) ?? 0 };
}

const submit = (j: Job) => ({
  at: j.submit_s,
  to: siteAddress(j.origin, 'meta'),
  msg: { type: MessageType.JobSubmit, job: j } as Message,
});
const direct = (j: Job) => ({
  at: j.submit_s,
  to: siteAddress(j.origin, 'scheduler'),
  msg: { type: MessageType.JobSubmit, job: j } as Message,
});

describe('K-distributed claims, scenario by scenario (10 ms or 1 s links)', () => {
  it('two sites claim the same job at the same instant: one is granted, the other denied and its copy dropped', () => {
    // J (4 CPUs) is too wide for its origin s0, so its two copies go to s1 and s2, arrive at
    // 100.01, start on both, and both claims reach s0 at 100.02. The first is granted (start at
    // 100.03); the second is denied, and s2 frees its 4 CPUs when the deny (or cancel) lands.
    const r = grid({
      sites: [
        { id: 's0', cpus: 2 },
        { id: 's1', cpus: 8 },
        { id: 's2', cpus: 8 },
      ],
      latency_ms: 10,
      k: 2,
      script: [submit(job('J', 's0', 4, 50, 100))],
    });
    expect(r.reports.starts('J')).toEqual([{ t: 100.03, site: 's1' }]);
    expect([
      r.counter('claims.sent'),
      r.counter('claims.granted'),
      r.counter('claims.denied'),
      r.counter('copies.cancels_sent'),
    ]).toEqual([2, 1, 1, 1]);
    expect(r.counter('claims.held_processor_s')).toBeCloseTo(4 * 0.02 + 4 * 0.02, 9);
    for (const s of r.schedulers.values()) expect(s.copiesHeld).toBe(0);
  });

  it('a cancel that crosses a claim on the wire: the job runs once and the loser frees its CPUs on the cancel', () => {
    // 1 s links. s0 is full with X until 1.5. J's copies: s0 (queued) and s1 (arrives at 1,
    // starts, claims: on the wire 1 -> 2). At 1.5 X ends, s0's own copy claims and wins at once,
    // and s0 sends s1 a cancel (on the wire 1.5 -> 2.5): it crosses s1's claim. s1's claim is
    // denied at 2; the cancel frees s1's CPUs at 2.5, where Y, waiting for all 8, starts; the
    // deny landing at 3 finds nothing left to drop.
    const r = grid({
      sites: [
        { id: 's0', cpus: 8 },
        { id: 's1', cpus: 8 },
      ],
      latency_ms: 1000,
      k: 2,
      script: [
        direct(job('X', 's0', 8, 1.5)),
        submit(job('J', 's0', 4, 10)),
        direct({ ...job('Y', 's1', 8, 5), submit_s: 1.2 }),
      ],
    });
    expect(r.reports.starts('J')).toEqual([{ t: 1.5, site: 's0' }]);
    expect(r.reports.starts('Y')).toEqual([{ t: 2.5, site: 's1' }]);
    expect(r.counter('claims.denied')).toBe(1);
    expect(r.counter('copies.cancelled')).toBe(1);
    // s1 held 4 CPUs from 1 to 2.5 while its claim was pending.
    expect(r.counter('claims.held_processor_s')).toBeCloseTo(4 * 1.5, 9);
  });

  it("a cancel from anyone but the job's origin is counted and ignored, before its copy lands or after (issue 11)", () => {
    // J (4 CPUs) is too wide for s0, so its one copy goes to s1 (lands 100.01, claims, granted,
    // starts 100.03). sX's metascheduler forges cancels for J at s1: one lands at 100.00, before
    // the copy, one at 100.02, while it claims. Neither counts; J runs once, at s1.
    const cancel = (at: number) => ({
      at,
      to: siteAddress('s1', 'scheduler'),
      msg: { type: Paper001MessageType.CopyCancel, jobId: 'J', granted_s: at } as Message,
    });
    const r = grid({
      sites: [
        { id: 's0', cpus: 2 },
        { id: 's1', cpus: 8 },
      ],
      latency_ms: 10,
      k: 1,
      script: [submit(job('J', 's0', 4, 50, 100))],
      forger: { address: siteAddress('sX', 'meta'), script: [cancel(99.99), cancel(100.01)] },
    });
    expect(r.reports.starts('J')).toEqual([{ t: 100.03, site: 's1' }]);
    // The early cancel is received (copies.cancelled counts cancels received) but judged when the copy lands.
    expect([
      r.counter('claims.not_from_origin'),
      r.counter('copies.cancelled'),
      r.counter('copies.arrived_after_cancel'),
    ]).toEqual([2, 1, 0]);
  });

  it('a claim whose answer never comes: the site gives the CPUs back after the timeout, retries, and runs the job once', () => {
    // The first grant is lost. s1 claims at 1, times out at 6, re-queues, re-claims at once (its
    // CPUs are free), s0 sees the same holder and grants again at 7; s1 starts at 8.
    let dropped = 0;
    const r = grid({
      sites: [
        { id: 's0', cpus: 2 },
        { id: 's1', cpus: 8 },
      ],
      latency_ms: 1000,
      k: 1,
      timeout_s: 5,
      faults: { drop: (_from, _to, msg) => msg.type === Paper001MessageType.ClaimGrant && dropped++ === 0 },
      script: [submit(job('J', 's0', 4, 10))],
    });
    expect(r.reports.starts('J')).toEqual([{ t: 8, site: 's1' }]);
    expect([
      r.counter('claims.timed_out'),
      r.counter('claims.granted'),
      r.counter('claims.regranted'),
      r.counter('messages.dropped'),
    ]).toEqual([1, 1, 1, 1]);
  });

  it('a grant that arrives after the timeout runs the job on the processors the retry holds', () => {
    // 3 s links (6 s round trip), 5 s timeout: claim 1 (sent at 3) is granted at 6 but the grant
    // lands at 9, after the timeout at 8; claim 2 (sent at 8, now waiting 10 s: retries back off)
    // is on the wire, its processors held. The late grant says s1 holds the semaphore for good, so
    // J runs at 9 on those processors; claim 2 is granted again, and its grant, landing at 14
    // when nothing waits for it, is a late grant too and changes nothing. J runs once.
    const r = grid({
      sites: [
        { id: 's0', cpus: 2 },
        { id: 's1', cpus: 8 },
      ],
      latency_ms: 3000,
      k: 1,
      timeout_s: 5,
      script: [submit(job('J', 's0', 4, 10))],
    });
    expect(r.reports.starts('J')).toEqual([{ t: 9, site: 's1' }]);
    expect([
      r.counter('claims.timed_out'),
      r.counter('claims.late_grants'),
      r.counter('claims.granted'),
      r.counter('claims.regranted'),
    ]).toEqual([1, 2, 1, 1]);
  });

  it('a winner that timed out keeps the semaphore: no other copy can win and cancel it (the lost-job case)', () => {
    // Found by the property test: with a 0.5 s timeout on 1 s links, s1 wins, times out, and must
    // still be the one to run J even though s2 claims in between; s2 is denied and cancelled.
    const r = grid({
      sites: [
        { id: 's0', cpus: 2 },
        { id: 's1', cpus: 8 },
        { id: 's2', cpus: 8 },
      ],
      latency_ms: 1000,
      k: 2,
      timeout_s: 0.5,
      script: [submit(job('J', 's0', 4, 10))],
    });
    const starts = r.reports.starts('J');
    expect(starts).toHaveLength(1);
    expect(starts[0]!.site).toBe('s1');
    for (const s of r.schedulers.values()) expect(s.copiesHeld).toBe(0);
  });

  it('optimistic: both copies start at once; the later starter is killed and its processor-seconds are wasted', () => {
    // As in the first scenario, but copies start without waiting: both start at 100.01. s1's
    // claim wins at 100.02; s2's is denied, and the deny (and the cancel) land at 100.03, when s2's
    // copy is killed after 0.02 s on 4 CPUs. J counts from s1's start, 100.01.
    const r = grid({
      sites: [
        { id: 's0', cpus: 2 },
        { id: 's1', cpus: 8 },
        { id: 's2', cpus: 8 },
      ],
      latency_ms: 10,
      k: 2,
      optimistic: true,
      script: [submit(job('J', 's0', 4, 50, 100))],
    });
    expect(r.reports.starts('J')).toEqual([{ t: 100.01, site: 's1' }]);
    expect(r.counter('optimistic.killed')).toBe(1);
    expect(r.counter('optimistic.wasted_processor_s')).toBeCloseTo(4 * 0.02, 9);
    const done = r.reports.log.filter((e) => e.msg.type === MessageType.JobCompleted);
    expect(done.map((e) => Math.round(e.t * 1e6) / 1e6)).toEqual([150.01]);
  });

  it('optimistic: a short job that ends before its verdict is reported only if it won', () => {
    // 1 s links; J runs 0.5 s. Both copies run to the end before any verdict lands; s1 wins and
    // reports start 1 and end 1.5 when the grant arrives at 3; s2's whole run is wasted.
    const r = grid({
      sites: [
        { id: 's0', cpus: 2 },
        { id: 's1', cpus: 8 },
        { id: 's2', cpus: 8 },
      ],
      latency_ms: 1000,
      k: 2,
      optimistic: true,
      script: [submit(job('J', 's0', 4, 0.5))],
    });
    expect(r.reports.starts('J')).toEqual([{ t: 1, site: 's1' }]);
    const done = r.reports.log.filter((e) => e.msg.type === MessageType.JobCompleted);
    expect(done.map((e) => [e.t, (e.msg as { time_s: number }).time_s])).toEqual([[3, 1.5]]);
    expect(r.counter('optimistic.wasted_processor_s')).toBeCloseTo(4 * 0.5, 9);
  });
});
