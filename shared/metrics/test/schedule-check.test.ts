import { describe, expect, it } from 'vitest';
import { InputError } from '@gridemu/model';
import { checkSchedule, executedJobsFromCsv, parseIntervalSet, type ExecutedJob } from '../src/index.js';

const job = (jobId: string, start_s: number, finish_s: number, resources: string, site = 's1'): ExecutedJob => ({
  jobId,
  site,
  start_s,
  finish_s,
  resources,
  procs: parseIntervalSet(resources)!.length,
});
const cpus = new Map([
  ['s1', 8],
  ['s2', 4],
]);

describe('schedule check (issue 16)', () => {
  it('passes back-to-back jobs on the same processors, and jobs side by side', () => {
    const c = checkSchedule(
      [job('a', 0, 10, '0-3'), job('b', 10, 20, '0-3'), job('c', 5, 15, '4-7'), job('d', 0, 5, '0-3', 's2')],
      cpus,
    );
    expect(c.ok).toBe(true);
    expect(c.jobs_checked).toBe(4);
  });

  it("names the two jobs and the processor when one job starts inside another's interval on its ids", () => {
    // Issue 16's first example, scaled down: the second job runs wholly inside the first, on its ids.
    const c = checkSchedule([job('s1!171', 100, 300, '0-3 6'), job('s1!199', 150, 170, '2-5')], cpus);
    expect(c.ok).toBe(false);
    expect(c.processor_overlaps_total).toBe(2);
    expect(c.processor_overlaps[0]).toEqual({
      site: 's1',
      processor: 2,
      jobs: ['s1!171', 's1!199'],
      from_s: 150,
      to_s: 170,
    });
  });

  it('reports the busiest instant of a site over its CPU count, with the jobs running then', () => {
    const c = checkSchedule(
      [job('a', 0, 10, '0-3', 's2'), job('b', 5, 8, '0-1', 's2'), job('c', 6, 7, '2', 's2')],
      cpus,
    );
    expect(c.over_capacity).toEqual([{ site: 's2', cpus: 4, busy: 7, at_s: 6, jobs: ['a', 'b', 'c'] }]);
  });

  it('flags ends before starts, ids that do not match the request, and ids outside the site', () => {
    const c = checkSchedule(
      [
        job('back', 10, 5, '0'),
        { jobId: 'short', site: 's1', procs: 3, start_s: 0, finish_s: 1, resources: '0-1' },
        job('outside', 0, 1, '8', 's1'),
        job('garbled', 0, 1, '0', 's1'),
      ].map((j) => (j.jobId === 'garbled' ? { ...j, resources: '0-x' } : j)),
      cpus,
    );
    expect(c.ok).toBe(false);
    expect(c.malformed).toEqual([
      'back at s1: finishes (5) before it starts (10)',
      'short at s1: holds 2 processor ids but asked for 3',
      "outside at s1: holds a processor id outside s1's 0-7",
      'garbled at s1: processor ids "0-x" are not an interval set',
    ]);
  });

  it('reads what it checks from jobs.csv text, leaving out jobs that never started', () => {
    const csv = [
      'job_id,workload_name,submission_time,requested_number_of_resources,requested_time,success,final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,allocated_resources,origin_site,exec_site,copies,migrations,replans,vo,group',
      'w!1,w,0,2,10,1,COMPLETED_SUCCESSFULLY,0,5,5,0,5,1,0-1,s1,s1,1,0,0,,',
      'w!2,w,0,2,10,0,REJECTED,,,,,,,,s1,,1,0,0,,',
      '"w!3,x",w,0,1,10,1,COMPLETED_SUCCESSFULLY,1,2,3,1,3,1.5,2,s1,s2,1,1,0,,',
    ].join('\n');
    expect(executedJobsFromCsv(csv)).toEqual([
      { jobId: 'w!1', site: 's1', procs: 2, start_s: 0, finish_s: 5, resources: '0-1' },
      { jobId: 'w!3,x', site: 's2', procs: 1, start_s: 1, finish_s: 3, resources: '2' },
    ]);
    expect(() => executedJobsFromCsv('job_id\nx', 'r/jobs.csv')).toThrow(
      'r/jobs.csv:1: no column "requested_number_of_resources"',
    );
    // A file cut short: its last row's missing fields would read as a job that never started.
    const cut = csv.split('\n').slice(0, 3).join('\n') + '\n' + csv.split('\n')[3]!.slice(0, 40);
    expect(() => executedJobsFromCsv(cut, 'r/jobs.csv')).toThrow(
      new InputError('r/jobs.csv:4: 7 fields, the header has 21'),
    );
    const garbled = csv.replace(',0,5,5,0,5,', ',0,5,five,0,5,');
    expect(() => executedJobsFromCsv(garbled, 'r/jobs.csv')).toThrow(
      new InputError('r/jobs.csv:2: finish_time "five" is not a number'),
    );
  });
});
