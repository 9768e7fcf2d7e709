import { describe, expect, it } from 'vitest';
import { expectedCompletion_s, pushTarget, smoothAvailability, type QueueView } from '../src/hierarchy/load-sharing.js';

const params = { history_weight: 0.75, min_pending_jobs: 10, margin: 0.2 };
const view = (id: string, available_cpus: number, workload_ahead: number, N = 100): QueueView => ({
  id,
  available_cpus,
  N,
  P: 1,
  beta: 1,
  workload_ahead,
});

describe('push load sharing between queues of one level (paper 000 §3.3), hand-checked', () => {
  it('averages availability with its history', () => {
    expect(smoothAvailability(undefined, 40, params)).toBe(40);
    expect(smoothAvailability(40, 80, params)).toBe(50); // 0.75 · 40 + 0.25 · 80
  });

  it('expects completion from the work ahead and the task, at the CPUs it can get (at most N)', () => {
    expect(expectedCompletion_s({ remaining: 1000 }, view('q', 50, 4000))).toBe(100);
    expect(expectedCompletion_s({ remaining: 1000 }, view('q', 500, 0, 20))).toBe(50);
    expect(expectedCompletion_s({ remaining: 1 }, view('q', 0, 0))).toBe(Infinity);
  });

  it('pushes a whole task to the queue that finishes it soonest, if that beats staying by the margin', () => {
    const task = { remaining: 1000, pending_jobs: 50 };
    const here = view('q2', 10, 0); // 100 s here
    // q3: 1000 / 20 = 50 s; q4: (1000 + 500) / 50 = 30 s; both beat 100 · 0.8 = 80 s; q4 is soonest.
    expect(pushTarget(task, here, [view('q3', 20, 0), view('q4', 50, 500)], params)).toBe('q4');
    // 85 s is sooner, but not by the 20% margin.
    expect(pushTarget(task, here, [view('q3', 1000 / 85, 0)], params)).toBeUndefined();
    // The target reassesses on arrival: from q4's side, staying (30 s) beats going back (100 s).
    expect(pushTarget(task, view('q4', 50, 500), [here], params)).toBeUndefined();
  });

  it('never moves a task with few pending jobs', () => {
    expect(
      pushTarget({ remaining: 1000, pending_jobs: 9 }, view('q2', 1, 0), [view('q3', 100, 0)], params),
    ).toBeUndefined();
    expect(pushTarget({ remaining: 1000, pending_jobs: 10 }, view('q2', 1, 0), [view('q3', 100, 0)], params)).toBe(
      'q3',
    );
  });
});
