import { describe, expect, it } from 'vitest';
import { AvailabilityProfile, EasyPolicy } from '@gridemu/scheduling';
import { CentralEasy } from '../src/paper-001/central-easy.js';
import { JobSemaphore } from '../src/paper-001/job-semaphore.js';
import { greedyTarget, leastLoadedSites } from '../src/paper-001/site-selection.js';

const job = (id: string, procs: number, estimate_s: number) => ({ id, procs, estimate_s });

describe('site selection from gossiped loads', () => {
  const sites = ['a', 'b', 'c', 'd'];
  it('picks the K least loaded, ties to the origin then the sites after it', () => {
    const loads = new Map([
      ['a', 5],
      ['b', 1],
      ['c', 1],
      ['d', 0],
    ]);
    expect(leastLoadedSites(sites, loads, 2, 'a')).toEqual(['d', 'b']);
    expect(leastLoadedSites(sites, loads, 3, 'c')).toEqual(['d', 'c', 'b']);
    // Nothing heard yet: all idle, so the origin first, then round from it.
    expect(leastLoadedSites(sites, new Map(), 3, 'c')).toEqual(['c', 'd', 'a']);
  });
  it('greedy moves a job only to a strictly less loaded site', () => {
    expect(
      greedyTarget(
        sites,
        new Map([
          ['a', 2],
          ['b', 2],
          ['c', 2],
          ['d', 3],
        ]),
        'a',
      ),
    ).toBe('a');
    // A site not heard from yet counts as idle.
    expect(
      greedyTarget(
        sites,
        new Map([
          ['a', 2],
          ['b', 2],
        ]),
        'a',
      ),
    ).toBe('c');
    expect(
      greedyTarget(
        sites,
        new Map([
          ['a', 2],
          ['b', 1],
          ['c', 3],
          ['d', 3],
        ]),
        'a',
      ),
    ).toBe('b');
  });
});

describe('the job semaphore', () => {
  it('grants the first claim, re-grants its holder, denies everyone else for good', () => {
    const s = new JobSemaphore(['a', 'b', 'c']);
    expect(s.claim('b')).toBe('grant');
    expect(s.losers('b')).toEqual(['a', 'c']);
    expect(s.claim('a')).toBe('deny');
    expect(s.claim('b')).toBe('regrant');
    expect(s.heldBy).toBe('b');
  });

  it('withdraws a copy before anyone wins: its claim is denied, the others may still win', () => {
    const s = new JobSemaphore(['a', 'b', 'c']);
    expect(s.withdraw('b')).toBe('withdrawn');
    expect(s.withdraw('x')).toBe('unknown');
    expect(s.copies).toEqual(['a', 'c']);
    expect(s.claim('b')).toBe('deny');
    expect(s.claim('c')).toBe('grant');
    expect(s.losers('c')).toEqual(['a']);
    expect(s.withdraw('a')).toBe('held');
  });
});

describe('availability profile and expected start', () => {
  it('finds the earliest window for a job after the queued jobs are placed', () => {
    // 10 CPUs: 6 busy until 100, 2 more until 50. Free: 2 now, 4 from 50, 10 from 100.
    const p = new AvailabilityProfile(0, 2, [
      { id: 'x', procs: 2, end_s: 50 },
      { id: 'y', procs: 6, end_s: 100 },
    ]);
    expect(p.earliestStart(2, 1000)).toBe(0);
    expect(p.earliestStart(4, 10)).toBe(50);
    expect(p.earliestStart(5, 10)).toBe(100);
    p.reserve(50, 4, 100); // 4 CPUs 50..150: free 2, 0 from 50, 6 from 100, 10 from 150
    expect(p.earliestStart(3, 10)).toBe(100);
    expect(p.earliestStart(8, 10)).toBe(150);
    expect(p.earliestStart(1, 60)).toBe(100); // [0, 60) crosses the full 50..100 step
  });

  it('answers what EASY would do for a job arriving now, without changing anything', () => {
    const e = new EasyPolicy(10);
    e.submit(0, job('A', 6, 100));
    e.submit(1, job('B', 8, 50)); // waits: reserved at 100
    expect(e.expectedStart(2, job('Q', 4, 10))).toBe(2); // fits now and ends by 100
    expect(e.expectedStart(2, job('Q', 4, 500))).toBe(150); // would delay B: after B
    expect(e.queued).toBe(1);
  });
});

describe('centralized EASY across sites, hand-checked', () => {
  it('starts heads at the fullest site that fits, reserves the head at the earliest site, backfills elsewhere', () => {
    const c = new CentralEasy([
      { id: 's1', cpus: 8 },
      { id: 's2', cpus: 4 },
    ]);
    // A (4) fits both: goes to the fuller-after-fit site s2 (4 free < 8 free).
    expect(c.submit(0, job('A', 4, 100))).toEqual([{ jobId: 'A', site: 's2' }]);
    // B (6) fits s1 only.
    expect(c.submit(0, job('B', 6, 50))).toEqual([{ jobId: 'B', site: 's1' }]);
    // C (8) fits s1 only, which frees at 50: reserved there at 50 with no spare.
    expect(c.submit(1, job('C', 8, 10))).toEqual([]);
    expect(c.headReservation()).toEqual({ jobId: 'C', start_s: 50, spare: 0, site: 's1' });
    // D (2, long) may not run past 50 on s1, which has 2 free: it waits, as s2 is full.
    expect(c.submit(2, job('D', 2, 500))).toEqual([]);
    // E (2, short) ends by 50 on s1: backfills there.
    expect(c.submit(3, job('E', 2, 40))).toEqual([{ jobId: 'E', site: 's1' }]);
    // E and B end; C takes s1 at 50; when C ends, D runs on s1 (s2 is busy with A until 100).
    expect(c.finish(43, 'E')).toEqual([]);
    expect(c.finish(50, 'B')).toEqual([{ jobId: 'C', site: 's1' }]);
    expect(c.finish(60, 'C')).toEqual([{ jobId: 'D', site: 's1' }]);
  });
});
