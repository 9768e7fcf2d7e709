import { describe, expect, it } from 'vitest';
import type { Job } from '@gridemu/model';
import { jobCategories, jobsCsvRow, newRecord, summarize, type JobRecord } from '../src/index.js';

const job = (id: string, origin: string, submit_s: number, run_s: number, procs: number): Job => ({
  id,
  workload: 'w',
  origin,
  submit_s,
  run_s,
  estimate_s: run_s * 2,
  procs,
});
const ran = (j: Job, start: number, site: string): JobRecord => ({
  ...newRecord(j),
  start_s: start,
  finish_s: start + j.run_s,
  execSite: site,
  resources: '0-1',
});

describe('summary metrics, hand-checked', () => {
  // a: submitted 0, waits 10, runs 5  -> turnaround 15, slowdown 3, bounded max(1, 15/10) = 1.5
  // b: submitted 5, waits 0, runs 100 -> turnaround 100, slowdown 1, bounded 1
  // c: rejected.
  const a = ran(job('a', 'x', 0, 5, 2), 10, 'x');
  const b = ran(job('b', 'y', 5, 100, 16), 5, 'x');
  const c: JobRecord = { ...newRecord(job('c', 'y', 7, 1, 99)), rejectReason: 'wider_than_site' };
  // d: given up by its scheme after it was re-planned twice.
  const d: JobRecord = {
    ...newRecord({ ...job('d', 'y', 3, 1, 1), vo: 'ivdgl', group: 'g1' }),
    failReason: 'retry_limit:gram',
    failed_s: 50,
    replans: 2,
  };
  const s = summarize(
    [a, b, c, d],
    [
      { id: 'x', cpus: 20 },
      { id: 'y', cpus: 20 },
    ],
  );

  it('computes waits, slowdowns, makespan, flowtime and utilization', () => {
    expect(s.jobs).toEqual({
      submitted: 4,
      completed: 2,
      rejected: 1,
      failed: 1,
      unfinished: 0,
      rejected_by_reason: { wider_than_site: 1 },
      failed_by_reason: { 'retry_limit:gram': 1 },
    });
    expect(s.mean_wait_s).toBe(5);
    expect(s.mean_turnaround_s).toBe(57.5);
    expect(s.mean_slowdown).toBe(2);
    expect(s.mean_bounded_slowdown).toBe(1.25);
    expect(s.makespan_s).toBe(105); // last finish 105 - first submit 0
    expect(s.flowtime_s).toBe(115);
    // x ran 2*5 + 16*100 = 1610 processor-seconds of 20 * 105; y ran nothing.
    expect(s.utilization.per_site).toEqual({ x: 0.766667, y: 0 });
    expect(s.utilization.overall).toBe(0.383333);
  });

  it("breaks results down by origin and by paper 001's categories", () => {
    expect(s.by_origin_site['x']).toEqual({
      jobs: 1,
      mean_wait_s: 10,
      mean_turnaround_s: 15,
      mean_slowdown: 3,
      mean_bounded_slowdown: 1.5,
    });
    expect(s.categories.narrow_short.jobs).toBe(1);
    expect(s.categories.very_short_narrow.jobs).toBe(1);
    expect(s.categories.wide_short.jobs).toBe(1);
    expect(jobCategories(8, 3600)).toEqual(['narrow_short']);
    expect(jobCategories(9, 3601)).toEqual(['wide_long']);
    expect(jobCategories(7, 899)).toEqual(['narrow_short', 'very_short_narrow']);
  });

  it('writes a Batsim-compatible row; a job that never started has empty times', () => {
    expect(jobsCsvRow(a)).toBe('a,w,0,2,10,1,COMPLETED_SUCCESSFULLY,10,5,15,10,15,3,0-1,x,x,1,0,0,,,,0,');
    expect(jobsCsvRow(newRecord(job('q', 'x', 1.5, 3, 1)))).toBe(
      'q,w,1.5,1,6,0,COMPLETED_KILLED,,,,,,,,x,,1,0,0,,,,0,',
    );
  });

  it('names the DAG a task belongs to, in the last column', () => {
    const t = newRecord({ ...job('tor!0/p1', 'x', 0, 4, 1), dag: 'tor!0' });
    expect(jobsCsvRow(t).split(',').at(-1)).toBe('tor!0');
  });

  it('says why a job was rejected or given up, in the reason column', () => {
    expect(jobsCsvRow(c)).toBe('c,w,7,99,2,0,REJECTED,,,,,,,,y,,1,0,0,,,wider_than_site,0,');
    expect(jobsCsvRow(d)).toBe('d,w,3,1,2,0,COMPLETED_FAILED,,,,,,,,y,,1,0,2,ivdgl,g1,retry_limit:gram,0,');
  });
});
