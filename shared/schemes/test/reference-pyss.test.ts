import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Job, LocalPolicyName } from '@gridemu/model';
import { readSwf, convertRecord } from '@gridemu/workload';
import { simulate } from '../src/index.js';
import { specOf, TRACE_DIR } from './helpers.js';
import { needTraces } from '@gridemu/testkit';

/**
 * Agreement with pyss, the Python scheduler simulator of Feitelson's group, on KTH-SP2 with 100
 * processors (../shared/data/traces/reference-pyss, SOURCES.md). docs/validation.md discusses it.
 */
const REF = join(TRACE_DIR, 'reference-pyss');

interface RefRow {
  job: string;
  submit: number;
  start: number;
  end: number;
}

function readReference(file: string): Map<string, RefRow> {
  const lines = gunzipSync(readFileSync(join(REF, file)))
    .toString('utf8')
    .trim()
    .split('\n');
  const header = lines[0]!.split(',');
  const col = (name: string) => header.indexOf(name);
  const rows = new Map<string, RefRow>();
  for (const line of lines.slice(1)) {
    const f = line.split(',');
    rows.set(f[col('job_id')]!, {
      job: f[col('job_id')]!,
      submit: Number(f[col('submit')]),
      start: Number(f[col('start')]),
      end: Number(f[col('end')]),
    });
  }
  return rows;
}

async function jobsFrom(file: string, transform?: (line: string[]) => string[]): Promise<Job[]> {
  // Optionally rewrite the trace (pyss's job conversion), then read it with our reader.
  let path = file;
  if (transform) {
    const text = gunzipSync(readFileSync(file)).toString('utf8');
    const out = text
      .split('\n')
      .map((l) => (l.trim() === '' || l.startsWith(';') ? l : transform(l.trim().split(/\s+/)).join(' ')));
    path = join(mkdtempSync(join(tmpdir(), 'gridemu-pyss-')), 'input.swf');
    writeFileSync(path, out.join('\n'));
  }
  const source = {
    name: 'kth',
    site: 'kth',
    skip: 0,
    shift_h: 0,
    runtime_scale: 1,
    exact_estimates: false,
    equal_width: false,
  };
  const jobs: Job[] = [];
  for await (const r of readSwf(path)) jobs.push(convertRecord(r, { origin: 'kth', source }, {}));
  return jobs;
}

/** pyss's conversion (SOURCES.md): run = max(min(req, run), 1), estimate = max(req, run, 1), procs = max(min(alloc, 100), 1). */
function pyssConversion(f: string[]): string[] {
  const run = Number(f[3]);
  const alloc = Number(f[4]);
  const req = Number(f[8]);
  const submit = Number(f[1]);
  const g = [...f];
  if (run <= 0 || alloc <= 0 || submit < 0) {
    g[3] = '1';
    g[8] = '1';
    g[4] = String(Math.max(1, alloc));
    g[1] = String(Math.max(submit, 1));
  } else {
    g[8] = String(Math.max(req, run, 1));
    g[3] = String(Math.max(Math.min(req, run), 1));
    g[4] = String(Math.max(Math.min(alloc, 100), 1));
  }
  return g;
}

function agreement(
  policy: LocalPolicyName,
  jobs: Job[],
  ref: Map<string, RefRow>,
): { same: number; total: number; firstDifferent?: string } {
  const result = simulate(specOf({ sites: [{ id: 'kth', cpus: 100 }], local: { policy } }), jobs);
  let same = 0;
  let firstDifferent: string | undefined;
  for (const r of result.records) {
    const want = ref.get(r.job.id.split('!')[1]!);
    if (!want) throw new Error(`job ${r.job.id} is not in the reference`);
    if (r.start_s === want.start) same++;
    else firstDifferent ??= `${r.job.id}: ours ${r.start_s}, pyss ${want.start}`;
  }
  return { same, total: ref.size, ...(firstDifferent ? { firstDifferent } : {}) };
}

describe('agreement with pyss on KTH-SP2, 100 processors', () => {
  for (const policy of ['easy', 'fcfs'] as const) {
    const first5000 = needTraces(
      `reference-pyss/KTH-SP2-first5000-P100.pyss-input.swf.gz`,
      `reference-pyss/KTH-SP2-first5000-P100.pyss-${policy}.csv.gz`,
    );
    const full = needTraces('KTH-SP2-1996-2.1-cln.swf.gz', `reference-pyss/KTH-SP2-full-P100.pyss-${policy}.csv.gz`);
    it.skipIf(first5000.skip)(
      first5000.title(`${policy}, first 5000 jobs (pyss-converted input): every job starts at the same second`),
      async () => {
        const jobs = await jobsFrom(join(REF, 'KTH-SP2-first5000-P100.pyss-input.swf.gz'));
        const a = agreement(policy, jobs, readReference(`KTH-SP2-first5000-P100.pyss-${policy}.csv.gz`));
        console.log(`pyss ${policy} first 5000: ${a.same}/${a.total} jobs start at the same second`);
        expect(a).toEqual({ same: 5000, total: 5000 });
      },
    );

    it.skipIf(full.skip)(
      full.title(`${policy}, full trace with pyss's conversion applied: every job starts at the same second`),
      async () => {
        const jobs = await jobsFrom(join(TRACE_DIR, 'KTH-SP2-1996-2.1-cln.swf.gz'), pyssConversion);
        const a = agreement(policy, jobs, readReference(`KTH-SP2-full-P100.pyss-${policy}.csv.gz`));
        console.log(`pyss ${policy} full trace: ${a.same}/${a.total} jobs start at the same second`);
        expect(a).toEqual({ same: 28476, total: 28476 });
      },
    );
  }
});
