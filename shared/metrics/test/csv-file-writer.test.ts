import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Job } from '@gridemu/model';
import { CsvFileWriter, type CsvCells } from '../src/csv-cells.js';
import { jobsCsvText, newRecord, writeJobsCsv, type JobRecord } from '../src/index.js';

/** What a writer puts in a file, read back. */
function written(fill: (out: CsvFileWriter) => void): string {
  const path = join(mkdtempSync(join(tmpdir(), 'gridemu-csv-')), 'out.csv');
  const fd = openSync(path, 'w');
  const out = new CsvFileWriter(fd);
  fill(out);
  out.flush();
  closeSync(fd);
  return readFileSync(path, 'utf8');
}

const cells = (out: CsvCells, values: readonly (string | number | undefined)[]) => {
  for (const v of values) {
    if (typeof v === 'string') out.text(v);
    else out.num(v);
  }
  out.end();
};

describe('CsvFileWriter', () => {
  it('writes numbers as formatNumber does and quotes text as csvField does, hand-checked', () => {
    const text = written((out) => {
      cells(out, [
        0,
        -0,
        7,
        -42,
        9007199254740991,
        -9007199254740991,
        2 ** 53 + 2,
        1e21,
        1.5,
        -0.25,
        1 / 3,
        2e-7,
        undefined,
        Number.NaN,
      ]);
      cells(out, ['plain', 'a,b', 'say "hi"', 'two\nlines', 'cr\r', 'Zürich', '✓', '', 'x'.repeat(300)]);
    });
    expect(text).toBe(
      '0,0,7,-42,9007199254740991,-9007199254740991,9007199254740994,1e+21,1.5,-0.25,0.333333,0,,NaN\n' +
        `plain,"a,b","say ""hi""","two\nlines","cr\r",Zürich,✓,,${'x'.repeat(300)}\n`,
    );
  });

  it('carries rows over its buffer, and writes a text bigger than the buffer whole', () => {
    const big = 'y'.repeat((1 << 20) + 10);
    const rows = Array.from({ length: 60_000 }, (_, i) => [`job!${i}`, i * 1.25, 'é']);
    const text = written((out) => {
      for (const r of rows) cells(out, r);
      cells(out, [big, 1]);
    });
    expect(text).toBe(rows.map((r) => `${r[0]},${r[1]},é`).join('\n') + `\n${big},1\n`);
  });

  it('makes the same jobs.csv as the string rows, for any records (property)', () => {
    const job = fc.record({
      id: fc.string({ minLength: 1, maxLength: 12 }),
      submit_s: fc.oneof(fc.integer({ min: 0, max: 2 ** 40 }), fc.double({ min: 0, max: 1e9, noNaN: true })),
      run_s: fc.integer({ min: 1, max: 1e7 }),
      procs: fc.integer({ min: 0, max: 4096 }),
      group: fc.option(fc.oneof(fc.integer({ min: 0, max: 99 }), fc.string({ maxLength: 6 })), { nil: undefined }),
    });
    const outcome = fc.record({
      wait: fc.option(fc.double({ min: 0, max: 1e8, noNaN: true }), { nil: undefined }),
      site: fc.string({ maxLength: 6 }),
      rejected: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(fc.tuple(job, outcome), { maxLength: 40 }), (rows) => {
        const records: JobRecord[] = rows.map(([j, o]) => {
          const base: Job = {
            id: j.id,
            workload: 'w,"x"',
            origin: 'o',
            submit_s: j.submit_s,
            run_s: j.run_s,
            estimate_s: j.run_s * 2,
            procs: j.procs,
            ...(j.group !== undefined ? { group: j.group } : {}),
          };
          const r = newRecord(base);
          if (o.rejected) return { ...r, rejectReason: 'wider_than_site' };
          if (o.wait === undefined) return r;
          return {
            ...r,
            start_s: j.submit_s + o.wait,
            finish_s: j.submit_s + o.wait + j.run_s,
            execSite: o.site,
            resources: '0-3 8',
          };
        });
        const dir = mkdtempSync(join(tmpdir(), 'gridemu-csv-'));
        expect(readFileSync(writeJobsCsv(dir, records), 'utf8')).toBe(jobsCsvText(records));
      }),
      { numRuns: 200 },
    );
  });
});
