import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, smallSpec, tmp } from './live-helpers.js';
import { metricDiff, startDiffs, submissionDiffs } from '../src/compare/compare-results.js';
import { protocolTraceFromLogs } from '../src/live/protocol-trace-from-logs.js';
import { describeSpecDifference, specDifferences } from '../src/compare/spec-differences.js';

function gridemu(args: string[]) {
  const r = spawnSync(process.execPath, [join(REPO, 'services/cli/dist/main.js'), ...args], {
    cwd: REPO,
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('gridemu compare', () => {
  const dir = tmp();
  const spec = smallSpec(dir, { sites: 3, jobs: 60, scheme: 'k-distributed', k: 2 });
  const [a, b, c] = ['a', 'b', 'c'].map((n) => join(dir, n)) as [string, string, string];
  expect(gridemu(['simulate', spec, '--out', a, '--quiet']).code).toBe(0);
  expect(gridemu(['simulate', spec, '--out', b, '--quiet']).code).toBe(0);
  expect(gridemu(['simulate', spec, '--out', c, '--quiet', '--set', 'meta.k=3']).code).toBe(0);

  it('finds no difference between two runs of one seed, and passes a zero tolerance', () => {
    const r = gridemu(['compare', a, b, '--tolerance', '0', '--max-start-diff', '0']);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toContain('spec: the same in both (overrides applied)\n');
    expect(r.out).toMatch(
      /job starts: 180 jobs started in both \(0 only in A, 0 only in B\); 180 at the same second, 180 at the same site/,
    );
    expect(r.out).not.toContain('OVER TOLERANCE');
  });

  it('reports the differences of another K, and exits 1 past the tolerance', () => {
    const r = gridemu(['compare', a, c, '--tolerance', '0.01', '--json']);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j.spec_differences).toEqual([{ path: 'meta.k', a: 2, b: 3 }]);
    expect(gridemu(['compare', a, c]).out).toContain('spec: B differs from A in meta.k 2 → 3\n');
    expect(j.failures.length).toBeGreaterThan(0);
    expect(j.starts.compared).toBe(180);
    expect(j.starts.identical).toBeLessThan(180);
    const loose = gridemu(['compare', a, c, '--tolerance', '1000000']);
    expect(loose.code, loose.out).toBe(0);
  });

  it('says when the runs did not submit the same jobs, and then refuses --max-start-diff', () => {
    const same = JSON.parse(gridemu(['compare', a, c, '--json']).out);
    expect(same.submitted).toEqual({ compared: 180, differing: 0 });
    expect(gridemu(['compare', a, c]).out).not.toContain('DIFFERENT JOBS');
    // Another seed draws other synthetic jobs under the same ids.
    const other = join(dir, 'other-seed');
    expect(gridemu(['simulate', spec, '--out', other, '--quiet', '--set', 'seed=8']).code).toBe(0);
    const r = gridemu(['compare', a, other]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/DIFFERENT JOBS: \d+ of the 180 jobs in both runs were submitted differently \(s1!1: at /);
    const limited = gridemu(['compare', a, other, '--max-start-diff', '1e12', '--json']);
    expect(limited.code).toBe(1);
    const j = JSON.parse(limited.out);
    expect(j.submitted.differing).toBeGreaterThan(0);
    expect(j.failures).toEqual([expect.stringMatching(/^--max-start-diff: .* the runs did not submit the same jobs/)]);
  });

  it('checks any metric by its path, and names a folder that is not a results folder', () => {
    expect(gridemu(['compare', a, b, '--tolerance', '0', '--metrics', 'claims.denied,messages.total']).code).toBe(0);
    const missing = gridemu(['compare', a, join(dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(join(dir, 'nope', 'summary.json'));
    // A cell that is not a number names its file, line and column, as bad input does everywhere;
    // read as NaN it would count as a job submitted differently.
    const bent = join(dir, 'bent');
    mkdirSync(bent);
    writeFileSync(join(bent, 'summary.json'), readFileSync(join(a, 'summary.json')));
    const lines = readFileSync(join(a, 'jobs.csv'), 'utf8').split('\n');
    const submitAt = lines[0]!.split(',').indexOf('submission_time');
    lines[2] = lines[2]!
      .split(',')
      .map((f, i) => (i === submitAt ? 'soon' : f))
      .join(',');
    writeFileSync(join(bent, 'jobs.csv'), lines.join('\n'));
    const bad = gridemu(['compare', a, bent]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(`${join(bent, 'jobs.csv')}:3: submission_time "soon" is not a number`);
  });

  it('names an aborted run, and fails it whatever its numbers once a limit is asked for', () => {
    const aborted = join(dir, 'aborted');
    mkdirSync(aborted);
    const summary = JSON.parse(readFileSync(join(b, 'summary.json'), 'utf8'));
    writeFileSync(
      join(aborted, 'summary.json'),
      JSON.stringify({ ...summary, live: { aborted: 'the driver got SIGINT' } }),
    );
    writeFileSync(join(aborted, 'jobs.csv'), readFileSync(join(b, 'jobs.csv')));
    const plain = gridemu(['compare', a, aborted]);
    expect(plain.code).toBe(0);
    expect(plain.out).toContain(`B: ${aborted}  ABORTED (the driver got SIGINT)`);
    const limited = gridemu(['compare', a, aborted, '--tolerance', '1000000']);
    expect(limited.code).toBe(1);
    expect(limited.out).toContain('NOT A WHOLE RUN: B was aborted (the driver got SIGINT)');
    expect(gridemu(['compare', a, b, '--tolerance', '1000000']).code).toBe(0);
  });

  it('sets what two live runs measured of themselves side by side, and names the one whose guard warned', () => {
    const summary = JSON.parse(readFileSync(join(b, 'summary.json'), 'utf8'));
    const liveFolder = (name: string, delay_ms: number, warnings: string[]) => {
      const folder = join(dir, name);
      mkdirSync(folder);
      const live = {
        speedup: 1000,
        run_wall_s: 10 * delay_ms,
        latency_ms: { count: 100, mean_ms: delay_ms, p95_ms: 3 * delay_ms },
        timer_lag_ms: { count: 50, mean_ms: delay_ms / 10, p95_ms: delay_ms / 2 },
        fidelity: { measured: { warnings } },
      };
      writeFileSync(join(folder, 'summary.json'), JSON.stringify({ ...summary, live }));
      writeFileSync(join(folder, 'jobs.csv'), readFileSync(join(b, 'jobs.csv')));
      return folder;
    };
    const quiet = liveFolder('live-quiet', 2, []);
    const late = liveFolder('live-late', 8, ['timers fell behind', 'one hop is long']);
    const r = gridemu(['compare', quiet, late, '--json']);
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out) as { metrics: { metric: string; a: number; b: number }[]; fidelity_warnings: object };
    const row = (m: string) => j.metrics.find((x) => x.metric === m);
    expect(row('live.latency_ms.p95_ms')).toMatchObject({ a: 6, b: 24 });
    expect(row('live.timer_lag_ms.mean_ms')).toMatchObject({ a: 0.2, b: 0.8 });
    expect(row('live.run_wall_s')).toMatchObject({ a: 20, b: 80 });
    expect(j.fidelity_warnings).toEqual({ a: 0, b: 2 });
    const text = gridemu(['compare', quiet, late]).out;
    expect(text).toMatch(/^live\.latency_ms\.mean_ms +2\.00 +8\.00 /m);
    expect(text).toContain("FIDELITY WARNING: B's fidelity guard warned 2 times");
    expect(text).not.toContain("A's fidelity guard");
    // A simulation has nothing of the kind: no live rows, no guard, against a live run or another simulation.
    const mixed = JSON.parse(gridemu(['compare', a, late, '--json']).out) as typeof j;
    expect(mixed.metrics.some((m) => m.metric.startsWith('live.'))).toBe(false);
    expect(mixed.fidelity_warnings).toEqual({ b: 2 });
    expect(JSON.parse(gridemu(['compare', a, b, '--json']).out).fidelity_warnings).toEqual({});
  });

  it('names the runs of a folder of runs given instead of one run', () => {
    const sweep = join(dir, 'sweep');
    expect(gridemu(['sweep', spec, '--vary', 'meta.k=1,2', '--out', sweep]).code).toBe(0);
    const r = gridemu(['compare', a, sweep]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/is a folder of 2 runs \(simulate or run --seeds, or sweep\); give one of them, e\.g\. /);
    const [, example] = /e\.g\. (\S+)/.exec(r.err)!;
    expect(gridemu(['compare', a, example!]).code).toBe(0);
  });

  it('lists the fields two specs differ in, as --set names them', () => {
    const spec = { seed: 1, meta: { k: 2 }, workload: [{ skip: 0 }, { skip: 5 }], sites: [{ id: 's1' }] };
    expect(specDifferences(spec, spec)).toEqual([]);
    expect(
      specDifferences(spec, {
        seed: 2,
        meta: { k: 2, claim: 'x' },
        workload: [{ skip: 0 }, { skip: 9 }, { skip: 1 }],
        sites: [{ id: 's1' }],
      }),
    ).toEqual([
      { path: 'seed', a: 1, b: 2 },
      { path: 'meta.claim', a: undefined, b: 'x' },
      { path: 'workload[1].skip', a: 5, b: 9 },
      { path: 'workload[2]', a: undefined, b: { skip: 1 } },
    ]);
    expect(describeSpecDifference({ path: 'meta.claim', a: undefined, b: 'x' })).toBe('meta.claim none → "x"');
    expect(describeSpecDifference({ path: 'w', a: 'a'.repeat(50), b: 1 })).toBe(`w "${'a'.repeat(36)}... → 1`);
  });

  it('computes relative differences and start statistics by hand', () => {
    expect(metricDiff('x', 10, 11)).toMatchObject({ diff: 1, relative: 0.1 });
    expect(metricDiff('x', 0, 0).relative).toBe(0);
    expect(metricDiff('x', 0, 1).relative).toBeUndefined();
    const s = startDiffs(
      new Map([
        ['j1', { start: 0, site: 'a' }],
        ['j2', { start: 10, site: 'a' }],
        ['j3', { start: 5, site: 'b' }],
      ]),
      new Map([
        ['j1', { start: 0, site: 'a' }],
        ['j2', { start: 14, site: 'b' }],
        ['j4', { start: 1, site: 'b' }],
      ]),
    );
    expect(s).toMatchObject({
      compared: 2,
      identical: 1,
      sameSite: 1,
      onlyA: 1,
      onlyB: 1,
      mean_abs_s: 2,
      max_abs_s: 4,
    });
    expect(s.largest[0]).toEqual({ job: 'j2', a: 10, b: 14, diff: 4 });
    const job = (submit_s: number, procs: number, requested_s: number | null) => ({ submit_s, procs, requested_s });
    const d = submissionDiffs(
      new Map([
        ['j1', job(0, 4, 100)],
        ['j2', job(10, 1, null)],
        ['j3', job(20, 2, 50)],
        ['j5', job(30, 2, 50)],
      ]),
      new Map([
        ['j1', job(0, 4, 100)],
        ['j2', job(10, 1, null)],
        ['j3', job(20, 2, 60)],
        ['j4', job(30, 2, 50)],
      ]),
    );
    expect(d).toEqual({ compared: 3, differing: 1, example: { job: 'j3', a: job(20, 2, 50), b: job(20, 2, 60) } });
  });
});

describe('gridemu compare of two folders of seeds', () => {
  /** A folder of seeds by hand: seeds.csv with these seeds and mean waits. */
  function seedsFolder(seeds: number[], waits: number[]): string {
    const dir = tmp();
    writeFileSync(
      join(dir, 'seeds.csv'),
      ['seed,mean_wait_s,utilization', ...seeds.map((s, i) => `${s},${waits[i]},0.5`)].join('\n') + '\n',
    );
    writeFileSync(join(dir, 'seeds.json'), '{}\n');
    return dir;
  }

  it('puts each mean with its 90% interval side by side, with the paired t-test when both ran the same seeds', () => {
    // By hand: differences 1, 2, 3 (mean 2, s 1), t = 2 / (1 / sqrt 3) = 3.4641 with 2 degrees of
    // freedom, whose CDF is 1/2 + t / (2 sqrt(2 + t^2)): p = 2 (1 - 0.96291) = 0.0742. A's interval:
    // t(0.95, 2) = 2.9200 times 2 / sqrt 3 = 3.3717; B's: 2.9200 times 3 / sqrt 3 = 5.0576.
    const a = seedsFolder([1, 2, 3], [10, 12, 14]);
    const b = seedsFolder([1, 2, 3], [11, 14, 17]);
    const r = gridemu(['compare', a, b, '--json']);
    expect(r.code, r.err).toBe(0);
    const c = JSON.parse(r.out);
    expect(c.test).toBe('paired');
    const wait = c.metrics.find((m: { metric: string }) => m.metric === 'mean_wait_s');
    expect(wait.a).toBe(12);
    expect(wait.b).toBe(14);
    expect(wait.a_interval.half_width).toBeCloseTo(3.3717, 3);
    expect(wait.b_interval.half_width).toBeCloseTo(5.0576, 3);
    expect(wait.p).toBeCloseTo(0.0742, 3);
    // Utilization is the same seed by seed: no difference, p 1.
    const util = c.metrics.find((m: { metric: string }) => m.metric === 'utilization');
    expect([util.diff, util.p]).toEqual([0, 1]);
    const text = gridemu(['compare', a, b]);
    expect(text.out).toMatch(/mean_wait_s +12\.00 ± 3\.37 +14\.00 ± 5\.06 +2\.00 +\+16\.67% +0\.0742\n/);
    // Without --tolerance nothing is judged: the table has no verdict column, and a line says what it would check.
    expect(text.out).not.toContain('within');
    expect(text.out).toContain(
      '--tolerance PCT would check the means of mean_wait_s, mean_turnaround_s, mean_bounded_slowdown, utilization',
    );
    // Folders without runs' summaries cannot say which jobs each seed submitted.
    expect(c.seeds_with_other_jobs).toBeUndefined();
    expect(text.out).toContain(
      "p: paired t-test over the 3 seeds both ran (each seed draws the same on both sides, and so submits the same jobs unless the two specs' workloads differ), two-sided",
    );
    // --tolerance on the means: 16.67% is over 10 and under 20; a checked metric the folders do
    // not have (mean_turnaround_s by default) fails it.
    const checked = ['--metrics', 'mean_wait_s,utilization'];
    const over = gridemu(['compare', a, b, '--tolerance', '10', ...checked]);
    expect(over.code).toBe(1);
    // The verdict per checked metric, in the table's last column.
    expect(over.out).toMatch(/mean_wait_s +12\.00 ± 3\.37 +14\.00 ± 5\.06 +2\.00 +\+16\.67% +0\.0742 +NO\n/);
    expect(over.out).toMatch(/utilization .* +yes\n/);
    const within = gridemu(['compare', a, b, '--tolerance', '20', ...checked]);
    expect(within.code).toBe(0);
    expect(within.out).toMatch(/mean_wait_s .* \+16\.67% +0\.0742 +yes\n/);
    const missing = gridemu(['compare', a, b, '--tolerance', '20']);
    expect(missing.code).toBe(1);
    expect(missing.out).toContain("OVER TOLERANCE: mean_turnaround_s: not a number in both folders' seeds");
    // An empty cell is a metric the seed does not define; any other that is not a number is bad input.
    const bad = seedsFolder([1, 2, 3], [10, 12, 14]);
    writeFileSync(join(bad, 'seeds.csv'), 'seed,mean_wait_s,utilization\n1,10,0.5\n2,n/a,0.5\n');
    const refused = gridemu(['compare', a, bad]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('seeds.csv:3: mean_wait_s "n/a" is not a number');
  });

  it("takes Welch's test when the folders ran different seeds, and says what it cannot compare", () => {
    const a = seedsFolder([1, 2, 3], [10, 12, 14]);
    const b = seedsFolder([4, 5, 6], [11, 14, 17]);
    const c = JSON.parse(gridemu(['compare', a, b, '--json']).out);
    expect(c.test).toBe('welch');
    expect(gridemu(['compare', a, b]).out).toContain("p: Welch's t-test (the folders ran different seeds");
    const unknown = gridemu(['compare', a, b, '--metrics', 'mean_wait']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(
      /--metrics: neither \S+ nor \S+ has a column "mean_wait" in seeds.csv; did you mean mean_wait_s\?/,
    );
    const job = gridemu(['compare', a, b, '--job', 's1!1']);
    expect(job.code).toBe(2);
    expect(job.err).toContain('--job compares two runs job by job');
  });

  it("tests a single run against a folder of seeds' mean: a live run against its replays, say", () => {
    const dir = tmp();
    const spec = smallSpec(dir, { sites: 3, jobs: 40, scheme: 'k-distributed', k: 2 });
    const single = join(dir, 'single');
    expect(gridemu(['simulate', spec, '--out', single, '--quiet']).code).toBe(0);
    const wait = JSON.parse(readFileSync(join(single, 'summary.json'), 'utf8')).mean_wait_s as number;
    // The seeds' waits are the run's plus 1, 2 and 3: the one-sample test of their mean against
    // it is the paired test by hand above (t = 3.4641, 2 degrees of freedom, p = 0.0742).
    const seeds = seedsFolder([1, 2, 3], [wait + 1, wait + 2, wait + 3]);
    const c = JSON.parse(gridemu(['compare', single, seeds, '--json']).out);
    expect(c.test).toBe('one-sample');
    expect(c.a.single).toBe(true);
    const m = c.metrics.find((x: { metric: string }) => x.metric === 'mean_wait_s');
    expect(m.diff).toBeCloseTo(2, 9);
    expect(m.p).toBeCloseTo(0.0742, 3);
    const text = gridemu(['compare', single, seeds]);
    expect(text.out).toContain(`A: ${single} (one simulation, seed 7)`);
    expect(text.out).toContain("p: one-sample t-test of the 3 seeds' mean against the single run's value");
    expect(gridemu(['compare', single, seeds, '--max-start-diff', '0']).err).toContain(
      `--max-start-diff compares two runs job by job; ${seeds} is a folder of seeds`,
    );
  });

  it('compares two folders of simulate --seeds of one spec: nothing differs', () => {
    const dir = tmp();
    const spec = smallSpec(dir, { sites: 3, jobs: 40, scheme: 'k-distributed', k: 2 });
    const [a, b] = [join(dir, 'a'), join(dir, 'b')];
    for (const out of [a, b]) expect(gridemu(['simulate', spec, '--seeds', '3', '--out', out, '--quiet']).code).toBe(0);
    const r = gridemu(['compare', a, b, '--tolerance', '0']);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toContain(`A: ${a} (simulate --seeds: 3 seeds, 7, 8, 9)`);
    expect(r.out).toMatch(/claims_granted .* 1\.0000/);
  });
});

describe('gridemu compare of two variants of a sweep', () => {
  /** A sweep folder by hand: sweep.csv with two variants of meta.scheme over seeds 1 to 3. */
  function sweepFolder(waitsA: number[], waitsB: number[]): string {
    const dir = tmp();
    const rows = [
      ...waitsA.map((w, i) => `meta.scheme=distributed,distributed,${i + 1},${w},0.5`),
      ...waitsB.map((w, i) => `meta.scheme=k-distributed,k-distributed,${i + 1},${w},0.5`),
    ];
    writeFileSync(
      join(dir, 'sweep.csv'),
      ['variant,meta.scheme,seed,mean_wait_s,utilization', ...rows].join('\n') + '\n',
    );
    return dir;
  }

  it('compares them paired by seed from sweep.csv, the varied values not taken for metrics', () => {
    // The paired test by hand above: differences 1, 2, 3, p = 0.0742.
    const sweep = sweepFolder([10, 12, 14], [11, 14, 17]);
    const r = gridemu(['compare', sweep, 'meta.scheme=distributed', 'meta.scheme=k-distributed', '--json']);
    expect(r.code, r.err).toBe(0);
    const c = JSON.parse(r.out);
    expect(c.test).toBe('paired');
    expect([c.a.variant, c.b.variant]).toEqual(['meta.scheme=distributed', 'meta.scheme=k-distributed']);
    expect(c.metrics.map((m: { metric: string }) => m.metric)).toEqual(['mean_wait_s', 'utilization']);
    const wait = c.metrics[0];
    expect([wait.a, wait.b]).toEqual([12, 14]);
    expect(wait.p).toBeCloseTo(0.0742, 3);
    const text = gridemu(['compare', sweep, 'meta.scheme=distributed', 'meta.scheme=k-distributed']);
    expect(text.out).toContain(`A: meta.scheme=distributed of ${sweep} (sweep: 3 seeds, 1, 2, 3)`);
    // The varied field is a column of sweep.csv, but not a metric.
    const axis = gridemu([
      'compare',
      sweep,
      'meta.scheme=distributed',
      'meta.scheme=k-distributed',
      '--metrics',
      'meta.scheme',
    ]);
    expect(axis.code).toBe(2);
    expect(axis.err).toContain('has a column "meta.scheme" in sweep.csv');
    expect(text.out).toMatch(/mean_wait_s +12\.00 ± 3\.37 +14\.00 ± 5\.06 +2\.00 +\+16\.67% +0\.0742\n/);
  });

  it('names a variant the sweep does not have, and a folder that is not a sweep', () => {
    const sweep = sweepFolder([10, 12, 14], [11, 14, 17]);
    const typo = gridemu(['compare', sweep, 'meta.scheme=distributd', 'meta.scheme=k-distributed']);
    expect(typo.code).toBe(2);
    expect(typo.err).toContain(
      `${sweep} has no variant "meta.scheme=distributd" (its variants: meta.scheme=distributed; meta.scheme=k-distributed); did you mean meta.scheme=distributed?`,
    );
    const notSweep = gridemu(['compare', tmp(), 'a', 'b']);
    expect(notSweep.code).toBe(2);
    expect(notSweep.err).toContain('compare DIR VARIANT_A VARIANT_B compares two variants of a sweep, and');
    const job = gridemu(['compare', sweep, 'meta.scheme=distributed', 'meta.scheme=k-distributed', '--job', 's1!1']);
    expect(job.code).toBe(2);
    expect(job.err).toContain(
      '--job compares two runs job by job; two variants of a sweep are compared by their seeds',
    );
    // A seed that is not a number is bad input naming its line, not a seed NaN.
    const bent = sweepFolder([10, 12, 14], [11, 14, 17]);
    const csv = readFileSync(join(bent, 'sweep.csv'), 'utf8').replace(
      'distributed,distributed,2,',
      'distributed,distributed,two,',
    );
    writeFileSync(join(bent, 'sweep.csv'), csv);
    const seed = gridemu(['compare', bent, 'meta.scheme=distributed', 'meta.scheme=k-distributed']);
    expect(seed.code).toBe(2);
    expect(seed.err).toContain('sweep.csv:3: seed "two" is not a number');
  });

  it("of a sweep that ran: each side's mean is its runs' mean", () => {
    const dir = tmp();
    const spec = smallSpec(dir, { sites: 3, jobs: 40, scheme: 'k-distributed', k: 2 });
    const sweep = join(dir, 'sweep');
    expect(gridemu(['sweep', spec, '--vary', 'meta.k=1,3', '--seeds', '2', '--out', sweep]).code).toBe(0);
    const c = JSON.parse(gridemu(['compare', sweep, 'meta.k=1', 'meta.k=3', '--json']).out);
    expect(c.a.seeds).toEqual([7, 8]);
    expect(c.a.scheme).toBe('k-distributed');
    const wait = (variant: string, seed: number) =>
      JSON.parse(readFileSync(join(sweep, `${variant}__seed${seed}`, 'summary.json'), 'utf8')).mean_wait_s as number;
    const m = c.metrics.find((x: { metric: string }) => x.metric === 'mean_wait_s');
    expect(m.a).toBeCloseTo((wait('meta.k=1', 7) + wait('meta.k=1', 8)) / 2, 4);
    expect(m.b).toBeCloseTo((wait('meta.k=3', 7) + wait('meta.k=3', 8)) / 2, 4);
    // Another K, the same jobs seed by seed: the pairing holds the workload.
    expect(c.seeds_with_other_jobs).toEqual([]);
    expect(gridemu(['compare', sweep, 'meta.k=1', 'meta.k=3']).out).toContain(
      'p: paired t-test over the 2 seeds both ran (each seed submitted the same jobs on both sides), two-sided',
    );
    // A varied workload: paired by seed still, but the pairing is said not to hold the jobs.
    const jobs = join(dir, 'jobs-sweep');
    expect(
      gridemu(['sweep', spec, '--vary', 'workload[0].synthetic.jobs=30,40', '--seeds', '2', '--out', jobs]).code,
    ).toBe(0);
    const [x, y] = ['workload[0].synthetic.jobs=30', 'workload[0].synthetic.jobs=40'];
    expect(JSON.parse(gridemu(['compare', jobs, x, y, '--json']).out).seeds_with_other_jobs).toEqual([7, 8]);
    expect(gridemu(['compare', jobs, x, y]).out).toContain(
      "(but every seed submitted other jobs on each side: the pairing holds the seed's other draws, not the workload)",
    );
  });
});

describe('gridemu compare with protocol traces (issue 15)', () => {
  const dir = tmp();
  const spec = smallSpec(dir, { sites: 3, jobs: 30, scheme: 'k-distributed', k: 2 });
  const [a, b, plain] = ['a', 'b', 'plain'].map((n) => join(dir, n)) as [string, string, string];
  expect(gridemu(['simulate', spec, '--out', a, '--quiet', '--set', 'protocol_trace=true']).code).toBe(0);
  expect(
    gridemu(['simulate', spec, '--out', b, '--quiet', '--set', 'protocol_trace=true', '--set', 'meta.k=3']).code,
  ).toBe(0);
  expect(gridemu(['simulate', spec, '--out', plain, '--quiet']).code).toBe(0);

  it('puts the claim protocol side by side, and one job step by step', () => {
    const r = gridemu(['compare', a, b, '--job', 's1!1']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/claim protocol \(protocol-trace.csv\): 90 jobs traced in A, 90 in B/);
    expect(r.out).toMatch(/copies.sent per job +1\.00 +1\.00/);
    expect(r.out).toContain('s1!1, step by step (A left, B right):');
    // K = 2 copies left, 3 right, each with the loads the origin chose on.
    expect(r.out).toMatch(/copies\.sent +to=\S+ \S+ heard=\S+ +\| .*copies\.sent +to=\S+ \S+ \S+ heard=\S+/);
    const json = JSON.parse(gridemu(['compare', a, b, '--json']).out);
    expect(json.protocol.a.events['copies.sent']).toBe(90);
    expect(json.protocol.grant_delay.compared).toBe(90);
  });

  it('without a trace in both folders there is no protocol table, and --job says what it needs (exit 2)', () => {
    const r = gridemu(['compare', a, plain]);
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('claim protocol');
    const job = gridemu(['compare', a, plain, '--job', 's1!1']);
    expect(job.code).toBe(2);
    expect(job.err).toContain('protocol_trace: true');
  });

  it('a protocol-trace.csv cut short is bad input naming its line (exit 2), not a crash', () => {
    const cut = join(tmp(), 'cut');
    mkdirSync(cut);
    for (const f of ['summary.json', 'jobs.csv']) writeFileSync(join(cut, f), readFileSync(join(a, f)));
    const trace = readFileSync(join(a, 'protocol-trace.csv'), 'utf8').split('\n');
    writeFileSync(join(cut, 'protocol-trace.csv'), [...trace.slice(0, 3), trace[3]!.slice(0, 5)].join('\n'));
    const r = gridemu(['compare', a, cut]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${join(cut, 'protocol-trace.csv')}:4: expected 5 fields with a numeric time_s`);
    expect(r.err).not.toContain('    at ');
  });

  it("a live run's trace lines become rows by emulated time; a broken one names its log and line", () => {
    const logs = join(tmp(), 'logs');
    mkdirSync(logs);
    const line = (t: number, site: string, event: string) =>
      JSON.stringify({
        level: 30,
        site,
        actor: `${site}/scheduler`,
        job: 'j',
        event,
        detail: 'claim=1',
        time_s: t,
        msg: 'trace',
      });
    writeFileSync(
      join(logs, 's1.log'),
      [line(5, 's1', 'claim.granted'), '{"msg":"job.started"}', line(1, 's1', 'claim.sent')].join('\n') + '\n',
    );
    writeFileSync(join(logs, 's2.log'), line(3, 's2', 'origin.grant') + '\n');
    expect(protocolTraceFromLogs(logs).map((r) => `${r.time_s} ${r.location} ${r.event}`)).toEqual([
      '1 s1 claim.sent',
      '3 s2 origin.grant',
      '5 s1 claim.granted',
    ]);
    writeFileSync(join(logs, 's2.log'), '{"msg":"trace", "job": \n');
    expect(() => protocolTraceFromLogs(logs)).toThrow(
      `${join(logs, 's2.log')}:1: a protocol trace line that is not JSON`,
    );
  });
});

describe('gridemu check', () => {
  it("passes a simulation's results, fails a folder with a job missing (exit 1), and names a folder that is not one (exit 2)", () => {
    const dir = tmp();
    const out = join(dir, 'q');
    expect(gridemu(['simulate', 'examples/quickstart.yaml', '--out', out, '--quiet']).code).toBe(0);
    const good = gridemu(['check', out]);
    expect(good.code, good.err).toBe(0);
    expect(good.out.trim().split('\n')).toHaveLength(4);
    expect(good.out).not.toMatch(/BROKEN/);
    const lines = readFileSync(join(out, 'jobs.csv'), 'utf8').split('\n');
    writeFileSync(join(out, 'jobs.csv'), [lines[0], ...lines.slice(2)].join('\n'));
    const bad = gridemu(['check', out]);
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/BROKEN {2}one final row per submitted job: 7999 rows for 8000 submitted jobs/);
    const none = gridemu(['check', join(dir, 'nothing')]);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/jobs\.csv: not found/);
  });

  it("a live run's logs: a run lost in a crash is not a second start, but a second start or an overlap with the lost run is broken (issue 11)", () => {
    const dir = tmp();
    const out = join(dir, 'r');
    expect(gridemu(['simulate', smallSpec(dir, { sites: 2, jobs: 5 }), '--out', out, '--quiet']).code).toBe(0);
    const [header, first] = readFileSync(join(out, 'jobs.csv'), 'utf8').split('\n');
    const cols = header!.split(',');
    const f = first!.split(',');
    const id = f[cols.indexOf('job_id')]!;
    const site = f[cols.indexOf('exec_site')]!;
    const start = Number(f[cols.indexOf('starting_time')]);
    const line = (o: object) => JSON.stringify({ level: 30, run: 'r', site, ...o });
    const logs = (...lines: string[]) => {
      mkdirSync(join(out, 'logs'), { recursive: true });
      writeFileSync(join(out, 'logs', `${site}.log`), lines.join('\n') + '\n');
      return gridemu(['check', out]);
    };
    const lostRun = [
      line({ event: 'job.started', jobId: id, time_s: start - 100 }),
      line({ event: 'job.lost', jobId: id, time_s: start - 50, started_s: start - 100 }),
    ];
    const finalStart = line({ event: 'job.started', jobId: id, time_s: start });
    const ok = logs(...lostRun, finalStart);
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toMatch(/no job ran twice or overlapped itself: \d+ runs, lost ones included/);
    // A killed process may not have written its last lines: the loss alone is evidence of the run.
    expect(logs(lostRun[1]!, finalStart).code).toBe(0);
    const twice = logs(
      ...lostRun,
      finalStart,
      line({ event: 'job.started', jobId: id, time_s: start + 1, site: 'elsewhere' }),
    );
    expect(twice.code).toBe(1);
    expect(twice.out).toMatch(
      new RegExp(`BROKEN {2}no job ran twice or overlapped itself: .*${id.replace('!', '\\!')} started at`),
    );
    const overlap = logs(line({ event: 'job.lost', jobId: id, time_s: start + 10, started_s: start - 10 }), finalStart);
    expect(overlap.code).toBe(1);
    expect(overlap.out).toMatch(/ran at .* and .* from/);
    // A restart writes again, marked, the lines of the turns its predecessor stored and may have
    // died before writing (LiveRecovery): a copy of a line there already is read once...
    const again = (l: string) => l.replace(/}$/, ',"time":99,"replayed":true}');
    const twins = logs(...lostRun, again(lostRun[1]!), finalStart, again(finalStart));
    expect(twins.code, twins.out).toBe(0);
    // ...and one its predecessor never wrote is the evidence (fuzz seed 14 with JetStream journals).
    expect(logs(lostRun[0]!, again(lostRun[1]!), finalStart).code).toBe(0);
    // An optimistic run lost before its verdict never counted as a start.
    expect(
      logs(
        line({ event: 'job.lost', jobId: id, time_s: start + 10, started_s: start - 10, provisional: true }),
        finalStart,
      ).code,
    ).toBe(0);
  });
});

describe('gridemu fuzz', () => {
  it("passes 20 seeds: every random experiment keeps the actors' assertions and gridemu check's invariants", () => {
    // CI's 300 seeds run in npm run test:slow (scripts/slow-tests.mjs).
    const r = gridemu(['fuzz', '--seeds', '20']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/20 seeds passed \(1\.\.20\)/);
  }, 600_000);

  it('--seed S prints the experiment it ran, so a failure can be reproduced', () => {
    const a = gridemu(['fuzz', '--seed', '17']);
    expect(a.code, a.err).toBe(0);
    expect(a.out).toMatch(/^name: fuzz-17\nseed: 17\n/);
    expect(gridemu(['fuzz', '--seed', '17']).out).toBe(a.out);
    expect(gridemu(['fuzz', '--seeds', '0']).code).toBe(2);
  });
});
