import { describe, expect, it } from 'vitest';
import {
  afterEstimation,
  enforceQueueLimits,
  MIGRATION_POLICIES,
  phi,
  processNewTask,
  type MigrationPolicy,
  type QueueLimits,
} from '../src/hierarchy/queue-limits.js';
import { complexityBound } from '../src/hierarchy/estimator.js';

/**
 * Paper 000's migration policies (Figures 1 and 2), each firing exactly when its condition holds.
 * The queue: N = 10 CPUs of P = 2 ops/s, β = 0.5, so φ(T) = 10 T; T_q = 100 s (C_q = 1000),
 * T_e = 50 s (C_e = 500), α = 0.1 (estimation for up to 5 s).
 */
const all = new Set<MigrationPolicy>(MIGRATION_POLICIES);
const queue = (policies: ReadonlySet<MigrationPolicy> = all, last = false): QueueLimits => ({
  T_q: 100,
  T_e: 50,
  N: 10,
  P: 2,
  beta: 0.5,
  alpha: 0.1,
  policies,
  last,
});
const without = (p: MigrationPolicy) => new Set(MIGRATION_POLICIES.filter((x) => x !== p));

describe('Eq. 1', () => {
  it('φ(T) = T · N · P · β', () => {
    expect(phi(100, queue())).toBe(1000);
    expect(phi(0.5, { N: 4, P: 3, beta: 0.25 })).toBe(1.5);
  });
});

describe('ProcessNewTask (Figure 1)', () => {
  it('overload: Q > C_q moves the new task on without estimating it; Q = C_q does not', () => {
    expect(processNewTask(queue(), 1001, undefined)).toEqual({ kind: 'migrate', policy: 'overload' });
    expect(processNewTask(queue(), 1000, undefined)).toEqual({ kind: 'estimate', for_s: 5 });
    expect(processNewTask(queue(all, true), 1001, 10)).toEqual({ kind: 'reject', policy: 'overload' });
    expect(processNewTask(queue(without('overload')), 5000, 10)).toEqual({ kind: 'invoke' });
  });

  it('estimates a task of unknown complexity, or one above C_e, for up to αT_e', () => {
    expect(processNewTask(queue(), 0, undefined)).toEqual({ kind: 'estimate', for_s: 5 });
    expect(processNewTask(queue(), 0, 501)).toEqual({ kind: 'estimate', for_s: 5 });
    expect(processNewTask(queue(), 0, 500)).toEqual({ kind: 'invoke' });
  });

  it('complexity mismatch: a bound above C_e moves the task on (rejects it at the last level); C_e itself fits', () => {
    expect(afterEstimation(queue(), 500.5)).toEqual({ kind: 'migrate', policy: 'complexity-mismatch' });
    expect(afterEstimation(queue(all, true), 500.5)).toEqual({ kind: 'reject', policy: 'complexity-mismatch' });
    expect(afterEstimation(queue(), 500)).toEqual({ kind: 'invoke' });
    expect(afterEstimation(queue(without('complexity-mismatch')), 1e9)).toEqual({ kind: 'invoke' });
  });
});

describe('EnforceQueueLimits (Figure 2)', () => {
  const task = (id: string, waited_s: number, executed_s: number, remaining: number) => ({
    id,
    waited_s,
    executed_s,
    remaining,
  });
  const idle = task('idle', 0, 0, 0);

  it('overdue: t_q > T_q or t_e > T_e; exactly at the limit is not overdue', () => {
    const r = enforceQueueLimits(queue(), [task('a', 101, 0, 0), task('b', 10, 51, 0), task('c', 100, 50, 0), idle]);
    expect(r.departures).toEqual([
      { id: 'a', departure: { kind: 'migrate', policy: 'overdue' } },
      { id: 'b', departure: { kind: 'migrate', policy: 'overdue' } },
    ]);
    expect(enforceQueueLimits(queue(all, true), [task('a', 101, 0, 0), idle]).departures).toEqual([
      { id: 'a', departure: { kind: 'terminate', policy: 'overdue' } },
    ]);
  });

  it('a task alone in the queue stays, however late, until another arrives', () => {
    expect(enforceQueueLimits(queue(), [task('a', 500, 500, 5000)])).toEqual({ Q: 5000, departures: [] });
  });

  it('task potential overdue: remaining C > φ(T_e − t_e) or > φ(T_q − t_q)', () => {
    // b: 40 s run, 10 s left of T_e buys 100; C = 101 > 100. c: 95 s waited, 5 s of T_q left buys 50; C = 51.
    // d: C = 100 with 10 s of T_e left: fits exactly.
    const r = enforceQueueLimits(queue(), [task('b', 40, 40, 101), task('c', 95, 0, 51), task('d', 40, 40, 100), idle]);
    expect(r.departures.map((d) => [d.id, d.departure.policy])).toEqual([
      ['b', 'task-potential-overdue'],
      ['c', 'task-potential-overdue'],
    ]);
    expect(r.Q).toBe(100);
    expect(
      enforceQueueLimits(queue(without('task-potential-overdue')), [task('b', 40, 40, 101), idle]).departures,
    ).toEqual([]);
  });

  it('queue potential overdue: once the work ahead plus C passes C_q, later tasks move on', () => {
    // Q after x and y is 900; z (C = 200) would make 1100 > 1000; w (C = 100) makes 1000 exactly.
    const r = enforceQueueLimits(queue(), [
      task('x', 0, 0, 450),
      task('y', 0, 0, 450),
      task('z', 0, 0, 200),
      task('w', 0, 0, 100),
    ]);
    expect(r.departures).toEqual([{ id: 'z', departure: { kind: 'migrate', policy: 'queue-potential-overdue' } }]);
    expect(r.Q).toBe(1000);
    const off = enforceQueueLimits(queue(without('queue-potential-overdue')), [
      task('x', 0, 0, 450),
      task('y', 0, 0, 450),
      task('z', 0, 0, 200),
    ]);
    expect(off).toEqual({ Q: 1100, departures: [] });
  });

  it('with every policy off, nothing ever leaves', () => {
    const none = new Set<MigrationPolicy>();
    expect(enforceQueueLimits(queue(none), [task('a', 1e6, 1e6, 1e9), task('b', 1e6, 0, 1e9)]).departures).toEqual([]);
    expect(processNewTask(queue(none), 1e9, 1e9)).toEqual({ kind: 'estimate', for_s: 5 });
    expect(afterEstimation(queue(none), 1e9)).toEqual({ kind: 'invoke' });
  });
});

describe('the complexity estimator (§3.2.2)', () => {
  it('starts k times too high and tightens towards the truth', () => {
    const p = { tau_s: 10 };
    expect(complexityBound(1000, 4, 0, p)).toBe(4000);
    expect(complexityBound(1000, 4, 10, p)).toBeCloseTo(1000 * (1 + 3 / Math.E), 9);
    expect(complexityBound(1000, 4, 1e6, p)).toBeCloseTo(1000, 9);
    expect(complexityBound(1000, 1, 5, p)).toBe(1000);
  });
});
