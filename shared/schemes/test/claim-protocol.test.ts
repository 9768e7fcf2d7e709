import { describe, expect, it } from 'vitest';
import { FRESH_TRAIL, type Job } from '@gridemu/model';
import { DualEasyPolicy } from '@gridemu/scheduling';
import { ClaimProtocol, type ClaimDecision, type ClaimProtocolOptions } from '../src/paper-001/claim-protocol.js';

/** A job from `origin`; site `b` is where the protocol under test runs. */
const job = (id: string, procs = 4, origin = 'a'): Job => ({
  id,
  workload: 'w',
  origin,
  submit_s: 0,
  run_s: 50,
  estimate_s: 100,
  procs,
});
const trail = { ...FRESH_TRAIL, copies: 3 };
const protocol = (o: Partial<ClaimProtocolOptions> = {}) =>
  new ClaimProtocol({ site: 'b', cpus: 8, claimTimeout_s: 5, mode: 'hold', ...o });
const copyOf = (j: Job) => ({
  kind: 'arrived' as const,
  job: j,
  queue: 'local' as const,
  claim: true,
  trail,
  sent: true,
});
/** Decisions without the counters, which each test checks where they matter. */
const acts = (ds: ClaimDecision[]) => ds.filter((d) => d.kind !== 'count');
const counts = (ds: ClaimDecision[]) => ds.flatMap((d) => (d.kind === 'count' ? [[d.name, d.by]] : []));

describe('claim protocol, site side (paper 001 §4, §7), hand-checked', () => {
  it('hold: a started copy keeps its processors, claims, and runs once granted, as a move from its origin', () => {
    const p = protocol();
    const J = job('a!1');
    expect(acts(p.handle(0, copyOf(J)))).toEqual([{ kind: 'enqueue', job: J, queue: 'local' }]);
    const claimed = p.handle(10, { kind: 'policy-started', jobId: 'a!1' });
    expect(claimed).toEqual([
      { kind: 'count', name: 'claims.sent', by: 1 },
      { kind: 'claim', jobId: 'a!1', origin: 'a', claimId: 1, timeout_s: 5 },
    ]);
    // Granted at 12: 4 processors were held 2 s; it runs, one copy of three, moved once.
    expect(p.handle(12, { kind: 'grant', jobId: 'a!1', claimId: 1 })).toEqual([
      { kind: 'count', name: 'claims.held_processor_s', by: 8 },
      { kind: 'run', job: J, trail: { copies: 3, migrations: 1, replans: 0 }, provisional: false },
    ]);
    expect(p.waitingCopies()).toEqual([]);
    expect(acts(p.handle(62, { kind: 'finished', jobId: 'a!1' }))).toEqual([{ kind: 'release', jobId: 'a!1' }]);
  });

  it('a job submitted here runs without a claim and is no move', () => {
    const p = protocol();
    const J = job('b!1', 2, 'b');
    p.handle(0, { kind: 'arrived', job: J, queue: 'local', claim: false, trail: FRESH_TRAIL, sent: false });
    expect(p.handle(0, { kind: 'policy-started', jobId: 'b!1' })).toEqual([
      { kind: 'run', job: J, trail: FRESH_TRAIL, provisional: false },
    ]);
  });

  it('a denial gives held processors back; a cancel of a queued copy takes it out of the queue', () => {
    const p = protocol();
    p.handle(0, copyOf(job('a!1')));
    p.handle(0, copyOf(job('a!2')));
    p.handle(1, { kind: 'policy-started', jobId: 'a!1' });
    expect(p.handle(3, { kind: 'deny', jobId: 'a!1', claimId: 1 })).toEqual([
      { kind: 'count', name: 'claims.denied_here', by: 1 },
      { kind: 'count', name: 'claims.held_processor_s', by: 8 },
      { kind: 'release', jobId: 'a!1' },
    ]);
    expect(acts(p.handle(4, { kind: 'cancel', jobId: 'a!2' }))).toEqual([{ kind: 'withdraw', jobId: 'a!2' }]);
    expect(p.waitingCopies()).toEqual([]);
    // A cancel for a copy already gone changes nothing but the count.
    expect(acts(p.handle(5, { kind: 'cancel', jobId: 'a!1' }))).toEqual([]);
  });

  it('the cancel delay: a copy dropped by a cancel reports how long it stayed after the grant elsewhere; a cancel that drops nothing reports none', () => {
    const p = protocol();
    p.handle(0, copyOf(job('a!1')));
    // Granted to another site at 3, the cancel lands here at 7.5: 4.5 s of delay.
    expect(p.handle(7.5, { kind: 'cancel', jobId: 'a!1', granted_s: 3 })).toEqual([
      { kind: 'count', name: 'copies.cancelled', by: 1 },
      { kind: 'withdraw', jobId: 'a!1' },
      { kind: 'observe', name: 'copies.cancel_delay_s', value: 4.5 },
    ]);
    // The same cancel again (a redelivery) finds no copy: nothing observed twice.
    expect(p.handle(8, { kind: 'cancel', jobId: 'a!1', granted_s: 3 })).toEqual([
      { kind: 'count', name: 'copies.cancelled', by: 1 },
    ]);
  });

  it('bug 1: a grant that comes after the claim timed out does not run the job on the processors given back, but the copy runs without claiming again', () => {
    // The copy claims at 0 (timeout 5), gives up at 5 and queues again. The late grant of claim 1
    // lands at 6: the processors it was for are gone, so nothing runs, but the semaphore is this
    // site's for good (the origin re-grants its holder). When the policy starts the copy again at
    // 7 it runs at once: no second claim, no second round trip.
    const p = protocol();
    const J = job('a!1');
    p.handle(0, copyOf(J));
    p.handle(0, { kind: 'policy-started', jobId: 'a!1' });
    expect(p.handle(5, { kind: 'timeout', jobId: 'a!1', claimId: 1 })).toEqual([
      { kind: 'count', name: 'claims.timed_out', by: 1 },
      { kind: 'count', name: 'claims.held_processor_s', by: 20 },
      { kind: 'release', jobId: 'a!1' },
      { kind: 'enqueue', job: J, queue: 'local' },
    ]);
    expect(p.handle(6, { kind: 'grant', jobId: 'a!1', claimId: 1 })).toEqual([
      { kind: 'count', name: 'claims.late_grants', by: 1 },
    ]);
    expect(p.waitingCopies()).toEqual(['a!1']);
    expect(acts(p.handle(7, { kind: 'policy-started', jobId: 'a!1' }))).toEqual([
      { kind: 'run', job: J, trail: { copies: 3, migrations: 1, replans: 0 }, provisional: false },
    ]);
    // A denial of the old claim, arriving now, must not drop the running job.
    expect(acts(p.handle(9, { kind: 'deny', jobId: 'a!1', claimId: 1 }))).toEqual([]);
    expect(p.waitingCopies()).toEqual([]);
  });

  it('a late grant that finds the copy claiming anew runs it on the processors the new claim holds', () => {
    // Claim 1 times out at 5 and the policy starts the copy again at once (claim 2, timeout 10).
    // Claim 1's grant lands at 6: the copy holds processors and the semaphore is this site's, so it
    // runs now. Claim 2's grant (7) and timer (15) then change nothing.
    const p = protocol();
    const J = job('a!1');
    p.handle(0, copyOf(J));
    p.handle(0, { kind: 'policy-started', jobId: 'a!1' });
    p.handle(5, { kind: 'timeout', jobId: 'a!1', claimId: 1 });
    expect(acts(p.handle(5, { kind: 'policy-started', jobId: 'a!1' }))).toEqual([
      { kind: 'claim', jobId: 'a!1', origin: 'a', claimId: 2, timeout_s: 10 },
    ]);
    expect(p.handle(6, { kind: 'grant', jobId: 'a!1', claimId: 1 })).toEqual([
      { kind: 'count', name: 'claims.late_grants', by: 1 },
      { kind: 'count', name: 'claims.held_processor_s', by: 4 },
      { kind: 'run', job: J, trail: { copies: 3, migrations: 1, replans: 0 }, provisional: false },
    ]);
    expect(acts(p.handle(7, { kind: 'grant', jobId: 'a!1', claimId: 2 }))).toEqual([]);
    expect(p.handle(15, { kind: 'timeout', jobId: 'a!1', claimId: 2 })).toEqual([]);
  });

  it('bug 2: a cancel that overtakes its copy on the wire drops the copy when it lands', () => {
    const p = protocol();
    expect(acts(p.handle(0, { kind: 'cancel', jobId: 'a!1' }))).toEqual([]);
    expect(p.handle(1, copyOf(job('a!1')))).toEqual([{ kind: 'count', name: 'copies.arrived_after_cancel', by: 1 }]);
    expect(p.waitingCopies()).toEqual([]);
  });

  it('bug 3: each retry waits twice as long, so a round trip longer than the timeout still gets its answer', () => {
    // A round trip of 12 s against a 5 s timeout: claims at 0 (5 s), 5 (10 s), 15 (20 s). The third
    // is answered at 27, inside its 20 s.
    const p = protocol();
    p.handle(0, copyOf(job('a!1')));
    const timeouts: number[] = [];
    const claim = (ds: ClaimDecision[]) =>
      ds.find((d) => d.kind === 'claim') as Extract<ClaimDecision, { kind: 'claim' }>;
    let c = claim(p.handle(0, { kind: 'policy-started', jobId: 'a!1' }));
    timeouts.push(c.timeout_s);
    for (const t of [5, 15]) {
      p.handle(t, { kind: 'timeout', jobId: 'a!1', claimId: c.claimId });
      c = claim(p.handle(t, { kind: 'policy-started', jobId: 'a!1' }));
      timeouts.push(c.timeout_s);
    }
    expect(timeouts).toEqual([5, 10, 20]);
    expect(acts(p.handle(27, { kind: 'grant', jobId: 'a!1', claimId: c.claimId }))[0]).toMatchObject({ kind: 'run' });
  });

  it('bug 4: dual-queue EASY gives remote copies only the spare processors local backfilling left', () => {
    // 10 CPUs. A (local, 6, est 100) runs; B (local, 8) is reserved at 100 with 2 spare. L (local,
    // 2, est 500) backfills onto the 2 spare processors. Then R (remote, 2, est 500) arrives: it
    // would fit the 2 free processors now, but they are not spare any more, so it must wait.
    const p = new DualEasyPolicy(10);
    const j = (id: string, procs: number, estimate_s: number) => ({ id, procs, estimate_s });
    p.submit(0, j('A', 6, 100), 'local');
    p.submit(1, j('B', 8, 50), 'local');
    expect(p.submit(2, j('L', 2, 500), 'local').map((x) => x.id)).toEqual(['L']);
    expect(p.submit(3, j('R', 2, 500), 'remote').map((x) => x.id)).toEqual([]);
  });

  it('optimistic: a copy runs at once and claims; a grant confirms it, a cancel kills it', () => {
    const p = protocol({ mode: 'optimistic' });
    const W = job('a!1');
    const L = job('a!2');
    p.handle(0, copyOf(W));
    p.handle(0, copyOf(L));
    expect(acts(p.handle(0, { kind: 'policy-started', jobId: 'a!1' }))).toEqual([
      { kind: 'run', job: W, trail: { copies: 3, migrations: 1, replans: 0 }, provisional: true },
      { kind: 'claim', jobId: 'a!1', origin: 'a', claimId: 1, timeout_s: 5 },
    ]);
    p.handle(0, { kind: 'policy-started', jobId: 'a!2' });
    expect(acts(p.handle(2, { kind: 'grant', jobId: 'a!1', claimId: 1 }))).toEqual([{ kind: 'confirm', jobId: 'a!1' }]);
    expect(acts(p.handle(2, { kind: 'cancel', jobId: 'a!2' }))).toEqual([{ kind: 'kill', jobId: 'a!2' }]);
  });

  it('optimistic: a short job that ends before its verdict waits for it; a timed-out verdict is asked for again', () => {
    const p = protocol({ mode: 'optimistic' });
    p.handle(0, copyOf(job('a!1')));
    p.handle(0, { kind: 'policy-started', jobId: 'a!1' });
    expect(acts(p.handle(1, { kind: 'finished', jobId: 'a!1' }))).toEqual([{ kind: 'release', jobId: 'a!1' }]);
    expect(acts(p.handle(5, { kind: 'timeout', jobId: 'a!1', claimId: 1 }))).toEqual([
      { kind: 'claim', jobId: 'a!1', origin: 'a', claimId: 2, timeout_s: 10 },
    ]);
    expect(acts(p.handle(6, { kind: 'grant', jobId: 'a!1', claimId: 2 }))).toEqual([{ kind: 'confirm', jobId: 'a!1' }]);
    // Confirmed after it ended: nothing is left of it here.
    expect(acts(p.handle(7, { kind: 'cancel', jobId: 'a!1' }))).toEqual([]);
  });

  it('a copy too wide for this site bows out; a job submitted here that is too wide is rejected', () => {
    const p = protocol();
    expect(p.handle(0, copyOf(job('a!1', 9)))).toEqual([{ kind: 'count', name: 'copies.too_wide', by: 1 }]);
    expect(
      p.handle(0, {
        kind: 'arrived',
        job: job('b!1', 9, 'b'),
        queue: 'local',
        claim: false,
        trail: FRESH_TRAIL,
        sent: false,
      }),
    ).toEqual([
      { kind: 'count', name: 'jobs.rejected.wider_than_site', by: 1 },
      { kind: 'reject', jobId: 'b!1', reason: 'wider_than_site' },
    ]);
    expect(counts(p.handle(0, copyOf(job('a!3', 8))))).toEqual([]);
  });

  it('refuses a start for a job that is not waiting here', () => {
    expect(() => protocol().handle(0, { kind: 'policy-started', jobId: 'nope' })).toThrow(/not waiting here/);
  });
});
