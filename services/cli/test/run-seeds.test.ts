import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvRows, gridemuLive, readCheck, readSummary, smallSpec, tmp } from './live-helpers.js';
import { checkExactlyOnce, clockStarted } from './live-checks.js';

/** seeds.csv as rows of named cells. */
const seedRows = (dir: string) => csvRows(join(dir, 'seeds.csv'));

describe('gridemu run --seeds: the same experiment live over several seeds', () => {
  it('runs each seed live into its own checked folder, then the means over them with their intervals', async () => {
    const dir = tmp();
    const spec = smallSpec(dir, { sites: 3, jobs: 20, speedup: 20000 });
    const out = join(dir, 'out');
    // What an earlier single run and a larger set of seeds left must not read as this set's.
    mkdirSync(join(out, 'seed-12'), { recursive: true });
    writeFileSync(join(out, 'seed-12', 'summary.json'), '{}\n');
    writeFileSync(join(out, 'summary.json'), '{}\n');
    const {
      code,
      err,
      out: stdout,
    } = await gridemuLive(['run', spec, '--seeds', '2', '--out', out, '--timeout', '90']).done;
    expect(code, err).toBe(0);
    expect(existsSync(join(out, 'seed-12'))).toBe(false);
    expect(existsSync(join(out, 'summary.json'))).toBe(false);
    const rows = seedRows(out);
    expect(rows.map((r) => r['seed'])).toEqual(['7', '8']);
    for (const seed of [7, 8]) {
      const run = join(out, `seed-${seed}`);
      checkExactlyOnce(run);
      expect(readCheck(run).ok).toBe(true);
      const s = readSummary(run);
      expect(s.mode).toBe('run');
      expect(s.seed).toBe(seed);
      expect(JSON.parse(readFileSync(join(run, 'experiment.json'), 'utf8')).experiment.seed).toBe(seed);
      const row = rows.find((r) => r['seed'] === String(seed))!;
      expect(Number(row['jobs_submitted'])).toBe(60);
      // The live run's own measures are columns too.
      expect(Number(row['live_latency_mean_ms'])).toBeCloseTo(s.live.latency_ms.mean_ms, 3);
      expect(Number(row['live_timer_lag_mean_ms'])).toBeCloseTo(s.live.timer_lag_ms.mean_ms, 3);
      expect(Number(row['live_fidelity_warnings'])).toBe(s.live.fidelity.measured.warnings.length);
    }
    // The seeds draw different workloads: seed 8's is not seed 7's.
    expect(readFileSync(join(out, 'seed-8', 'jobs.csv'), 'utf8')).not.toBe(
      readFileSync(join(out, 'seed-7', 'jobs.csv'), 'utf8'),
    );
    const json = JSON.parse(readFileSync(join(out, 'seeds.json'), 'utf8'));
    expect(json.seeds).toEqual([7, 8]);
    // Synthetic streams, drawn anew by each seed: the intervals are over workloads, nothing to note.
    expect(json).toMatchObject({ same_workload_every_seed: false, identical_runs: false });
    expect(stdout).not.toContain('NOTE:');
    const waits = [7, 8].map((seed) => readSummary(join(out, `seed-${seed}`)).mean_wait_s as number);
    expect(json.metrics.mean_wait_s.mean).toBeCloseTo((waits[0]! + waits[1]!) / 2, 3);
    expect(json.metrics.mean_wait_s.n).toBe(2);
    expect(json.metrics.live_latency_mean_ms.n).toBe(2);
    expect(stdout).toContain('2 live runs:');
    expect(stdout).toMatch(/live_latency_mean_ms +\S+ ± \S+ \(90%, n=2\)/);
    // At 20,000x the guard warns of this small grid's 5 s claim time-out; the means say so.
    const warned = rows.filter((r) => Number(r['live_fidelity_warnings']) > 0).map((r) => r['seed']);
    if (warned.length > 0) expect(stdout).toContain(`FIDELITY WARNING: the guard warned in the run`);
    else expect(stdout).not.toContain('FIDELITY WARNING: the guard warned');
  }, 240_000);

  it('stops at the first run that does not pass, writing no means over the seeds it did not run', async () => {
    const dir = tmp();
    // Far more emulated time than the test waits: the first seed's run is mid-way when it is interrupted.
    const spec = smallSpec(dir, { sites: 2, jobs: 2000, speedup: 200 });
    const out = join(dir, 'out');
    // An earlier set's tables, which must not outlive a set that stops before writing its own.
    mkdirSync(out);
    writeFileSync(join(out, 'seeds.csv'), 'seed,mean_wait_s\n7,1\n');
    writeFileSync(join(out, 'seeds.json'), '{}\n');
    const run = gridemuLive(['run', spec, '--seeds', '3', '--out', out, '--timeout', '300']);
    await clockStarted(join(out, 'seed-7'));
    run.child.kill('SIGINT');
    const { code, err } = await run.done;
    expect(code).toBe(1);
    expect(err).toMatch(
      /the run of seed 7 did not pass \(exit 1\); the seeds stop there, its results are in \S+seed-7/,
    );
    expect(readSummary(join(out, 'seed-7')).live.aborted).toBe('interrupted by SIGINT');
    expect(existsSync(join(out, 'seed-8'))).toBe(false);
    expect(existsSync(join(out, 'seeds.csv'))).toBe(false);
    expect(existsSync(join(out, 'seeds.json'))).toBe(false);
  }, 240_000);

  it('refuses a --seeds that is not a positive integer before starting anything', async () => {
    const dir = tmp();
    const spec = smallSpec(dir);
    const { code, err } = await gridemuLive(['run', spec, '--seeds', '0', '--out', join(dir, 'out')]).done;
    expect(code).toBe(2);
    expect(err).toContain('--seeds must be a positive integer (got "0")');
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });
});
