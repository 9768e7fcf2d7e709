import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gridemu, kth, tmp } from './cli-helpers.js';
import { NEVER_ENDING_SPEC, NEVER_ENDING_STOP } from './live-helpers.js';

describe('gridemu simulate', () => {
  // GRUBER's small example: the Grid3 one's local users submit some 133,000 jobs a run.
  it('runs a GRUBER example over several seeds: a folder per seed, and means with 90% intervals', () => {
    const dir = tmp();
    const r = gridemu([
      'simulate',
      'examples/gruber-live.yaml',
      '--set',
      'workload[0].blast.jobs=10',
      '--seeds',
      '3',
      '--out',
      dir,
      '--quiet',
    ]);
    expect(r.code, r.err).toBe(0);
    const json = JSON.parse(readFileSync(join(dir, 'seeds.json'), 'utf8'));
    expect(json.seeds).toEqual([1, 2, 3]);
    const rows = readFileSync(join(dir, 'seeds.csv'), 'utf8').trim().split('\n');
    expect(rows).toHaveLength(4);
    const speedups = rows.slice(1).map((l) => Number(l.split(',')[rows[0]!.split(',').indexOf('speedup')]));
    const mean = speedups.reduce((a, b) => a + b, 0) / 3;
    expect(json.metrics.speedup.mean).toBeCloseTo(mean, 3);
    expect(json.metrics.speedup.confidence).toBe(0.9);
    // Each seed's run is the run `--set seed=S` gives: same jobs.csv.
    const single = tmp();
    expect(
      gridemu([
        'simulate',
        'examples/gruber-live.yaml',
        '--set',
        'workload[0].blast.jobs=10',
        '--set',
        'seed=2',
        '--out',
        single,
        '--quiet',
      ]).code,
    ).toBe(0);
    expect(readFileSync(join(dir, 'seed-2', 'jobs.csv'), 'utf8')).toBe(readFileSync(join(single, 'jobs.csv'), 'utf8'));
    expect(gridemu(['simulate', 'examples/gruber-live.yaml', '--seeds', '0']).code).toBe(2);

    // check takes the folder of seeds and checks each; one seed's broken run fails it.
    const checked = gridemu(['check', dir]);
    expect(checked.code, checked.err).toBe(0);
    expect(checked.out).toContain('seed-1:\n  ok ');
    expect(checked.out).toContain('3 of 3 runs checked: every invariant holds');
    const seed3 = join(dir, 'seed-3', 'jobs.csv');
    const lines = readFileSync(seed3, 'utf8').trimEnd().split('\n');
    writeFileSync(seed3, lines.slice(0, -1).join('\n') + '\n');
    const broken = gridemu(['check', dir]);
    expect(broken.code).toBe(1);
    expect(broken.out).toMatch(/seed-3:\n {2}BROKEN {2}one final row per submitted job/);
    expect(broken.out).toContain('3 of 3 runs checked: 1 broken');
    const report = gridemu(['report', dir]);
    expect(report.code, report.err).toBe(0);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('Mean wait (s) by seed');
    // Fewer seeds into the same folder: the earlier seed-3, broken above, is not read as one of them.
    const again = gridemu([
      'simulate',
      'examples/gruber-live.yaml',
      '--set',
      'workload[0].blast.jobs=10',
      '--seeds',
      '2',
      '--out',
      dir,
      '--quiet',
    ]);
    expect(again.code, again.err).toBe(0);
    expect(existsSync(join(dir, 'seed-3'))).toBe(false);
    expect(gridemu(['check', dir]).out).toContain('2 of 2 runs checked: every invariant holds');
    // Six runs of the Grid3 example (133,000 local jobs each), then checks and a report over their
    // jobs.csv: 29 s on an idle 2-core machine, 51 s with one paper report's sweeps beside it and
    // 76 s with two (2026-12-06), past vitest's default of 60 s. Each command keeps its own 120 s.
  }, 300_000);

  it('says what the seeds sampled: one run made N times, the same jobs each time, or workloads of their own', () => {
    const dir = tmp();
    // Twelve jobs of 1 to 4 processors on two 4-processor sites, one an hour apart from the other.
    const swf = Array.from({ length: 12 }, (_, i) =>
      [i + 1, i * 300, 0, 600 + i * 50, 1 + (i % 4), -1, -1, 1 + (i % 4), 1200, -1, 1, 1, 1, -1, 1, -1, -1, -1].join(
        ' ',
      ),
    ).join('\n');
    writeFileSync(join(dir, 'tiny.swf'), swf + '\n');
    const spec = (scheme: string, workload: string) =>
      [
        'name: seeds-note',
        'seed: 1',
        'sites: [{ id: s1, cpus: 4 }, { id: s2, cpus: 4 }]',
        'workload:',
        workload,
        'local: { policy: easy }',
        `meta: { scheme: ${scheme}, k: 2 }`,
        'network: { latency_ms: 10, jitter_ms: 5 }',
      ].join('\n') + '\n';
    const traces = '  - { site: s1, swf: tiny.swf }\n  - { site: s2, swf: tiny.swf, shift_h: 1 }';
    const runSeeds = (name: string, text: string) => {
      writeFileSync(join(dir, `${name}.yaml`), text);
      const r = gridemu(['simulate', join(dir, `${name}.yaml`), '--seeds', '3', '--out', join(dir, name)]);
      expect(r.code, r.err).toBe(0);
      return { out: r.out, json: JSON.parse(readFileSync(join(dir, name, 'seeds.json'), 'utf8')) };
    };
    // Sites that keep their own jobs draw nothing: three seeds, one run.
    const one = runSeeds('independent', spec('independent', traces));
    // Each run's summary says what made it, and which bytes of the trace it read.
    const summary = JSON.parse(readFileSync(join(dir, 'independent', 'seed-1', 'summary.json'), 'utf8'));
    expect(summary.provenance).toMatchObject({ gridemu: '0.1.0', node: process.version });
    expect(summary.workload[0].sha256).toBe(
      createHash('sha256')
        .update(swf + '\n')
        .digest('hex'),
    );
    expect(one.json).toMatchObject({ same_workload_every_seed: true, identical_runs: true });
    expect(one.out).toContain('NOTE: the 3 seeds made the same run (every metric equal)');
    // Claims over jittered links: the runs differ, the jobs do not.
    const jitter = runSeeds('k-distributed', spec('k-distributed', traces));
    expect(jitter.json).toMatchObject({ same_workload_every_seed: true, identical_runs: false });
    expect(jitter.out).toContain('NOTE: every seed submitted the same jobs');
    // A synthetic stream is drawn anew by each seed: nothing to say.
    const drawn = runSeeds(
      'synthetic',
      spec('independent', '  - { site: s1, synthetic: { jobs: 12 } }\n  - { site: s2, synthetic: { jobs: 12 } }'),
    );
    expect(drawn.json).toMatchObject({ same_workload_every_seed: false, identical_runs: false });
    expect(drawn.out).not.toContain('NOTE:');
    // The seeds' report says it in its table.
    expect(gridemu(['report', join(dir, 'independent')]).code).toBe(0);
    expect(readFileSync(join(dir, 'independent', 'report.html'), 'utf8')).toContain(
      'one run: every seed made the same run (every metric equal)',
    );
    expect(gridemu(['report', join(dir, 'synthetic')]).code).toBe(0);
    expect(readFileSync(join(dir, 'synthetic', 'report.html'), 'utf8')).toContain('a workload of its own in each seed');
    // compare says which side's seeds were one run, and what its p then rests on.
    const compared = gridemu(['compare', join(dir, 'independent'), join(dir, 'k-distributed')]);
    expect(compared.out).toContain(
      `NOTE: the 3 seeds of A made the same run (every metric equal): nothing there draws from the seed, so its "± 0" is no confidence interval, and a p above rests on the other side's seeds alone`,
    );
    expect(gridemu(['compare', join(dir, 'synthetic'), join(dir, 'k-distributed')]).out).not.toContain('NOTE:');
    // A sweep names the variants whose seeds made one run, and only those.
    const sweep = gridemu([
      'sweep',
      join(dir, 'independent.yaml'),
      '--vary',
      'meta.scheme=independent,k-distributed',
      '--seeds',
      '2',
      '--out',
      join(dir, 'sweep'),
    ]);
    expect(sweep.code, sweep.err).toBe(0);
    expect(sweep.err).toContain('note: the seeds of meta.scheme=independent made the same run');
    // ... and those whose seeds differed but submitted the same jobs, and only those.
    expect(sweep.err).toContain(
      "note: the seeds of meta.scheme=k-distributed submitted the same jobs (each run's summary.json has one jobs_sha256)",
    );
    const digest = (run: string) =>
      JSON.parse(readFileSync(join(dir, 'sweep', run, 'summary.json'), 'utf8')).jobs_sha256 as string;
    expect(digest('meta.scheme=k-distributed__seed1')).toMatch(/^[0-9a-f]{64}$/);
    expect(digest('meta.scheme=k-distributed__seed2')).toBe(digest('meta.scheme=k-distributed__seed1'));
    const synthetic = gridemu([
      'sweep',
      join(dir, 'synthetic.yaml'),
      '--vary',
      'meta.scheme=independent,k-distributed',
      '--seeds',
      '2',
      '--out',
      join(dir, 'synthetic-sweep'),
    ]);
    expect(synthetic.code, synthetic.err).toBe(0);
    expect(synthetic.err).not.toContain('note:');
    // The sweeps' reports say it too, from sweep.csv and the runs' summaries.
    const sampled = (sweepDir: string) => {
      expect(gridemu(['report', sweepDir]).code).toBe(0);
      return /what the seeds sampled<\/t[hd]><td>([^<]*)</.exec(
        readFileSync(join(sweepDir, 'report.html'), 'utf8'),
      )?.[1];
    };
    expect(sampled(join(dir, 'sweep'))).toBe(
      "one run in each seed of meta.scheme=independent: no interval there; the same jobs in every seed of meta.scheme=k-distributed: the intervals are over link delays and loss, failures and the schemes' own draws, not over workloads",
    );
    expect(sampled(join(dir, 'synthetic-sweep'))).toBe('a workload of its own in each seed');
  });

  it.skipIf(kth.skip)(
    kth.title("runs paper 001's KTH set-up: 20,000 rows, a summary, and byte-identical jobs.csv on a second run"),
    () => {
      const a = tmp();
      const b = tmp();
      const first = gridemu(['simulate', 'examples/kth-independent.yaml', '--out', a]);
      expect(first.err).toBe('');
      expect(first.code).toBe(0);
      expect(first.out).toContain('kth-independent: independent / easy');
      expect(gridemu(['simulate', 'examples/kth-independent.yaml', '--out', b, '--quiet']).code).toBe(0);
      const csv = readFileSync(join(a, 'jobs.csv'), 'utf8');
      expect(csv).toBe(readFileSync(join(b, 'jobs.csv'), 'utf8'));
      const lines = csv.trim().split('\n');
      expect(lines).toHaveLength(20001);
      expect(lines[0]).toBe(
        'job_id,workload_name,submission_time,requested_number_of_resources,requested_time,success,final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,allocated_resources,origin_site,exec_site,copies,migrations,replans,vo,group,reason,restarts,dag',
      );
      expect(new Set(lines.slice(1).map((l) => l.split(',')[0])).size).toBe(20000);
      const summary = JSON.parse(readFileSync(join(a, 'summary.json'), 'utf8'));
      expect(summary.jobs).toMatchObject({ submitted: 20000, completed: 20000, rejected: 0, unfinished: 0 });
      expect(Object.keys(summary.utilization.per_site)).toEqual(['s1', 's2', 's3', 's4']);
      expect(Object.keys(summary.by_origin_site)).toEqual(['s1', 's2', 's3', 's4']);
      expect(summary.categories.very_short_narrow.jobs).toBeGreaterThan(0);
      expect(summary.spec.name).toBe('kth-independent');
      // The stretched sites (s3, s4) are the heavily loaded ones, as in paper 001 §3.
      expect(summary.by_origin_site.s3.mean_slowdown).toBeGreaterThan(summary.by_origin_site.s1.mean_slowdown);
    },
  );

  it.skipIf(kth.skip)(
    kth.title('runs the unified scheme on one site with all CPUs, and --set changes the spec'),
    () => {
      const out = tmp();
      const r = gridemu([
        'simulate',
        'examples/kth-unified.yaml',
        '--out',
        out,
        '--quiet',
        '--set',
        'local.policy=fcfs',
      ]);
      expect(r.code).toBe(0);
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
      expect(summary.local_policy).toBe('fcfs');
      expect(Object.keys(summary.utilization.per_site)).toEqual(['unified']);
    },
  );

  it.skipIf(kth.skip)(kth.title('runs every scheme of paper 001 on the KTH set-up, losing no job'), () => {
    for (const scheme of ['centralized', 'hierarchical', 'distributed', 'k-distributed', 'k-dual']) {
      const out = tmp();
      const r = gridemu([
        'simulate',
        `examples/kth-${scheme}.yaml`,
        '--out',
        out,
        '--quiet',
        '--set',
        'workload[0].jobs=500',
        '--set',
        'workload[1].jobs=500',
        '--set',
        'workload[2].jobs=500',
        '--set',
        'workload[3].jobs=500',
      ]);
      expect(r.err).toBe('');
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
      expect(summary.scheme).toBe(scheme);
      expect(summary.jobs).toMatchObject({ submitted: 2000, completed: 2000, unfinished: 0 });
      if (scheme.startsWith('k-')) {
        expect(summary.claims.granted).toBe(2000);
        expect(summary.messages.per_job_by_type['claim.request']).toBeGreaterThanOrEqual(1);
      }
    }
  });

  it('rejects, and counts, jobs wider than their site', () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 't.swf'),
      ['1 0 -1 10 4 -1 -1 -1 20 -1 1 -1 -1 -1 -1 -1 -1 -1', '2 5 -1 10 64 -1 -1 -1 20 -1 1 -1 -1 -1 -1 -1 -1 -1'].join(
        '\n',
      ),
    );
    writeFileSync(join(dir, 'e.yaml'), 'name: w\nsites: [{ id: s, cpus: 8 }]\nworkload: [{ swf: t.swf }]\n');
    const r = gridemu(['simulate', join(dir, 'e.yaml'), '--out', join(dir, 'out')]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('1 rejected (wider_than_site: 1)');
    const rows = readFileSync(join(dir, 'out', 'jobs.csv'), 'utf8')
      .trim()
      .split('\n');
    expect(rows[2]).toBe('s!2,s,5,64,20,0,REJECTED,,,,,,,,s,,1,0,0,,,wider_than_site,0,');
  });

  it('ends a run that never would, naming the jobs left and how to run it again (exit 1)', () => {
    const dir = tmp();
    const file = join(dir, 'never.yaml');
    writeFileSync(file, NEVER_ENDING_SPEC);
    const r = gridemu(['simulate', file, '--out', join(dir, 'out'), '--set', 'meta.alpha=0.1']);
    expect(r.code, r.err).toBe(1);
    expect(r.err).toMatch(NEVER_ENDING_STOP);
    expect(r.err).toContain(`reproduce with: gridemu simulate ${file} --set 'meta.alpha=0.1' --set 'seed=3'`);
    expect(existsSync(join(dir, 'out', 'jobs.csv'))).toBe(false);
  });

  it('runs the quickstart with no trace at all', () => {
    const r = gridemu(['simulate', 'examples/quickstart.yaml', '--out', join(tmp(), 'q')], {
      GRIDEMU_TRACE_DIR: '/nonexistent',
    });
    expect(r.code).toBe(0);
    expect(r.out).toContain('jobs 8000 submitted, 8000 completed');
  });

  it('--summary-only writes summary.json alone, the same summary the full run writes', () => {
    const full = tmp();
    const lean = tmp();
    const args = ['simulate', 'examples/quickstart.yaml', '--set', 'workload[0].synthetic.jobs=100', '--out'];
    expect(gridemu([...args, full]).code).toBe(0);
    const r = gridemu([...args, lean, '--summary-only']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(join(lean, 'summary.json'));
    expect(r.out).not.toContain('jobs.csv');
    expect(readdirSync(lean)).toEqual(['summary.json']);
    const summary = (dir: string) => {
      const { wall_time_s: _, ...rest } = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
      return rest;
    };
    expect(summary(lean)).toEqual(summary(full));
  });
});

describe('gridemu sweep', () => {
  /** Two variants of a quickstart made smaller: a sweep of about a second. */
  const SMALL_SWEEP = [
    'sweep',
    'examples/quickstart.yaml',
    '--vary',
    'meta.k=1,2',
    '--set',
    'workload[0].synthetic.jobs=100',
  ];

  it('runs the grid of variants and seeds, and writes one table, the means and a chart', () => {
    const out = tmp();
    const r = gridemu([
      'sweep',
      'examples/quickstart.yaml',
      '--vary',
      'meta.scheme=distributed,k-distributed',
      '--vary',
      'meta.k=1,2',
      '--seeds',
      '2',
      '--set',
      'workload[0].synthetic.jobs=200',
      '--set',
      'workload[1].synthetic.jobs=200',
      '--set',
      'workload[2].synthetic.jobs=200',
      '--set',
      'workload[3].synthetic.jobs=200',
      '--out',
      out,
    ]);
    expect(r.err).toContain('[8/8]');
    expect(r.code).toBe(0);
    const rows = readFileSync(join(out, 'sweep.csv'), 'utf8').trim().split('\n');
    expect(rows).toHaveLength(9);
    expect(rows[0]!.startsWith('variant,meta.scheme,meta.k,seed,jobs_submitted,')).toBe(true);
    expect(rows[1]!.startsWith('"meta.scheme=distributed,meta.k=1",distributed,1,1,800,')).toBe(true);
    expect(rows[2]!.startsWith('"meta.scheme=distributed,meta.k=1",distributed,1,2,800,')).toBe(true);
    const means = readFileSync(join(out, 'sweep-mean.csv'), 'utf8').trim().split('\n');
    expect(means).toHaveLength(5);
    // Each metric's mean, then its 90% interval's half-width: two seeds that agree have none.
    const head = means[0]!.split(',');
    expect(head.slice(4, 6)).toEqual(['jobs_submitted', 'jobs_submitted_ci90']);
    expect(means[1]!.split(',')[head.indexOf('jobs_submitted_ci90') + 1]).toBe('0');
    expect(readFileSync(join(out, 'sweep.html'), 'utf8')).toContain('<svg');
  });

  it('warns of an axis that changed nothing (a field the scheme does not read), and refuses to vary the seed', () => {
    // quickstart's sites run independently: K copies mean nothing to them.
    const idle = gridemu(['sweep', 'examples/quickstart.yaml', '--vary', 'meta.k=1,2', '--out', tmp()]);
    expect(idle.code, idle.err).toBe(0);
    expect(idle.err).toContain('gridemu sweep: warning: --vary meta.k changed nothing');
    const busy = gridemu(['sweep', 'examples/quickstart.yaml', '--vary', 'sites[0].cpus=64,128', '--out', tmp()]);
    expect(busy.code, busy.err).toBe(0);
    expect(busy.err).not.toContain('warning');
    const seed = gridemu(['sweep', 'examples/quickstart.yaml', '--vary', 'seed=1,2', '--out', tmp()]);
    expect(seed.code).toBe(2);
    expect(seed.err).toContain('--vary seed=1,2: the seed is swept with --seeds N');
  });

  it("refuses a live run's options without --live, and a bad one with it, before running anything", () => {
    const sweep = ['sweep', 'examples/quickstart.yaml', '--vary', 'meta.k=1,2', '--out', tmp()];
    const stray = gridemu([...sweep, '--timeout', '60']);
    expect(stray.code).toBe(2);
    expect(stray.err).toContain('sweep: --timeout is an option of live runs: add --live, or leave it out');
    const prometheus = gridemu([...sweep, '--prometheus']);
    expect(prometheus.code).toBe(2);
    expect(prometheus.err).toContain('sweep: --prometheus is an option of live runs');
    const tlsElsewhere = gridemu([...sweep, '--live', '--tls', '--nats', 'nats://127.0.0.1:1']);
    expect(tlsElsewhere.code).toBe(2);
    expect(tlsElsewhere.err).toContain("--tls makes certificates for each run's own nats-server");
    const store = gridemu([...sweep, '--live', '--journal-store', 'disk']);
    expect(store.code).toBe(2);
    expect(store.err).toContain('--journal-store must be file or jetstream, got "disk"');
  });

  it('--resume keeps the runs an earlier sweep finished and makes only the rest, the same tables', () => {
    const out = tmp();
    const sweep = SMALL_SWEEP;
    expect(gridemu([...sweep, '--out', out]).code).toBe(0);
    const first = readFileSync(join(out, 'meta.k=1__seed1', 'summary.json'), 'utf8');
    const table = (dir: string) => readFileSync(join(dir, 'sweep.csv'), 'utf8').split('\n');
    const before = table(out);
    // One run lost (as if the sweep had stopped before it), and a second seed asked for.
    rmSync(join(out, 'meta.k=2__seed1'), { recursive: true });
    const resumed = gridemu([...sweep, '--seeds', '2', '--resume', '--out', out]);
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.err).toContain('meta.k=1 seed 1: kept, finished by an earlier sweep');
    expect(resumed.err).not.toContain('meta.k=2 seed 1: kept');
    expect(resumed.out).toContain('4 runs (1 kept from an earlier sweep)');
    // The kept run was not made again: its summary, wall time and all, is the earlier one.
    expect(readFileSync(join(out, 'meta.k=1__seed1', 'summary.json'), 'utf8')).toBe(first);
    const after = table(out);
    expect(after).toHaveLength(before.length + 2);
    expect(after[1]).toEqual(before[1]);
    // A --set that changes the experiment makes every run again.
    const other = gridemu([...sweep, '--set', 'meta.load_period_s=600', '--resume', '--out', out]);
    expect(other.code, other.err).toBe(0);
    expect(other.err).not.toContain('kept');
  });

  it('checks every variant before running any', () => {
    const r = gridemu(['sweep', 'examples/quickstart.yaml', '--vary', 'meta.k=1,9', '--out', tmp()]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('meta.k: must be at most the number of sites (4) (from --vary meta.k=9)');
  });

  it('--summaries-only keeps each run a summary.json and nothing else, and the same tables', () => {
    const full = tmp();
    const lean = tmp();
    const args = SMALL_SWEEP;
    expect(gridemu([...args, '--out', full]).code).toBe(0);
    expect(gridemu([...args, '--out', lean, '--summaries-only']).code).toBe(0);
    const runs = (dir: string) => readdirSync(dir).filter((f) => statSync(join(dir, f)).isDirectory());
    expect(runs(lean)).toEqual(runs(full));
    expect(runs(lean)).toHaveLength(2);
    // The same runs, but for how long each took.
    const summary = (dir: string, run: string) => {
      const { wall_time_s: _, ...rest } = JSON.parse(readFileSync(join(dir, run, 'summary.json'), 'utf8'));
      return rest;
    };
    for (const run of runs(lean)) {
      expect(readdirSync(join(full, run))).toContain('jobs.csv');
      expect(readdirSync(join(lean, run))).toEqual(['summary.json']);
      expect(summary(lean, run)).toEqual(summary(full, run));
    }
    // check takes a sweep folder too, and says when no run kept what it checks.
    const checked = gridemu(['check', full]);
    expect(checked.code, checked.err).toBe(0);
    expect(checked.out).toContain('2 of 2 runs checked: every invariant holds');
    const nothing = gridemu(['check', lean]);
    expect(nothing.code).toBe(2);
    expect(nothing.out).toContain('skipped, no jobs.csv');
    expect(nothing.err).toContain('none of its runs has a jobs.csv to check');
  });
});
