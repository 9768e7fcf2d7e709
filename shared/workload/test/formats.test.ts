import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSpecText } from '@gridemu/model';
import { loadWorkload } from '../src/index.js';
import { NO_SCHEMES, tempDir } from './helpers.js';

/** A GWF line: JobID SubmitTime WaitTime RunTime NProcs AvgCPU UsedMem ReqNProcs ReqTime ReqMem Status UserID GroupID ... OrigSiteID ... */
const gwfLine = (id: number, submit: number, run: number, procs: number, req: number) =>
  [
    id,
    submit,
    -1,
    run,
    procs,
    -1,
    -1,
    procs,
    req,
    -1,
    1,
    7,
    3,
    'E1',
    'Q1',
    'P1',
    'site-a',
    'site-b',
    'UNITARY',
    -1,
    -1,
    -1,
    -1,
    'x86',
    -1,
    -1,
    -1,
    'vo1',
    'proj',
  ].join('\t');

async function load(dir: string, source: string) {
  const { spec } = parseSpecText(
    `name: t\nsites: [{ id: x, cpus: 8 }]\nworkload: [{ site: x, ${source} }]\n`,
    join(dir, 'e.yaml'),
    NO_SCHEMES,
  );
  return loadWorkload(spec, { specFile: join(dir, 'e.yaml') });
}

describe('the Grid Workloads Format', () => {
  it('reads the jobs of a tab-separated file, skipping # comments, with names in the later fields', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'a.gwf'),
      [
        '# JobID SubmitTime WaitTime RunTime ...',
        gwfLine(1, 0, 100, 1, 200),
        '',
        gwfLine(2, 30, 50, 2, -1),
        '  # trailing comment',
      ].join('\n') + '\n',
    );
    const w = await load(dir, 'gwf: a.gwf');
    expect(w.jobs.map((j) => [j.id, j.submit_s, j.run_s, j.estimate_s, j.procs, j.user, j.group])).toEqual([
      ['x!1', 0, 100, 200, 1, 7, 3],
      ['x!2', 30, 50, 50, 2, 7, 3],
    ]);
    // Which version of the file it read, for summary.json: the SHA-256 of its bytes.
    const bytes = readFileSync(join(dir, 'a.gwf'));
    expect(w.sources[0]!.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('names the file and line of a bad line, and --lenient skips and counts it', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'a.gwf'),
      [gwfLine(1, 0, 100, 1, 200), '2\t10\t-1\tlong\t1\t-1\t-1\t1\t100\t-1\t1', '3 5 -1'].join('\n') + '\n',
    );
    await expect(load(dir, 'gwf: a.gwf')).rejects.toThrow(/a\.gwf:2: field 4 \(RunTime\) is not a number: "long"/);
    const w = await load(dir, 'gwf: a.gwf, lenient: true');
    expect(w.jobs).toHaveLength(1);
    expect(w.sources[0]!.malformed_lines).toBe(2);
    expect(w.sources[0]!.malformed_examples[1]).toMatch(/a\.gwf:3: expected at least 11 fields/);
  });
});

describe("Batsim's workload JSON", () => {
  const workload = {
    nb_res: 8,
    jobs: [
      { id: 2, subtime: 10, walltime: 100, res: 4, profile: 'short' },
      { id: '1', subtime: 0, walltime: -1, res: 1, profile: 'long' },
    ],
    profiles: { short: { type: 'delay', delay: 60 }, long: { type: 'delay', delay: 500 } },
  };

  it('runs each job for its delay profile, in submit order, with walltime as the request', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'w.json'), JSON.stringify(workload));
    const w = await load(dir, 'batsim: w.json');
    expect(w.jobs.map((j) => [j.id, j.submit_s, j.run_s, j.estimate_s, j.procs])).toEqual([
      ['x!1', 0, 500, 500, 1],
      ['x!2', 10, 60, 100, 4],
    ]);
  });

  it('names the JSON path of bad input, and the line of a syntax error', async () => {
    const dir = tempDir();
    const bad = (name: string, doc: unknown) => {
      writeFileSync(join(dir, name), typeof doc === 'string' ? doc : JSON.stringify(doc));
      return load(dir, `batsim: ${name}`);
    };
    await expect(bad('a.json', { ...workload, jobs: [{ ...workload.jobs[0], res: 0 }] })).rejects.toThrow(
      /a\.json: jobs\[0\]\.res: must be a positive whole number/,
    );
    await expect(bad('b.json', { ...workload, jobs: [{ ...workload.jobs[0], profile: 'nope' }] })).rejects.toThrow(
      /b\.json: jobs\[0\]\.profile: no profile "nope"/,
    );
    await expect(
      bad('c.json', {
        ...workload,
        profiles: { ...workload.profiles, short: { type: 'parallel_homogeneous', cpu: 1e9, com: 0 } },
      }),
    ).rejects.toThrow(/c\.json: profiles\.short\.type: "parallel_homogeneous" gives no run time/);
    await expect(bad('d.json', { ...workload, jobs: [{ ...workload.jobs[0], id: 'w0!a' }] })).rejects.toThrow(
      /d\.json: jobs\[0\]\.id: must be a whole number/,
    );
    await expect(bad('e.json', '{\n  "jobs": [\n    { "id": 1, }\n  ]\n}')).rejects.toThrow(
      /e\.json: line 3: not valid JSON/,
    );
  });
});
