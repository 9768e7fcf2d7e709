import { describe, expect, it } from 'vitest';
import { InputError } from '@gridemu/model';
import { JOBS_CSV_COLUMNS, checkRun } from '../src/index.js';

/** A jobs.csv row with the columns the check reads; the rest empty. */
function row(
  id: string,
  state: string,
  start: number | '',
  finish: number | '',
  site = 's1',
  resources = '0',
  procs = 1,
  workload = 'w1',
): string {
  const cells: Record<string, string | number> = {
    job_id: id,
    workload_name: workload,
    requested_number_of_resources: procs,
    final_state: state,
    starting_time: start,
    finish_time: finish,
    allocated_resources: resources,
    exec_site: site,
  };
  return JOBS_CSV_COLUMNS.map((c) => cells[c] ?? '').join(',');
}
const csv = (...rows: string[]) => [JOBS_CSV_COLUMNS.join(','), ...rows].join('\n') + '\n';
const cpus = new Map([['s1', 2]]);
const broken = (rs: ReturnType<typeof checkRun>) => rs.filter((r) => !r.ok).map((r) => r.name);

describe('checkRun: the invariants of a finished run', () => {
  it('passes a run that kept them all', () => {
    const r = checkRun({
      jobsCsv: csv(
        row('a', 'COMPLETED_SUCCESSFULLY', 0, 10),
        row('b', 'COMPLETED_SUCCESSFULLY', 0, 5, 's1', '1'),
        row('c', 'REJECTED', '', ''),
      ),
      submitted: 3,
      cpus,
      logStarts: [
        { jobId: 'a', site: 's1' },
        { jobId: 'b', site: 's1' },
      ],
    });
    expect(broken(r)).toEqual([]);
  });

  it('refuses a jobs.csv it cannot read, naming the file and line: a row cut short, a column missing', () => {
    const whole = csv(row('a', 'COMPLETED_SUCCESSFULLY', 0, 10), row('b', 'COMPLETED_SUCCESSFULLY', 0, 5, 's1', '1'));
    const cut = whole.slice(0, whole.lastIndexOf('COMPLETED_SUCCESSFULLY'));
    expect(() => checkRun({ jobsCsv: cut, jobsCsvFile: 'r/jobs.csv', submitted: 2, cpus })).toThrow(
      new InputError(`r/jobs.csv:3: 7 fields, the header has ${JOBS_CSV_COLUMNS.length}`),
    );
    expect(() => checkRun({ jobsCsv: 'id,state\na,done\n', submitted: 1, cpus })).toThrow(
      new InputError('jobs.csv:1: no column "job_id" in the header'),
    );
  });

  it('finds a job with two rows, and a row missing', () => {
    expect(
      broken(
        checkRun({
          jobsCsv: csv(row('a', 'COMPLETED_SUCCESSFULLY', 0, 10), row('a', 'COMPLETED_SUCCESSFULLY', 0, 10, 's1', '1')),
          submitted: 2,
          cpus,
        }),
      ),
    ).toEqual(['one final row per submitted job']);
    expect(broken(checkRun({ jobsCsv: csv(row('a', 'COMPLETED_SUCCESSFULLY', 0, 10)), submitted: 2, cpus }))).toEqual([
      'one final row per submitted job',
    ]);
  });

  it('names the workload sources whose rows are not their jobs, when the sources add up to those submitted', () => {
    const jobsCsv = csv(
      row('a', 'COMPLETED_SUCCESSFULLY', 0, 10, 's1', '0', 1, 'w1'),
      row('b', 'COMPLETED_SUCCESSFULLY', 0, 5, 's1', '1', 1, 'w2'),
      row('c', 'REJECTED', '', '', 's1', '', 1, 'w9'),
    );
    const rowsCheck = (workloads: { name: string; jobs: number }[], submitted = 4) =>
      checkRun({ jobsCsv, submitted, cpus, workloads })[0]!;
    expect(
      rowsCheck([
        { name: 'w1', jobs: 1 },
        { name: 'w2', jobs: 3 },
      ]),
    ).toEqual({
      name: 'one final row per submitted job',
      ok: false,
      detail:
        '3 rows for 4 submitted jobs (by workload_name: w2: 1 row for 3 jobs; "w9": 1 row, a source the run does not have)',
    });
    // A run stopped early submits fewer than its sources hold: they say nothing then.
    expect(rowsCheck([{ name: 'w1', jobs: 5 }], 4).detail).toBe('3 rows for 4 submitted jobs');
  });

  it('finds a job the logs started at two sites', () => {
    const r = checkRun({
      jobsCsv: csv(row('a', 'COMPLETED_SUCCESSFULLY', 0, 10)),
      submitted: 1,
      cpus,
      logStarts: [
        { jobId: 'a', site: 's1' },
        { jobId: 'a', site: 's2' },
      ],
    });
    expect(broken(r)).toEqual(['no job ran twice or overlapped itself']);
    expect(r[1]!.detail).toMatch(/a started at s1, s2/);
  });

  it('says when it cannot see every start: an executed job with no start in the logs is named', () => {
    const r = checkRun({
      jobsCsv: csv(row('a', 'COMPLETED_SUCCESSFULLY', 0, 10), row('b', 'COMPLETED_SUCCESSFULLY', 0, 5, 's1', '1')),
      submitted: 2,
      cpus,
      logStarts: [{ jobId: 'a', site: 's1' }],
    });
    expect(broken(r)).toEqual([]);
    expect(r[1]!.detail).toMatch(/; but 1 executed job\(s\) have no start in the logs.*b started at s1/);
  });

  it('takes a retried attempt (GRUBER: a job that failed at one site, run again at another) for a new run, and the same attempt twice for a double start', () => {
    const retried = checkRun({
      jobsCsv: csv(row('a', 'COMPLETED_SUCCESSFULLY', 0, 10)),
      submitted: 1,
      cpus,
      logStarts: [
        { jobId: 'a', site: 's1', attempt: 1 },
        { jobId: 'a', site: 's2', attempt: 2 },
      ],
    });
    expect(broken(retried)).toEqual([]);
    const twice = checkRun({
      jobsCsv: csv(row('a', 'COMPLETED_SUCCESSFULLY', 0, 10)),
      submitted: 1,
      cpus,
      logStarts: [
        { jobId: 'a', site: 's1', attempt: 2 },
        { jobId: 'a', site: 's2', attempt: 2 },
      ],
    });
    expect(broken(twice)).toEqual(['no job ran twice or overlapped itself']);
    expect(twice[1]!.detail).toMatch(/a \(attempt 2\) started at s1, s2/);
  });

  it('finds a site over capacity, and a job lost', () => {
    const over = csv(
      row('a', 'COMPLETED_SUCCESSFULLY', 0, 10, 's1', '0-1', 2),
      row('b', 'COMPLETED_SUCCESSFULLY', 5, 8, 's1', '0', 1),
    );
    expect(broken(checkRun({ jobsCsv: over, submitted: 2, cpus }))).toEqual([
      'no site over capacity, no processor held twice',
    ]);
    const lost = csv(row('a', 'COMPLETED_SUCCESSFULLY', 0, 10), row('b', 'COMPLETED_KILLED', 3, ''));
    expect(broken(checkRun({ jobsCsv: lost, submitted: 2, cpus }))).toEqual(['no job lost']);
  });
});
