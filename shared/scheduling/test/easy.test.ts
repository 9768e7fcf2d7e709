import { describe, expect, it } from 'vitest';
import { DualEasyPolicy, EasyPolicy, FcfsPolicy } from '../src/index.js';

const job = (id: string, procs: number, estimate_s: number) => ({ id, procs, estimate_s });
const ids = (jobs: { id: string }[]) => jobs.map((j) => j.id);

describe('EASY backfilling, hand-checked', () => {
  it('backfills a job into the hole before the head reservation', () => {
    // 10 CPUs. A (6 CPUs, est 100) runs from 0. B (8) cannot start: it is reserved at t=100,
    // when 10 are free, leaving 2 spare. C (4 CPUs, est 90) fits in the 4 free CPUs and ends at
    // 92 <= 100, so it starts now without delaying B.
    const p = new EasyPolicy(10);
    expect(ids(p.submit(0, job('A', 6, 100)))).toEqual(['A']);
    expect(ids(p.submit(1, job('B', 8, 50)))).toEqual([]);
    expect(p.reservation()).toEqual({ jobId: 'B', start_s: 100, spare: 2 });
    expect(ids(p.submit(2, job('C', 4, 90)))).toEqual(['C']);
    expect(p.free).toBe(0);
  });

  it('does not backfill a job that would delay the head, but does one that uses only spare CPUs', () => {
    // Same start. C (4 CPUs, est 200) would run to 202 > 100 on 4 CPUs but only 2 are spare
    // at 100: starting it would delay B, so it waits. D (2 CPUs, est 500) runs past 100 too,
    // but on the 2 spare CPUs only, so it starts.
    const p = new EasyPolicy(10);
    p.submit(0, job('A', 6, 100));
    p.submit(1, job('B', 8, 50));
    expect(ids(p.submit(2, job('C', 4, 200)))).toEqual([]);
    expect(ids(p.submit(3, job('D', 2, 500)))).toEqual(['D']);
    // With D on the spare CPUs, nothing else may run past 100: E (2 CPUs, est 200) waits.
    expect(ids(p.submit(4, job('E', 2, 200)))).toEqual([]);
    // A ends at 100 as estimated: B starts (8 of the 8 free), C and E still wait.
    expect(ids(p.finish(100, 'A'))).toEqual(['B']);
  });

  it('fills the hole an early completion opens', () => {
    // R1 and R2 (5 CPUs each, est 100) fill 10 CPUs. H (10, est 10) is reserved at 100. C (5,
    // est 30) cannot start: no CPU is free. R1 ends early at 20: H is still reserved at 100
    // (R2 holds 5 CPUs until then), and C now fits and ends at 50 <= 100: it backfills.
    const p = new EasyPolicy(10);
    p.submit(0, job('R1', 5, 100));
    p.submit(0, job('R2', 5, 100));
    expect(ids(p.submit(1, job('H', 10, 10)))).toEqual([]);
    expect(ids(p.submit(2, job('C', 5, 30)))).toEqual([]);
    expect(ids(p.finish(20, 'R1'))).toEqual(['C']);
    expect(p.reservation()).toEqual({ jobId: 'H', start_s: 100, spare: 0 });
  });

  it('counts every job ending at the reservation instant as spare', () => {
    // 12 CPUs; X (4), Y (4) and Z (2) all run until 100, so 2 are free. H (6) gets its CPUs at
    // 100 once X ends, but Y and Z end at that same instant: 12 - 6 = 6 CPUs are spare, and a
    // long 2-CPU job may start now. (Counting only X's gives spare 0 and disagreed with pyss.)
    const q = new EasyPolicy(12);
    q.submit(0, job('X', 4, 100));
    q.submit(0, job('Y', 4, 100));
    q.submit(0, job('Z', 2, 100));
    q.submit(1, job('H', 6, 10));
    expect(q.reservation()).toEqual({ jobId: 'H', start_s: 100, spare: 6 });
    expect(ids(q.submit(2, job('L', 2, 1000)))).toEqual(['L']);
  });

  it('withdraws a queued job and schedules again', () => {
    const p = new EasyPolicy(4);
    p.submit(0, job('A', 4, 100));
    p.submit(1, job('B', 4, 10));
    expect(p.withdraw(2, 'B')).toEqual({ removed: true, starts: [] });
    expect(p.withdraw(2, 'B').removed).toBe(false);
    expect(p.queued).toBe(0);
  });

  it('treats a job sent to its remote queue as an ordinary arrival (only dual-queue EASY keeps them apart)', () => {
    expect(ids(new EasyPolicy(8).submit(0, job('R', 8, 10), 'remote'))).toEqual(['R']);
    expect(ids(new FcfsPolicy(8).submit(0, job('R', 8, 10), 'remote'))).toEqual(['R']);
  });

  it('refuses a job wider than the site (the site must reject it first)', () => {
    expect(() => new EasyPolicy(4).submit(0, job('W', 5, 10))).toThrow(/needs 5 processors; this site has 4/);
  });
});

describe('FCFS versus EASY on the same small workload', () => {
  // 4 CPUs. J1 (2, 10 s) at 0; J2 (4, 5 s) at 1; J3 (2, 5 s) at 2; J4 (1, 20 s) at 3; exact estimates.
  // FCFS: J2 waits for J1 (starts 10), J3 and J4 wait behind it (start 15).
  // EASY: J2 is reserved at 10 with no spare CPUs; J3 ends at 7 <= 10 and backfills at 2; J4
  //       (ends at 23 > 10) cannot, and starts when J2 ends at 15.
  const events = (p: FcfsPolicy | EasyPolicy) => {
    const starts: Record<string, number> = {};
    const at = (t: number, started: { id: string }[]) => started.forEach((j) => (starts[j.id] = t));
    at(0, p.submit(0, job('J1', 2, 10)));
    at(1, p.submit(1, job('J2', 4, 5)));
    at(2, p.submit(2, job('J3', 2, 5)));
    at(3, p.submit(3, job('J4', 1, 20)));
    if (starts['J3'] === 2) at(7, p.finish(7, 'J3'));
    at(10, p.finish(10, 'J1'));
    at(15, p.finish(15, 'J2'));
    return starts;
  };
  it('FCFS keeps order', () => expect(events(new FcfsPolicy(4))).toEqual({ J1: 0, J2: 10, J3: 15, J4: 15 }));
  it('EASY backfills J3', () => expect(events(new EasyPolicy(4))).toEqual({ J1: 0, J2: 10, J3: 2, J4: 15 }));
});

describe('dual-queue EASY (paper 001 Figure 7)', () => {
  it('holds back a remote job that would delay the reserved local head', () => {
    // 10 CPUs. Local A (6, est 100) runs; local B (8) is reserved at 100 with 2 spare.
    // Remote R (4 CPUs, est 200) fits now but would delay B: held back.
    // Remote S (4 CPUs, est 50) ends at 52 <= 100: starts.
    const p = new DualEasyPolicy(10);
    p.submit(0, job('A', 6, 100), 'local');
    p.submit(1, job('B', 8, 50), 'local');
    expect(ids(p.submit(2, job('R', 4, 200), 'remote'))).toEqual([]);
    expect(ids(p.submit(2, job('S', 4, 50), 'remote'))).toEqual(['S']);
  });

  it('gives no reservation to a remote head: a later local job overtakes it', () => {
    // Remote W (10 CPUs) waits behind running A. Local L (4 CPUs, est 1000) then starts at once.
    // Under plain EASY, W as queue head would hold a reservation and L (no spare CPUs) would wait.
    const dual = new DualEasyPolicy(10);
    dual.submit(0, job('A', 6, 100), 'local');
    dual.submit(1, job('W', 10, 10), 'remote');
    expect(ids(dual.submit(2, job('L', 4, 1000), 'local'))).toEqual(['L']);

    const easy = new EasyPolicy(10);
    easy.submit(0, job('A', 6, 100));
    easy.submit(1, job('W', 10, 10));
    expect(ids(easy.submit(2, job('L', 4, 1000)))).toEqual([]);
  });

  it('does not let a remote job reuse spare CPUs a local backfill already took (found by the property test)', () => {
    // 10 CPUs. A (10, est 47) runs until 201. At 201 A ends: B (4, est 2) starts; C (7) is
    // reserved at 203 with 3 spare. Local D (1, est 15) and E (2, est 15) backfill onto those 3
    // spare CPUs. Remote R (1, est 37) would end at 238 > 203 and no spare CPU is left: it waits,
    // and C starts at 203 as reserved.
    const p = new DualEasyPolicy(10);
    p.submit(154, job('A', 10, 47), 'local');
    p.submit(182, job('B', 4, 2), 'local');
    p.submit(184, job('R', 1, 37), 'remote');
    p.submit(186, job('C', 7, 27), 'local');
    p.submit(201, job('D', 1, 15), 'local');
    p.submit(201, job('E', 2, 15), 'local');
    expect(ids(p.finish(201, 'A'))).toEqual(['B', 'D', 'E']);
    expect(p.reservation()).toMatchObject({ jobId: 'C', start_s: 203 });
    expect(ids(p.finish(203, 'B'))).toEqual(['C']);
  });

  it('lets local jobs backfill before remote ones', () => {
    // 10 CPUs, A (8, est 100) runs; 2 CPUs free. Remote R (2, est 10) arrived first, then local
    // L (2, est 10); both fit, but at the pass after A ends early the local one goes first.
    const p = new DualEasyPolicy(10);
    p.submit(0, job('A', 10, 100), 'local');
    p.submit(1, job('R', 2, 10), 'remote');
    p.submit(2, job('L', 2, 10), 'local');
    expect(ids(p.finish(5, 'A'))).toEqual(['L', 'R']);
  });
});
