import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SharedResource } from '../src/dag/shared-resource.js';

/** Runs the resource to idle from `now_s`, stopping tasks as they finish; their finish times by id. */
function drain(r: SharedResource, now_s: number): Map<string, number> {
  const ends = new Map<string, number>();
  for (let t = r.nextFinish_s(now_s); t !== undefined; t = r.nextFinish_s(t)) {
    for (const id of r.finished(t)) {
      r.stop(t, id);
      ends.set(id, t);
    }
  }
  return ends;
}

describe('paper 003: a resource shared by its tasks (§3, §4)', () => {
  it('shares its MIPS among its dependent tasks, recomputed at each change (worked by hand)', () => {
    // 1000 MIPS. A (1000 MI) alone from 0. B (2000 MI) joins at 0.5 s: A has 500 MI left, each now
    // gets 500 MIPS, so A ends at 1.5 s; B has done 500 by then and runs its last 1500 MI alone: 3.0 s.
    const r = new SharedResource('r', 1000);
    r.start(0, 'A', 1000, false);
    expect(r.nextFinish_s(0)).toBe(1);
    r.start(0.5, 'B', 2000, false);
    expect(r.speed).toBe(500);
    expect(r.nextFinish_s(0.5)).toBe(1.5);
    expect(r.finished(1.5)).toEqual(['A']);
    expect(r.stop(1.5, 'A')).toBe(0);
    expect(r.running(1.5)).toEqual([{ id: 'B', initial: false, remaining_mi: 1500 }]);
    expect(r.nextFinish_s(1.5)).toBe(3);
  });

  it('does not count initial tasks: a dependent task preempts them, and they share what is left', () => {
    // 1000 MIPS: A (1000 MI, dependent) and I (100 MI, initial) from 0. A gets all 1000 MIPS and
    // ends at 1 s, as if alone; I stands still until then and runs its 100 MI alone: 1.1 s.
    const r = new SharedResource('r', 1000);
    r.start(0, 'A', 1000, false);
    r.start(0, 'I', 100, true);
    expect(r.speedIfJoined(false)).toBe(500);
    expect(r.speedIfJoined(true)).toBe(0);
    expect(r.initialSpeed).toBe(0);
    expect(Object.fromEntries(drain(r, 0))).toEqual({ A: 1, I: 1.1 });
    // Two initial tasks alone share 200 MIPS: I1's 100 MI at 100 MIPS end at 1 s; I2 has 200 MI
    // left then, alone at 200 MIPS: 2 s.
    const q = new SharedResource('q', 200);
    q.start(0, 'I1', 100, true);
    q.start(0, 'I2', 300, true);
    expect(q.speedIfJoined(true)).toBeCloseTo(200 / 3);
    expect(Object.fromEntries(drain(q, 0))).toEqual({ I1: 1, I2: 2 });
  });

  it("keeps an interrupted initial task's work: it resumes where it stood", () => {
    // 500 MIPS. I (1000 MI, initial) alone for 1 s: 500 MI left. D (250 MI) arrives: I stands still
    // until D ends at 1.5 s, then I ends 1 s later. Stopped at 2 s, I has 250 MI left to take along.
    const r = new SharedResource('r', 500);
    r.start(0, 'I', 1000, true);
    r.start(1, 'D', 250, false);
    expect(r.running(1.2).map((t) => [t.id, t.initial, Math.round(t.remaining_mi * 1e6) / 1e6])).toEqual([
      ['I', true, 500],
      ['D', false, 150],
    ]);
    expect(r.nextFinish_s(1.2)).toBeCloseTo(1.5);
    expect(r.finished(1.5)).toEqual(['D']);
    r.stop(1.5, 'D');
    expect(r.nextFinish_s(1.5)).toBeCloseTo(2.5);
    expect(r.stop(2, 'I')).toBeCloseTo(250);
    expect(r.nextFinish_s(2)).toBeUndefined();
  });

  it('gives back the work a stopped task had left (what a checkpoint keeps)', () => {
    const r = new SharedResource('r', 400);
    r.start(10, 'A', 1000, false);
    r.start(10, 'B', 1000, false);
    expect(r.stop(12, 'A')).toBe(600); // 2 s at 200 MIPS
    expect(r.nextFinish_s(12)).toBe(13.5); // B: 600 MI left, alone at 400 MIPS: 1.5 s
  });

  it("starts its clock when first asked, before 0 too (a live run's clock starts ahead of its first job)", () => {
    const r = new SharedResource('r', 100);
    r.start(-3000, 'A', 100, false);
    expect(r.nextFinish_s(-3000)).toBe(-2999);
    expect(r.finished(-2999)).toEqual(['A']);
  });

  it('counts its busy time: while a task has work left, not after (worked by hand)', () => {
    // 1000 MIPS. Idle until A (1000 MI, initial) starts at 2 s. D (500 MI) joins at 2.5 s: A stands
    // still, D ends at 3 s, A has 500 MI left and ends at 3.5 s. Asked about 5 s before A is
    // stopped, the resource was busy from 2 to 3.5 s: 1.5 s, not the 3 s it held a task.
    const r = new SharedResource('r', 1000, 0);
    r.start(2, 'A', 1000, true);
    expect(r.takeBusy_s()).toBe(0);
    r.start(2.5, 'D', 500, false);
    expect(r.finished(3)).toEqual(['D']);
    r.stop(3, 'D');
    expect(r.takeBusy_s()).toBe(1);
    expect(r.running(5)).toEqual([{ id: 'A', initial: true, remaining_mi: -1500 }]);
    expect(r.takeBusy_s()).toBe(0.5);
    r.stop(5, 'A');
    expect(r.takeBusy_s()).toBe(0);
  });

  it('refuses what cannot happen, naming the task', () => {
    const r = new SharedResource('r', 100);
    r.start(5, 'A', 10, false);
    expect(() => r.start(6, 'A', 10, false)).toThrow(/task A started twice on resource r/);
    expect(() => r.stop(6, 'B')).toThrow(/task B is not running on resource r/);
    expect(() => r.nextFinish_s(4)).toThrow(/asked about 4 s after 6 s/);
    expect(() => new SharedResource('z', 0)).toThrow(/resource z: MIPS must be positive/);
  });

  it('conserves work: dependent tasks alone are done in exactly the time the resource is busy', () => {
    // Processor sharing is work-conserving: whatever the arrivals, the MI done equals MIPS times the
    // time at least one task ran, and no task ends before its work could have been done alone.
    const arrival = fc.record({
      gap_s: fc.double({ min: 0, max: 5, noNaN: true }),
      work_mi: fc.integer({ min: 1, max: 5000 }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 4000 }),
        fc.array(arrival, { minLength: 1, maxLength: 12 }),
        (mips, arrivals) => {
          const r = new SharedResource('r', mips);
          const start = new Map<string, number>();
          const ends = new Map<string, number>();
          let busy_s = 0;
          let busySince: number | undefined;
          let now = 0;
          const runUntil = (t: number) => {
            for (let next = r.nextFinish_s(now); next !== undefined && next <= t; next = r.nextFinish_s(now)) {
              now = next;
              for (const id of r.finished(now)) {
                r.stop(now, id);
                ends.set(id, now);
              }
              if (r.size === 0 && busySince !== undefined) {
                busy_s += now - busySince;
                busySince = undefined;
              }
            }
            now = Math.max(now, t);
          };
          arrivals.forEach((a, i) => {
            runUntil(now + a.gap_s);
            if (busySince === undefined) busySince = now;
            r.start(now, `t${i}`, a.work_mi, false);
            start.set(`t${i}`, now);
          });
          runUntil(Number.POSITIVE_INFINITY);
          const work = arrivals.reduce((s, a) => s + a.work_mi, 0);
          expect(ends.size).toBe(arrivals.length);
          expect(busy_s * mips).toBeCloseTo(work, 3);
          // Its own count of its busy time is the same.
          expect(r.takeBusy_s()).toBeCloseTo(busy_s, 6);
          expect(r.takeBusy_s()).toBe(0);
          arrivals.forEach((a, i) =>
            expect(ends.get(`t${i}`)! - start.get(`t${i}`)!).toBeGreaterThanOrEqual(a.work_mi / mips - 1e-9),
          );
        },
      ),
    );
  });
});
