import { describe, expect, it } from 'vitest';
import type { Job } from '@gridemu/model';
import { StartQueryRound } from '../src/paper-001/start-query-round.js';

const job = (id: string, procs: number, origin = 'b'): Job => ({
  id,
  workload: 'w',
  origin,
  submit_s: 0,
  run_s: 10,
  estimate_s: 20,
  procs,
});
const sites = [
  { id: 'a', cpus: 4 },
  { id: 'b', cpus: 8 },
  { id: 'c', cpus: 8 },
];

describe('hierarchical query round (paper 001 §2.1.2), hand-checked', () => {
  it('asks every site wide enough, then places the job at the earliest answer (ties: grid order)', () => {
    const r = new StartQueryRound({ sites, timeout_s: 30 });
    const J = job('w!1', 6);
    expect(r.submit(J)).toEqual([
      { kind: 'ask', queryId: 1, site: 'b', job: J },
      { kind: 'ask', queryId: 1, site: 'c', job: J },
      { kind: 'wait', queryId: 1, timeout_s: 30 },
    ]);
    expect(r.answer(1, 'c', 100)).toEqual([]);
    expect(r.answer(1, 'b', 100)).toEqual([{ kind: 'place', queryId: 1, job: J, site: 'b', cancelTimer: true }]);
    expect(r.open).toBe(0);
    // The timer that was cancelled, should it still fire, and a late or repeated answer change nothing.
    expect(r.timeout(1)).toEqual([]);
    expect(r.answer(1, 'c', 5)).toEqual([{ kind: 'count', name: 'queries.late_answers' }]);
  });

  it('one lost estimate does not hang the job: on timeout it goes to the best answer in hand', () => {
    const r = new StartQueryRound({ sites, timeout_s: 30 });
    const J = job('w!1', 2, 'a');
    r.submit(J);
    r.answer(1, 'c', 50);
    r.answer(1, 'a', 70);
    expect(r.timeout(1)).toEqual([
      { kind: 'count', name: 'queries.timed_out' },
      { kind: 'place', queryId: 1, job: J, site: 'c', cancelTimer: false },
    ]);
  });

  it('with no answer at all it goes to its origin if the origin fits it, else to the first site that does', () => {
    const r = new StartQueryRound({ sites, timeout_s: 30 });
    r.submit(job('w!1', 2, 'c'));
    r.submit(job('w!2', 6, 'a'));
    expect(r.timeout(1).find((d) => d.kind === 'place')).toMatchObject({ site: 'c' });
    expect(r.timeout(2).find((d) => d.kind === 'place')).toMatchObject({ site: 'b' });
  });

  it('hands a job no site can hold to its origin, which rejects it', () => {
    const J = job('w!1', 9);
    expect(new StartQueryRound({ sites, timeout_s: 30 }).submit(J)).toEqual([{ kind: 'forward-to-origin', job: J }]);
  });
});
