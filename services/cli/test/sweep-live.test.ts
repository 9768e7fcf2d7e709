import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alive, csvRows, gridemuLive, MAIN, readCheck, readSummary, REPO, smallSpec, tmp } from './live-helpers.js';
import { checkExactlyOnce, clockStarted } from './live-checks.js';

describe('gridemu sweep --live: every variant a live run over a real nats-server', () => {
  it('runs each variant live into its own checked folder, with the felt delay among the columns', async () => {
    const dir = tmp();
    const spec = smallSpec(dir, { sites: 2, jobs: 20, speedup: 20000 });
    const out = join(dir, 'sweep');
    const {
      code,
      err,
      out: stdout,
    } = await gridemuLive([
      'sweep',
      spec,
      '--vary',
      'network.latency_ms=0,5',
      '--live',
      '--timeout',
      '120',
      '--out',
      out,
    ]).done;
    expect(code, err).toBe(0);
    expect(stdout).toContain('2 live runs in');
    // Each run's own messages, as gridemu run writes them.
    expect(err).toContain('gridemu run live-test: k-distributed, speed-up 20000');
    // How long the sweep lasts at the least, said before its first run, and each run's.
    expect(err).toMatch(/gridemu sweep: the 2 live runs' submissions last at least [\d.]+ (s|min) of wall time \(/);
    expect(err).toMatch(/the submissions span [\d.]+ (s|min|h|d) emulated: at speed-up 20000 the run lasts at least/);
    const rows = csvRows(join(out, 'sweep.csv'));
    expect(rows.map((r) => r['variant'])).toEqual(['network.latency_ms=0', 'network.latency_ms=5']);
    for (const row of rows) {
      const run = join(out, `${row['variant']}__seed7`);
      // Each is a live run as gridemu run makes it, checked as it checks.
      const s = readSummary(run);
      expect(s.mode).toBe('run');
      expect(readCheck(run).ok).toBe(true);
      checkExactlyOnce(run);
      expect(Number(row['jobs_submitted'])).toBe(40);
      expect(Number(row['live_latency_mean_ms'])).toBeCloseTo(s.live.latency_ms.mean_ms, 3);
      expect(Number(row['live_fidelity_warnings'])).toBe(s.live.fidelity.measured.warnings.length);
      expect(Number(row['live_run_wall_s'])).toBeCloseTo(s.live.run_wall_s, 3);
    }
    // The varied field reached the run: with 5 ms links no message arrived sooner than 5 ms. A lower
    // bound the delay proxy enforces; a busy machine only adds to it.
    const slow = readSummary(join(out, 'network.latency_ms=5__seed7'));
    expect(
      JSON.parse(readFileSync(join(out, 'network.latency_ms=5__seed7', 'experiment.json'), 'utf8')).experiment.network
        .latency_ms,
    ).toBe(5);
    expect(slow.live.latency_ms.min_ms).toBeGreaterThanOrEqual(4.99);
    const means = csvRows(join(out, 'sweep-mean.csv'));
    expect(means.map((r) => r['seeds'])).toEqual(['1', '1']);
    expect(Number(means[1]!['live_latency_mean_ms'])).toBeCloseTo(slow.live.latency_ms.mean_ms, 3);
    const html = readFileSync(join(out, 'sweep.html'), 'utf8');
    expect(html).toContain('live-test: live sweep (means over seeds)');
    expect(html).toContain('<h2>live_latency_mean_ms</h2>');
    // Again with --resume: both runs passed their check, so neither is made again, and the tables are the same.
    const table = readFileSync(join(out, 'sweep.csv'), 'utf8');
    const resumed = await gridemuLive([
      'sweep',
      spec,
      '--vary',
      'network.latency_ms=0,5',
      '--live',
      '--resume',
      '--out',
      out,
    ]).done;
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.out).toContain('2 live runs (2 kept from an earlier sweep)');
    expect(readFileSync(join(out, 'sweep.csv'), 'utf8')).toBe(table);
  }, 300_000);

  /** A live sweep of two variants whose first run is under way (its clock started), far from its end. */
  async function sweepMidRun() {
    const dir = tmp();
    // Far more emulated time than the test waits: the first variant's run is mid-way when the sweep is stopped.
    const spec = smallSpec(dir, { sites: 2, jobs: 2000, speedup: 200 });
    const out = join(dir, 'sweep');
    const sweep = gridemuLive(['sweep', spec, '--vary', 'meta.k=1,2', '--live', '--timeout', '300', '--out', out]);
    const first = join(out, 'meta.k=1__seed7');
    await clockStarted(first);
    return { sweep, out, first };
  }

  it('passes SIGTERM on to the live run under way, which stops as gridemu run stops, and starts no other', async () => {
    const { sweep, out, first } = await sweepMidRun();
    // Only the sweep is signalled, not its process group: the run hears of it from the sweep alone.
    sweep.child.kill('SIGTERM');
    const { code, err } = await sweep.done;
    expect(code).toBe(1);
    expect(err).toContain('gridemu sweep: stopped by SIGTERM after 0 of 2 runs; no tables written');
    // The run under way stopped on the signal, its driver writing what it had, before the sweep ended.
    expect(readSummary(first).live.aborted).toBe('interrupted by SIGTERM');
    expect(existsSync(join(out, 'meta.k=2__seed7'))).toBe(false);
    expect(existsSync(join(out, 'sweep.csv'))).toBe(false);
  }, 240_000);

  it('killed outright (SIGKILL), takes the live run under way with it: the run stops as on SIGTERM, none outlives it', async () => {
    const { sweep, out, first } = await sweepMidRun();
    // A sweep that can say nothing: its run is started so that the kernel signals it (setpriv --pdeathsig).
    sweep.child.kill('SIGKILL');
    await sweep.done;
    // The run writes what it had once it has stopped; a run that went on would time the test out.
    const summary = join(first, 'summary.json');
    while (!existsSync(summary)) await new Promise((r) => setTimeout(r, 200));
    await new Promise((r) => setTimeout(r, 500)); // written whole before it is read
    const s = readSummary(first);
    expect(s.live.aborted).toBe('interrupted by SIGTERM');
    for (const [name, p] of Object.entries(s.live.processes as Record<string, { pid: number }>))
      await expect
        .poll(() => alive(p.pid), { timeout: 60_000, message: `${name} (pid ${p.pid}) outlived the run` })
        .toBe(false);
    expect(existsSync(join(out, 'meta.k=2__seed7'))).toBe(false);
  }, 240_000);

  // script(1), from util-linux, runs the sweep on a pseudo-terminal, as a user at a terminal would.
  const script = spawnSync('script', ['--version']).status === 0;
  it.skipIf(!script)(
    "on a terminal, shows each live run's progress bar as gridemu run does",
    async () => {
      const dir = tmp();
      const spec = smallSpec(dir, { sites: 2, jobs: 20, speedup: 20000 });
      const out = join(dir, 'sweep');
      const command = [
        process.execPath,
        MAIN,
        'sweep',
        spec,
        '--vary',
        'meta.k=1',
        '--live',
        '--timeout',
        '120',
        '--out',
        out,
      ];
      const tty = spawn('script', ['-qfec', command.map((a) => `'${a}'`).join(' '), '/dev/null'], { cwd: REPO });
      let seen = '';
      tty.stdout.on('data', (d: Buffer) => (seen += d.toString()));
      const code = await new Promise<number | null>((r) => tty.on('close', r));
      expect(code, seen).toBe(0);
      expect(seen).toContain('gridemu run live-test: k-distributed, speed-up 20000');
      expect(seen).toMatch(/run live-test \[[#.]+\] +\d+% \d+\/40 emulated/);
      expect(seen).toContain('1 live run in');
      expect(readCheck(join(out, 'meta.k=1__seed7')).ok).toBe(true);
    },
    300_000,
  );
});
