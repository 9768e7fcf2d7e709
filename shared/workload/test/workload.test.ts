import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LUBLIN_DEFAULTS, parseSpecText, type LublinParams } from '@gridemu/model';
import { Rng } from '@gridemu/runtime';
import {
  gammaCdf,
  generatedJob,
  generatedReport,
  generateLublin,
  loadWorkload,
  type SourceLoader,
} from '../src/index.js';
import { NO_SCHEMES, row, tempDir, TRACE_DIR, writeSwf } from './helpers.js';
import { needTraces } from '@gridemu/testkit';

const kth = needTraces('KTH-SP2-1996-2.1-cln.swf.gz');

const params = (jobs: number, extra: Partial<LublinParams> = {}): LublinParams => ({
  model: 'lublin99',
  jobs,
  arrival_scale: 1,
  estimate_factor: 1,
  start_hour: 0,
  classes: 'both',
  ...LUBLIN_DEFAULTS,
  ...extra,
});

describe('gamma CDF', () => {
  it('matches known values', () => {
    expect(gammaCdf(1, 1, 1)).toBeCloseTo(1 - Math.exp(-1), 12);
    expect(gammaCdf(2, 2, 1)).toBeCloseTo(1 - 3 * Math.exp(-2), 12);
    // Closed forms for integer shapes: P(3, x) = 1 - e^-x (1 + x + x^2/2); scale 2 halves x.
    expect(gammaCdf(10, 3, 1)).toBeCloseTo(1 - 61 * Math.exp(-10), 12);
    expect(gammaCdf(4, 2, 2)).toBeCloseTo(1 - 3 * Math.exp(-2), 12);
    expect(gammaCdf(0.5, 3, 1)).toBeCloseTo(1 - Math.exp(-0.5) * (1 + 0.5 + 0.125), 12);
  });
});

describe('Lublin-Feitelson synthetic source', () => {
  const jobs = [...generateLublin(params(20000), 128, new Rng(1).fork('x'))];

  it('is seeded: same seed, same jobs; another seed, other jobs', () => {
    expect([...generateLublin(params(50), 128, new Rng(1).fork('x'))]).toEqual(jobs.slice(0, 50));
    expect([...generateLublin(params(50), 128, new Rng(2).fork('x'))]).not.toEqual(jobs.slice(0, 50));
  });

  it("draws jobs with the model's shape", () => {
    for (let i = 1; i < jobs.length; i++) expect(jobs[i]!.submit_s).toBeGreaterThanOrEqual(jobs[i - 1]!.submit_s);
    expect(
      jobs.every(
        (j) => j.procs >= 1 && j.procs <= 128 && j.run_s >= 1 && j.run_s <= Math.exp(12) && j.estimate_s === j.run_s,
      ),
    ).toBe(true);
    const serial = jobs.filter((j) => j.procs === 1).length / jobs.length;
    expect(serial).toBeGreaterThan(0.15);
    expect(serial).toBeLessThan(0.35);
    const parallel = jobs.filter((j) => j.procs > 1);
    const pow2 = parallel.filter((j) => (j.procs & (j.procs - 1)) === 0).length / parallel.length;
    expect(pow2).toBeGreaterThan(0.7);
    expect(new Set(jobs.map((j) => j.kind))).toEqual(new Set(['batch', 'interactive']));
  });

  it('has a daily cycle: more arrivals in the working day than at night', () => {
    const byHour = new Array<number>(24).fill(0);
    for (const j of jobs) byHour[Math.floor((j.submit_s % 86400) / 3600)]!++;
    const day = byHour.slice(9, 18).reduce((a, b) => a + b, 0) / 9;
    const night = byHour.slice(0, 6).reduce((a, b) => a + b, 0) / 6;
    expect(day).toBeGreaterThan(2 * night);
  });

  it("classes keeps one class's stream: batch jobs alone run far longer than the mix", () => {
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
    const batch = [...generateLublin(params(5000, { classes: 'batch' }), 128, new Rng(1).fork('x'))];
    const interactive = [...generateLublin(params(5000, { classes: 'interactive' }), 128, new Rng(1).fork('x'))];
    expect(new Set(batch.map((j) => j.kind))).toEqual(new Set(['batch']));
    expect(new Set(interactive.map((j) => j.kind))).toEqual(new Set(['interactive']));
    const mixed = median(jobs.slice(0, 5000).map((j) => j.run_s));
    expect(median(batch.map((j) => j.run_s))).toBeGreaterThan(10 * mixed);
    expect(median(interactive.map((j) => j.run_s))).toBeLessThan(mixed);
  });

  it('arrival_scale 0.5 packs the same jobs into about half the time', () => {
    const dense = [...generateLublin(params(5000, { arrival_scale: 0.5 }), 128, new Rng(1).fork('x'))];
    const ratio = dense.at(-1)!.submit_s / jobs[4999]!.submit_s;
    expect(ratio).toBeGreaterThan(0.4);
    expect(ratio).toBeLessThan(0.6);
  });
});

describe('loading a workload from the experiment file', () => {
  it('takes jobs after skip from each source, shifts, stretches and merges them by submit time', async () => {
    const dir = tempDir();
    writeSwf(dir, 'a.swf', [
      row(1, 0, 10, 2, 20),
      row(2, 100, 10, 2, 20),
      row(3, 200, 10, 2, 20),
      row(4, 300, 10, 2, 20),
    ]);
    const { spec } = parseSpecText(
      `name: t
sites: [{ id: s1, cpus: 4 }, { id: s2, cpus: 4 }]
workload:
  - { site: s1, swf: a.swf, skip: 1, jobs: 2 }
  - { site: s2, swf: a.swf, jobs: 2, shift_h: 0.025, runtime_scale: 1.5 }
`,
      join(dir, 'exp.yaml'),
      NO_SCHEMES,
    );
    const w = await loadWorkload(spec, { specFile: join(dir, 'exp.yaml') });
    expect(w.jobs.map((j) => [j.id, j.origin, j.submit_s, j.run_s, j.estimate_s])).toEqual([
      ['s2!1', 's2', 90, 15, 30],
      ['s1!2', 's1', 100, 10, 20],
      ['s2!2', 's2', 190, 15, 30],
      ['s1!3', 's1', 200, 10, 20],
    ]);
    expect(w.sources.map((s) => s.jobs)).toEqual([2, 2]);
    // Each source's submit window, as the run has it (after skip and shift_h).
    expect(w.sources.map((s) => [s.first_submit_s, s.last_submit_s])).toEqual([
      [100, 200],
      [90, 190],
    ]);
  });

  it('refuses a fault timed before the first submission, naming the field and that time; one from it on is fine', async () => {
    const dir = tempDir();
    writeSwf(dir, 'a.swf', [row(1, 500, 10, 2, 20), row(2, 600, 10, 2, 20)]);
    const file = join(dir, 'exp.yaml');
    const load = (faults: string) =>
      loadWorkload(
        parseSpecText(
          `name: t\nsites: [{ id: s1, cpus: 4 }]\nworkload: [{ site: s1, swf: a.swf }]\nfaults: ${faults}\n`,
          file,
          { ...NO_SCHEMES, faultTolerant: ['none'] },
        ).spec,
        { specFile: file },
      );
    const early = load(
      '{ crash: [{ process: s1, at_s: 100, down_s: 50 }], partition: [{ sites: [s1], from_s: 499, to_s: 900 }] }',
    );
    await expect(early).rejects.toThrow(/faults\.crash\[0\]\.at_s: is 100 s, before the first submission at 500 s/);
    await expect(early).rejects.toThrow(/faults\.partition\[0\]\.from_s: is 499 s/);
    await expect(early).rejects.toThrow(file);
    await expect(load('{ nats_restart: [{ at_s: 0, down_s: 5 }] }')).rejects.toThrow(/faults\.nats_restart\[0\]\.at_s/);
    expect((await load('{ crash: [{ process: s1, at_s: 500, down_s: 50 }] }')).jobs).toHaveLength(2);
  });

  it('deals a split source round-robin over its sites', async () => {
    const dir = tempDir();
    writeSwf(dir, 'a.swf', [row(1, 0, 10, 2, 20), row(2, 1, 10, 2, 20), row(3, 2, 10, 2, 20)]);
    const { spec } = parseSpecText(
      `name: t\nsites: [{ id: x, cpus: 4 }, { id: y, cpus: 4 }]\nworkload: [{ swf: a.swf }]\n`,
      join(dir, 'e.yaml'),
      NO_SCHEMES,
    );
    const w = await loadWorkload(spec, { specFile: join(dir, 'e.yaml') });
    expect(w.jobs.map((j) => j.origin)).toEqual(['x', 'y', 'x']);
  });

  it('refuses a trace whose job numbers repeat, naming the id and the source', async () => {
    const dir = tempDir();
    writeSwf(dir, 'a.swf', [row(1, 0, 10, 2, 20), row(2, 1, 10, 2, 20), row(2, 2, 10, 2, 20)]);
    const { spec } = parseSpecText(
      `name: t\nsites: [{ id: x, cpus: 4 }]\nworkload: [{ name: tr, swf: a.swf }]\n`,
      join(dir, 'e.yaml'),
      NO_SCHEMES,
    );
    await expect(loadWorkload(spec, { specFile: join(dir, 'e.yaml') })).rejects.toThrow(
      'job id tr!2 appears twice in source tr',
    );
  });

  it("gives a synthetic source's jobs its vo and group, each id once", async () => {
    const { spec } = parseSpecText(
      `name: t\nsites: [{ id: x, cpus: 4 }]\nworkload: [{ name: syn, site: x, vo: atlas, group: g1, synthetic: { jobs: 50 } }]\n`,
      '/tmp/e.yaml',
      NO_SCHEMES,
    );
    const w = await loadWorkload(spec);
    expect(w.jobs).toHaveLength(50);
    expect(new Set(w.jobs.map((j) => j.id)).size).toBe(50);
    expect(w.jobs.every((j) => j.vo === 'atlas' && j.group === 'g1' && j.origin === 'x')).toBe(true);
    expect(Object.keys(w.jobs[0]!)).toEqual([
      'id',
      'workload',
      'origin',
      'submit_s',
      'run_s',
      'estimate_s',
      'procs',
      'vo',
      'group',
    ]);
  });

  it('fails when a source asks for more jobs than the trace has', async () => {
    const dir = tempDir();
    writeSwf(dir, 'a.swf', [row(1, 0, 10, 2, 20)]);
    const { spec } = parseSpecText(
      `name: t\nsites: [{ id: x, cpus: 4 }]\nworkload: [{ swf: a.swf, jobs: 5 }]\n`,
      join(dir, 'e.yaml'),
      NO_SCHEMES,
    );
    await expect(loadWorkload(spec, { specFile: join(dir, 'e.yaml') })).rejects.toThrow(
      /asks for 5 jobs after skipping 0, but the trace has only 1 record$/,
    );
  });

  it('fails when a source has no jobs: an empty trace, a skip past its end, every line malformed', async () => {
    const dir = tempDir();
    writeSwf(dir, 'empty.swf', ['; a header and nothing else']);
    writeSwf(dir, 'two.swf', [row(1, 0, 10, 2, 20), row(2, 5, 10, 2, 20)]);
    writeSwf(dir, 'bad.swf', ['1 0 0 10', '2 5 0 10']);
    const load = (source: string) => {
      const file = join(dir, 'e.yaml');
      const { spec } = parseSpecText(`name: t\nsites: [{ id: x, cpus: 4 }]\nworkload: [${source}]\n`, file, NO_SCHEMES);
      return loadWorkload(spec, { specFile: file });
    };
    await expect(load('{ swf: empty.swf }')).rejects.toThrow(/has no jobs after skipping 0: the trace has 0 records$/);
    await expect(load('{ swf: two.swf, skip: 2 }')).rejects.toThrow(
      /has no jobs after skipping 2: the trace has 2 records$/,
    );
    await expect(load('{ swf: bad.swf, lenient: true }')).rejects.toThrow(
      /has no jobs after skipping 0: the trace has 0 records and 2 malformed lines, skipped$/,
    );
  });

  it.skipIf(kth.skip)(kth.title('reports what it adjusted in a real trace'), async () => {
    const { spec } = parseSpecText(
      `name: t\nsites: [{ id: x, cpus: 100 }]\nworkload: [{ swf: KTH-SP2-1996-2.1-cln.swf.gz }]\n`,
      '/nowhere/e.yaml',
      NO_SCHEMES,
    );
    const w = await loadWorkload(spec, { env: { GRIDEMU_TRACE_DIR: TRACE_DIR } });
    expect(w.jobs).toHaveLength(28476);
    expect(w.sources[0]!.adjustments).toEqual({
      runtime_raised_to_1s: 8,
      estimate_raised_to_runtime: 475,
      processors_unknown: 1,
    });
  });
});

describe("a family's own kind of source", () => {
  /** A made-up family's source: `count` one-processor jobs a minute apart, from its seeded stream. */
  const ticks: SourceLoader = {
    kind: 'ticks',
    load(source, { rng }) {
      const count = source['ticks'] as number;
      const jobs = Array.from({ length: count }, (_, n) => ({
        ...generatedJob(source, n, { number: n + 1, submit_s: 60 * n }),
        run_s: 1 + Math.floor(rng.next() * 100),
        estimate_s: 100,
        procs: 1,
      }));
      return { jobs, report: generatedReport(source, 'ticks', jobs, {}) };
    },
  };
  const schemes = {
    ...NO_SCHEMES,
    sourceKinds: () => ['synthetic', 'ticks'],
    familySources: [
      { kind: 'ticks', describe: 'ticks', read: (o: Readonly<Record<string, unknown>>) => ({ ticks: o['ticks'] }) },
    ],
  };
  const text =
    'name: t\nseed: 2\nsites: [{ id: s1, cpus: 4 }, { id: s2, cpus: 4 }]\nworkload: [{ name: tk, ticks: 3, shift_h: 1, sites: [s2, s1] }, { name: syn, site: s1, synthetic: { jobs: 2 } }]\n';

  it('is loaded by its family, dealt, shifted, merged with the others, the same from the same seed', async () => {
    const { spec } = parseSpecText(text, 'e.yaml', schemes);
    const w = await loadWorkload(spec, { familySources: [ticks] });
    const mine = w.jobs.filter((j) => j.workload === 'tk');
    expect(mine.map((j) => `${j.id}@${j.origin}@${j.submit_s}`)).toEqual([
      'tk!1@s2@3600',
      'tk!2@s1@3660',
      'tk!3@s2@3720',
    ]);
    expect(w.jobs).toHaveLength(5);
    expect(w.sources.map((s) => s.kind)).toEqual(['ticks', 'synthetic']);
    expect((await loadWorkload(spec, { familySources: [ticks] })).jobs).toEqual(w.jobs);
  });

  it('is an error, not an empty source, when no family loads it', async () => {
    const { spec } = parseSpecText(text, 'e.yaml', schemes);
    await expect(loadWorkload(spec)).rejects.toThrow(/no family loads ticks sources/);
  });
});
