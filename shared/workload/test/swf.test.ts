import { createServer } from 'node:http';
import { readFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, UnavailableError, type SourceCommon } from '@gridemu/model';
import {
  archiveFolder,
  archiveLogsLike,
  archiveUrl,
  convertRecord,
  fetchTrace,
  readSwf,
  resolveTrace,
  SwfFormatError,
  traceInfo,
  TraceNotFoundError,
  type AdjustmentCounts,
} from '../src/index.js';
import { row, tempDir, TRACE_DIR, writeSwf } from './helpers.js';
import { needTraces } from '@gridemu/testkit';

const kth = needTraces('KTH-SP2-1996-2.1-cln.swf.gz');

async function collect(file: string, opts = {}) {
  const out = [];
  for await (const r of readSwf(file, opts)) out.push(r);
  return out;
}

describe('SWF reader', () => {
  it('reads plain and gzipped traces, skipping comments and blank lines', async () => {
    const dir = tempDir();
    const lines = ['; MaxProcs: 64', '; Note: x', row(1, 0, 10, 4, 20), '', row(2, 5, 30, 8, 60)];
    for (const name of ['t.swf', 't.swf.gz']) {
      const rs = await collect(writeSwf(dir, name, lines));
      expect(rs.map((r) => [r.jobNumber, r.submit, r.run, r.allocatedProcs, r.requestedTime, r.line])).toEqual([
        [1, 0, 10, 4, 20, 3],
        [2, 5, 30, 8, 60, 5],
      ]);
    }
  });

  it('names the file and line of a malformed line, and fails', async () => {
    const dir = tempDir();
    const file = writeSwf(dir, 'bad.swf', ['; h', row(1, 0, 10, 4, 20), '2 5 30 8', row(3, 9, 1, 1, 1)]);
    await expect(collect(file)).rejects.toThrow(new SwfFormatError(file, 3, 'expected 18 fields, found 4'));
    const notNumber = writeSwf(dir, 'nan.swf', [row(1, 0, 10, 4, 20).join(' ').replace(/^1 0/, '1 zero')]);
    await expect(collect(notNumber)).rejects.toThrow(`${notNumber}:1: field 2 is not a number: "zero"`);
  });

  it('in lenient mode skips and counts malformed lines', async () => {
    const dir = tempDir();
    const file = writeSwf(dir, 'bad.swf', [row(1, 0, 10, 4, 20), 'garbage', row(3, 9, 1, 1, 1)]);
    const skipped: SwfFormatError[] = [];
    const rs = await collect(file, { lenient: true, onMalformed: (e: SwfFormatError) => skipped.push(e) });
    expect(rs.map((r) => r.jobNumber)).toEqual([1, 3]);
    expect(skipped.map((e) => e.line)).toEqual([2]);
  });

  it('reads CRLF lines, fractional fields and a comment in UTF-8 from the bytes', async () => {
    const dir = tempDir();
    const fraction = row(2, 5, 30, 8, 60).map((v, i) => (i === 5 ? '12.5' : i === 1 ? '+5' : String(v)));
    const file = writeSwf(dir, 'crlf.swf', [
      `; Note: Zürich ✓\r`,
      `${row(1, 0, 10, 4, 20).join(' ')}\r`,
      fraction.join('\t'),
    ]);
    const header = { fields: new Map<string, string>() };
    const rs = await collect(file, { header });
    expect(rs.map((r) => [r.jobNumber, r.submit, r.avgCpu, r.line])).toEqual([
      [1, 0, -1, 2],
      [2, 5, 12.5, 3],
    ]);
    expect(header.fields.get('Note')).toBe('Zürich ✓');
  });

  it('streams a trace too big to read whole, a line never cut at a chunk border', async () => {
    const dir = tempDir();
    // Over the 8 MiB read-whole limit on disk: 150,000 lines of about 60 bytes.
    const n = 150_000;
    const lines = Array.from({ length: n }, (_, k) => row(k + 1, k, 100 + (k % 977), 1 + (k % 64), 200 + (k % 977)));
    const rs = await collect(writeSwf(dir, 'big.swf', ['; Über', ...lines]));
    expect(rs.length).toBe(n);
    expect(
      rs.every(
        (r, k) =>
          r.jobNumber === k + 1 &&
          r.submit === k &&
          r.run === 100 + (k % 977) &&
          r.allocatedProcs === 1 + (k % 64) &&
          r.line === k + 2,
      ),
    ).toBe(true);
  });

  it('says so when a .gz file is corrupt', async () => {
    const dir = tempDir();
    const good = readFileSync(writeSwf(dir, 'ok.swf.gz', [row(1, 0, 10, 4, 20)]));
    const broken = join(dir, 'broken.swf.gz');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(broken, good.subarray(0, good.length - 6));
    await expect(collect(broken)).rejects.toThrow(/cannot read the trace/);
  });

  it('names a folder given as a trace, without a line', async () => {
    const dir = tempDir();
    await expect(collect(dir)).rejects.toThrow(new SwfFormatError(dir, 0, 'is a folder, not a trace file'));
    await expect(collect(dir)).rejects.toThrow(`${dir}: is a folder, not a trace file`);
    await expect(collect(join(dir, 'missing.swf'))).rejects.toThrow(
      `${join(dir, 'missing.swf')}: cannot read the trace`,
    );
  });
});

describe('conversion of trace values (docs/workload.md)', () => {
  const source: SourceCommon = {
    name: 'w',
    site: 's',
    skip: 0,
    shift_h: 0,
    runtime_scale: 1,
    exact_estimates: false,
    equal_width: false,
  };
  const convert = (r: number[], s: Partial<SourceCommon> = {}) => {
    const counts: AdjustmentCounts = {};
    const [rec] = [
      {
        jobNumber: r[0]!,
        submit: r[1]!,
        wait: -1,
        run: r[3]!,
        allocatedProcs: r[4]!,
        avgCpu: -1,
        usedMemory: -1,
        requestedProcs: r[7]!,
        requestedTime: r[8]!,
        requestedMemory: -1,
        status: 1,
        user: r[11]!,
        group: r[12]!,
        executable: -1,
        queue: -1,
        partition: -1,
        precedingJob: -1,
        thinkTime: -1,
        line: 1,
      },
    ];
    return { job: convertRecord(rec!, { origin: 's', source: { ...source, ...s } }, counts), counts };
  };

  it('keeps a clean job as it is', () => {
    expect(convert(row(5, 100, 60, 4, 120))).toEqual({
      job: {
        id: 'w!5',
        workload: 'w',
        origin: 's',
        submit_s: 100,
        run_s: 60,
        estimate_s: 120,
        procs: 4,
        user: 7,
        group: 3,
      },
      counts: {},
    });
  });
  it('raises a run time <= 0 to 1 s', () => {
    expect(convert(row(5, 100, 0, 4, 120))).toMatchObject({
      job: { run_s: 1, estimate_s: 120 },
      counts: { runtime_raised_to_1s: 1 },
    });
  });
  it('uses the run time when the requested time is missing', () => {
    expect(convert(row(5, 100, 60, 4, -1))).toMatchObject({
      job: { run_s: 60, estimate_s: 60 },
      counts: { estimate_missing_set_to_runtime: 1 },
    });
  });
  it('raises the requested time to a longer run time', () => {
    expect(convert(row(5, 100, 130, 4, 120))).toMatchObject({
      job: { run_s: 130, estimate_s: 130 },
      counts: { estimate_raised_to_runtime: 1 },
    });
  });
  it('takes requested processors when none were recorded as allocated, and rejects a job with neither', () => {
    expect(convert(row(5, 100, 60, -1, 120, 16))).toMatchObject({
      job: { procs: 16 },
      counts: { procs_from_request: 1 },
    });
    expect(convert(row(5, 100, 60, -1, 120, -1))).toMatchObject({
      job: { procs: 0, rejectReason: 'processors_unknown' },
      counts: { processors_unknown: 1 },
    });
  });
  it('applies runtime_scale, exact_estimates and shift_h', () => {
    expect(convert(row(5, 100, 60, 4, 121), { runtime_scale: 1.7 }).job).toMatchObject({ run_s: 102, estimate_s: 206 });
    expect(convert(row(5, 100, 60, 4, 121), { exact_estimates: true })).toMatchObject({
      job: { estimate_s: 60 },
      counts: { estimate_replaced_by_runtime: 1 },
    });
    expect(convert(row(5, 100, 60, 4, 121), { shift_h: 2 }).job.submit_s).toBe(7300);
  });
});

describe('finding traces', () => {
  it('takes absolute paths, paths relative to the experiment file, and bare names in the trace directory', () => {
    const dir = tempDir();
    const specDir = tempDir();
    const inTraceDir = writeSwf(dir, 'X-1999-1.swf', [row(1, 0, 1, 1, 1)]);
    const beside = writeSwf(specDir, 'beside.swf', [row(1, 0, 1, 1, 1)]);
    const env = { GRIDEMU_TRACE_DIR: dir };
    expect(resolveTrace(inTraceDir, undefined, env)).toBe(inTraceDir);
    expect(resolveTrace('beside.swf', join(specDir, 'exp.yaml'), env)).toBe(beside);
    expect(resolveTrace('./beside.swf', join(specDir, 'exp.yaml'), env)).toBe(beside);
    expect(resolveTrace('X-1999-1.swf', join(specDir, 'exp.yaml'), env)).toBe(inTraceDir);
  });

  it('says where it looked and how to fetch a missing archive trace', () => {
    const dir = tempDir();
    const specDir = tempDir();
    let err: unknown;
    try {
      resolveTrace('CTC-SP2-1996-3.1-cln.swf.gz', join(specDir, 'exp.yaml'), { GRIDEMU_TRACE_DIR: dir });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TraceNotFoundError);
    const msg = (err as Error).message;
    expect(msg).toContain(join(dir, 'CTC-SP2-1996-3.1-cln.swf.gz'));
    expect(msg).toContain(join(specDir, 'CTC-SP2-1996-3.1-cln.swf.gz'));
    expect(msg).toContain('gridemu trace fetch CTC-SP2-1996-3.1-cln.swf.gz');
  });

  it('names the files there that begin as a missing trace does', () => {
    const dir = tempDir();
    writeSwf(dir, 'KTH-SP2-1996-2.1-cln.swf', [row(1, 0, 1, 1, 1)]);
    writeSwf(dir, 'LANL-CM5-1994-4.1-cln.swf', [row(1, 0, 1, 1, 1)]);
    writeFileSync(join(dir, 'kth-sp2-slices.yaml'), 'name: an experiment file, not a trace\n');
    const messageFor = (trace: string) => {
      try {
        resolveTrace(trace, join(tempDir(), 'exp.yaml'), { GRIDEMU_TRACE_DIR: dir });
      } catch (e) {
        expect(e).toBeInstanceOf(TraceNotFoundError);
        return (e as Error).message;
      }
      throw new Error(`${trace} was found`);
    };
    expect(messageFor('KTH-SP2.swf.gz')).toContain('Found there with a name like it: KTH-SP2-1996-2.1-cln.swf\n');
    expect(messageFor('kth-sp2')).toContain('with a name like it: KTH-SP2-1996-2.1-cln.swf');
    expect(messageFor('SDSC-BLUE-2000-4.2-cln.swf.gz')).not.toContain('a name like it');
    // The same log with or without .gz: the name to give, and nothing to download.
    const compressed = messageFor('LANL-CM5-1994-4.1-cln.swf.gz');
    expect(compressed).toContain('Name it LANL-CM5-1994-4.1-cln.swf: that is the same log, not compressed.');
    expect(compressed).not.toContain('trace fetch');
    writeSwf(dir, 'SDSC-SP2-1998-4.2-cln.swf.gz', [row(1, 0, 1, 1, 1)]);
    expect(messageFor('SDSC-SP2-1998-4.2-cln.swf')).toContain(
      'Name it SDSC-SP2-1998-4.2-cln.swf.gz: that is the same log, compressed (gridemu reads a .gz trace as it is).',
    );
    expect(messageFor('KT.swf')).not.toContain('a name like it');
    // Not in the folders but in the archive: the full name to fetch.
    expect(messageFor('SDSC-BLUE.swf.gz')).toContain(
      "The archive's logs named like it: SDSC-BLUE-2000-4.2-cln.swf.gz; download one with gridemu trace fetch NAME, then name it in full",
    );
    expect(messageFor('my-own-trace.swf')).not.toContain("The archive's logs");
  });

  it('does not send a missing trace that is no archive log to trace fetch, which cannot get it', () => {
    const dir = tempDir();
    let err: unknown;
    try {
      resolveTrace('blast-chameleon-small-001.json', join(tempDir(), 'exp.yaml'), { GRIDEMU_TRACE_DIR: dir });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TraceNotFoundError);
    const msg = (err as Error).message;
    expect(msg).not.toContain('gridemu trace fetch blast');
    expect(msg).toContain(`copy it into the trace directory (${dir})`);
  });
});

describe('trace fetch (against a local HTTP server standing in for the archive)', () => {
  it('maps archive names to their folders', () => {
    expect(archiveFolder('KTH-SP2-1996-2.1-cln.swf.gz')).toBe('l_kth_sp2');
    expect(archiveFolder('SDSC-BLUE-2000-4.2-cln.swf.gz')).toBe('l_sdsc_blue');
    expect(archiveFolder('LCG-2005-1.swf.gz')).toBe('l_lcg');
    // The logs whose folder the name alone does not give, as the archive's pages serve them.
    expect(archiveFolder('OSC-Clust-2000-3.1-cln.swf.gz')).toBe('l_osc');
    expect(archiveFolder('ANL-Intrepid-2009-1.swf.gz')).toBe('l_anl_int');
    expect(archiveFolder('DAS2-fs3-2003-1.swf.gz')).toBe('l_das2');
    expect(archiveFolder('LPC-EGEE-2004-1.2-cln.swf.gz')).toBe('l_lpc');
    expect(archiveFolder('METACENTRUM-2013-3.swf.gz')).toBe('l_metacentrum2');
    expect(archiveFolder('METACENTRUM-2009-2.swf.gz')).toBe('l_metacentrum');
    // Another version of such a log is in the same folder; a log the list lacks follows the rule.
    expect(archiveFolder('OSC-Clust-2000-3.swf.gz')).toBe('l_osc');
    expect(archiveFolder('NEW-Machine-2031-1.swf.gz')).toBe('l_new_machine');
    expect(() => archiveFolder('mytrace.swf')).toThrow(/does not look like/);
    // Bad input, not a failure: gridemu prints the message alone and exits 2.
    expect(() => archiveFolder('mytrace.swf')).toThrow(InputError);
    expect(archiveUrl('LCG-2005-1.swf.gz', 'http://mirror/pwa/')).toBe('http://mirror/pwa/l_lcg/LCG-2005-1.swf.gz');
    expect(() => archiveUrl('traces/KTH-SP2-1996-2.1-cln.swf.gz')).toThrow(InputError);
    expect(() => archiveUrl('traces/KTH-SP2-1996-2.1-cln.swf.gz')).toThrow(/bare archive file name, not a path/);
  });

  it('names the archive logs a shortened or mistyped name likely meant', () => {
    expect(archiveLogsLike('SDSC-BLUE')).toEqual(['SDSC-BLUE-2000-4.2-cln.swf.gz']);
    expect(archiveLogsLike('anl-intrepid')).toEqual(['ANL-Intrepid-2009-1.swf.gz']);
    expect(archiveLogsLike('DAS2')).toEqual([
      'DAS2-fs0-2003-1.swf.gz',
      'DAS2-fs1-2003-1.swf.gz',
      'DAS2-fs2-2003-1.swf.gz',
      'DAS2-fs3-2003-1.swf.gz',
      'DAS2-fs4-2003-1.swf.gz',
    ]);
    expect(archiveLogsLike('KTH-SP2-1996-2.1-cln.swf')).toEqual(['KTH-SP2-1996-2.1-cln.swf.gz']);
    expect(archiveLogsLike('KTH-SP2-1996-2.1-cln.swf.gzz')).toEqual(['KTH-SP2-1996-2.1-cln.swf.gz']);
    expect(archiveLogsLike('KHT-SP2-1996-2.1-cln.swf.gz')).toEqual(['KTH-SP2-1996-2.1-cln.swf.gz']);
    expect(archiveLogsLike('KTH-SP2-1996-2.1-cln.swf.gz')).toEqual([]);
    expect(archiveLogsLike('mytrace.swf')).toEqual([]);
    expect(archiveLogsLike('KT')).toEqual([]);
    // A name with no year is no log name: the error offers the full one instead of a download.
    expect(() => archiveFolder('SDSC-BLUE')).toThrow(
      /^"SDSC-BLUE" does not look like a Parallel Workloads Archive log name \(e\.g\. KTH-SP2-1996-2\.1-cln\.swf\.gz\); did you mean SDSC-BLUE-2000-4\.2-cln\.swf\.gz\?$/,
    );
    expect(() => archiveFolder('DAS2')).toThrow(
      /; the archive's logs named like it: DAS2-fs0-2003-1\.swf\.gz, DAS2-fs1/,
    );
    expect(() => archiveFolder('mytrace.swf')).toThrow(/downloads only those; copy any other trace/);
  });

  it('downloads, checks and installs a trace; leaves nothing behind on a 404 or a broken file', async () => {
    const served = readFileSync(
      writeSwf(tempDir(), 'T.swf.gz', ['; MaxProcs: 8', row(1, 0, 5, 2, 9), row(2, 3, 5, 2, 9)]),
    );
    const requests: string[] = [];
    const server = createServer((req, res) => {
      requests.push(req.url!);
      if (req.url === '/l_kth_sp2/KTH-SP2-1996-2.1-cln.swf.gz') res.end(served);
      else if (req.url === '/l_lanl_cm5/LANL-CM5-1994-4.1-cln.swf.gz') res.end(served.subarray(0, 20));
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dir = tempDir();
    try {
      const progress: [number, number | undefined][] = [];
      const got = await fetchTrace('KTH-SP2-1996-2.1-cln.swf.gz', dir, base, (bytes, total) =>
        progress.push([bytes, total]),
      );
      expect(got).toMatchObject({ records: 2, bytes: served.length, path: join(dir, 'KTH-SP2-1996-2.1-cln.swf.gz') });
      // Told as the bytes come, against the size the server gave.
      expect(progress.at(-1)).toEqual([served.length, served.length]);
      expect(readFileSync(got.path)).toEqual(served);
      await expect(fetchTrace('SDSC-BLUE-2000-4.2-cln.swf.gz', dir, base)).rejects.toThrow(UnavailableError);
      await expect(fetchTrace('SDSC-BLUE-2000-4.2-cln.swf.gz', dir, base)).rejects.toThrow(
        /HTTP 404 Not Found \(a mirror/,
      );
      // A name the archive lacks, most likely mistyped: the one it has.
      await expect(fetchTrace('KTH-SP2-1996-2.1-cln.swf', dir, base)).rejects.toThrow(
        /HTTP 404 Not Found; did you mean KTH-SP2-1996-2\.1-cln\.swf\.gz\? \(a mirror/,
      );
      await expect(fetchTrace('LANL-CM5-1994-4.1-cln.swf.gz', dir, base)).rejects.toThrow(/cannot read the trace/);
      expect(readdirSync(dir)).toEqual(['KTH-SP2-1996-2.1-cln.swf.gz']);
      expect(existsSync(join(dir, 'LANL-CM5-1994-4.1-cln.swf.gz'))).toBe(false);
      expect(requests).toContain('/l_kth_sp2/KTH-SP2-1996-2.1-cln.swf.gz');
    } finally {
      await new Promise((closed) => server.close(closed));
    }
    // The server gone: what failed, and what to do instead, without fetch's bare "fetch failed".
    await expect(fetchTrace('LCG-2005-1.swf.gz', dir, base)).rejects.toThrow(
      new RegExp(`^cannot download ${base}/l_lcg/LCG-2005-1\\.swf\\.gz: (?!fetch failed).+ \\(a mirror: --base-url`),
    );
    expect(readdirSync(dir)).toEqual(['KTH-SP2-1996-2.1-cln.swf.gz']);
  });
});

describe('trace info', () => {
  it.skipIf(kth.skip)(kth.title('describes the KTH-SP2 trace as SOURCES.md does'), async () => {
    const info = await traceInfo(join(TRACE_DIR, 'KTH-SP2-1996-2.1-cln.swf.gz'));
    expect(info.records).toBe(28476);
    expect(info.machineProcs).toBe(100);
    expect(info.anomalies).toEqual({
      runtimeNotPositive: 8,
      requestedTimeMissing: 0,
      runtimeOverRequested: 475,
      processorsUnknown: 1,
    });
    expect(info.offeredLoad).toBeGreaterThan(0.5);
    expect(info.offeredLoad).toBeLessThan(0.9);
  });
});
