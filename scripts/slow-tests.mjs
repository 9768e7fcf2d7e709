// The slower integration tests, kept out of `npm test` (CI runs both): whole `gridemu run`s,
// repeated, that a single run cannot vouch for.
//
// Issue 16: live runs at speed-ups 100,000 and 200,000 once recorded two jobs on the same processors
// in about one run in four. Each run here must end with every job completed and its schedule check
// (summary.json, schedule_check) passing; RUNS runs at each speed-up miss a 1-in-4 failure with
// probability (3/4)^(2 x RUNS).
//
// Issue 11's live fault run: examples/faults-k4.yaml (K = 4, 10 ms links, ten site crashes, one of
// an origin holding claims, a nats-server restart, a partition and 1% loss) must end with every job
// completed, every crash and restart applied, and `gridemu check` passing.
//
// Issue 15: the README's quickstart (examples/quickstart-live.yaml) runs live with the fidelity
// guard's verdicts in summary.json; whether the guard is quiet is measured by `npm run bench`.
//
// Issue 33: with every process journaling (live.journal) and two sites crashed, at speed-up
// 20,000, where the old serial journal stalled the run ("the driver has been silent for 15 s"):
// examples/chaos-kth-k4.yaml, with that run's 5 s claim time-out, must complete every job once
// with gridemu check passing, and each crash must show its restart's catching up in summary.json.
// Needs the KTH-SP2 trace (GRIDEMU_TRACE_DIR, or ../shared beside the project); skipped, saying
// so, without it.
//
// CI's 300 fuzz seeds (`gridemu fuzz --seeds 300`; npm test runs 20), its first 10 run live too
// (`gridemu fuzz --live --seeds 10`: faults applied to real processes) and the next 5 live with
// JetStream journals, and the CLI's slow vitest files (services/cli/test-slow: each family's crash
// runs with their replays, a 16-site run, K = 4 over 20 ms links, the paper 001 schemes and paper
// 004 routers npm test does not run live, TLS through the delay proxies, a live sweep with --tls
// and --prometheus, each other family's site gauges in a real Prometheus, a live fuzz seed that
// passes and one made to fail, a journaled run through a server restart), each of their tests
// counted here.
//
// Prints one "N passed, N failed" line; exits 1 on any failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(repo, 'services/cli/dist/main.js');
const spec = join(repo, 'services/cli/test/fixtures/issue-16-k4.yaml');
const runs = Number(process.env.GRIDEMU_SLOW_RUNS ?? 10);
const speedups = [100_000, 200_000];

let passed = 0;
let failed = 0;
const work = mkdtempSync(join(tmpdir(), 'gridemu-slow-'));
try {
  for (const speedup of speedups) {
    for (let i = 1; i <= runs; i++) {
      const out = join(work, `s${speedup}-${i}`);
      const t0 = Date.now();
      const r = spawnSync(
        process.execPath,
        [cli, 'run', spec, '--speedup', String(speedup), '--out', out, '--quiet', '--timeout', '300'],
        { encoding: 'utf8' },
      );
      const problems = [];
      if (r.status !== 0)
        problems.push(`exit ${r.status}: ${(r.stderr ?? '').trim().split('\n').slice(-12).join('\n')}`);
      try {
        const s = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
        if (s.jobs.completed !== s.jobs.submitted)
          problems.push(`${s.jobs.completed} of ${s.jobs.submitted} jobs completed`);
        if (!s.schedule_check?.ok) problems.push(`schedule check: ${JSON.stringify(s.schedule_check).slice(0, 800)}`);
      } catch (err) {
        problems.push(`no summary.json: ${err.message}`);
      }
      verdict(`issue 16: live k-distributed K=4 at speed-up ${speedup}, run ${i}/${runs}`, out, t0, problems);
    }
  }
  const out = join(work, 'faults-k4');
  const t0 = Date.now();
  const r = spawnSync(
    process.execPath,
    [cli, 'run', join(repo, 'examples/faults-k4.yaml'), '--out', out, '--quiet', '--timeout', '600'],
    { encoding: 'utf8' },
  );
  const problems = [];
  if (r.status !== 0) problems.push(`exit ${r.status}: ${(r.stderr ?? '').trim().split('\n').slice(-12).join('\n')}`);
  try {
    const s = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    if (s.jobs.completed !== s.jobs.submitted)
      problems.push(`${s.jobs.completed} of ${s.jobs.submitted} jobs completed`);
    const check = JSON.parse(readFileSync(join(out, 'check.json'), 'utf8'));
    if (!check.ok) problems.push(`gridemu check: ${JSON.stringify(check).slice(0, 800)}`);
    if (s.faults.crashes_applied !== 10) problems.push(`${s.faults.crashes_applied} of 10 crashes applied`);
    if (s.faults.nats_restarts.applied !== 1) problems.push('the nats-server restart was not applied');
    if (s.counters['claims.granted'] !== s.jobs.submitted)
      problems.push(`${s.counters['claims.granted']} grants for ${s.jobs.submitted} jobs`);
  } catch (err) {
    problems.push(`no summary.json: ${err.message}`);
  }
  verdict(
    'issue 11: examples/faults-k4.yaml live: ten crashes, a server restart, a partition, 1% loss',
    out,
    t0,
    problems,
  );
  // Issue 15: the README's quickstart runs live with the fidelity guard judging it before and after.
  // Whether the guard stays quiet depends on how busy the machine is (a hop and a timer's lag are
  // wall times), so that is measured by `npm run bench`, not judged here; what must hold whatever
  // the load is judged: the run completes, its schedule holds, the guard's two verdicts are in
  // summary.json, and no load report is thinned (that depends on the file and the bus alone).
  {
    const out = join(work, 'quickstart-live');
    const t0 = Date.now();
    const r = spawnSync(
      process.execPath,
      [cli, 'run', join(repo, 'examples/quickstart-live.yaml'), '--out', out, '--timeout', '600'],
      { encoding: 'utf8' },
    );
    const problems = [];
    const notes = [];
    if (r.status !== 0) problems.push(`exit ${r.status}: ${(r.stderr ?? '').trim().split('\n').slice(-12).join('\n')}`);
    try {
      const s = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
      if (s.jobs.completed !== s.jobs.submitted)
        problems.push(`${s.jobs.completed} of ${s.jobs.submitted} jobs completed`);
      if (!s.schedule_check?.ok) problems.push('schedule check failed');
      for (const when of ['before', 'measured']) {
        const v = s.live.fidelity?.[when];
        if (!v || !Number.isFinite(v.hop_ms) || !Number.isFinite(v.timer_lag_ms) || !Array.isArray(v.warnings))
          problems.push(`summary.json has no fidelity.${when} verdict: ${JSON.stringify(v)}`);
        else if ((v.thinned ?? []).length > 0)
          problems.push(`fidelity.${when}: reports thinned ${JSON.stringify(v.thinned)}`);
        else if (v.warnings.length > 0)
          notes.push(`fidelity.${when} warned on this machine (measured by npm run bench): ${v.warnings.join('; ')}`);
      }
    } catch (err) {
      problems.push(`no summary.json: ${err.message}`);
    }
    for (const note of notes) console.log(`  note: ${note}`);
    verdict(
      'issue 15: examples/quickstart-live.yaml runs live and the fidelity guard reports on it',
      out,
      t0,
      problems,
    );
  }
  // Issue 33: journaling every process with crashes, at a speed-up where the old journal stalled.
  {
    const traces = process.env.GRIDEMU_TRACE_DIR ?? join(repo, '..', 'shared', 'data', 'traces');
    if (!existsSync(join(traces, 'KTH-SP2-1996-2.1-cln.swf.gz'))) {
      console.log(`- issue 33: journaled crash run skipped: no KTH-SP2 trace in ${traces}`);
    } else {
      const out = join(work, 'journaled-crashes');
      const t0 = Date.now();
      const faults =
        'faults={crash: [{ process: s2, at_s: 650000, down_s: 4000 }, { process: s1, at_s: 700000, down_s: 2000 }]}';
      const r = spawnSync(
        process.execPath,
        [
          cli,
          'run',
          join(repo, 'examples/chaos-kth-k4.yaml'),
          '--set',
          'live.journal=true',
          // The claim time-out of issue 33's run, under which the old journal stalled; the spec's
          // own waits past any round trip and so sends fewer messages.
          '--set',
          'meta.claim_timeout_s=5',
          '--set',
          faults,
          '--out',
          out,
          '--quiet',
          '--timeout',
          '600',
        ],
        { encoding: 'utf8', env: { ...process.env, GRIDEMU_TRACE_DIR: traces } },
      );
      const problems = [];
      if (r.status !== 0)
        problems.push(`exit ${r.status}: ${(r.stderr ?? '').trim().split('\n').slice(-12).join('\n')}`);
      try {
        const s = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
        const check = JSON.parse(readFileSync(join(out, 'check.json'), 'utf8'));
        if (s.jobs.completed !== s.jobs.submitted)
          problems.push(`${s.jobs.completed} of ${s.jobs.submitted} jobs completed`);
        if (!check.ok) problems.push(`gridemu check: ${JSON.stringify(check).slice(0, 800)}`);
        if (s.faults.crashes_applied !== 2) problems.push(`${s.faults.crashes_applied} of 2 crashes applied`);
        if ((s.live.rejoins ?? []).length !== 2)
          problems.push(`summary.json has ${(s.live.rejoins ?? []).length} restarts caught up, not 2`);
      } catch (err) {
        problems.push(`no summary.json or check.json: ${err.message}`);
      }
      verdict(
        'issue 33: every process journaled, two crashes, speed-up 20,000 (examples/chaos-kth-k4.yaml)',
        out,
        t0,
        problems,
      );
    }
  }
  {
    const t0 = Date.now();
    const r = spawnSync(process.execPath, [cli, 'fuzz', '--seeds', '300'], { encoding: 'utf8' });
    const problems = [];
    if (r.status !== 0 || !/300 seeds passed \(1\.\.300\)/.test(r.stdout ?? ''))
      problems.push(
        `exit ${r.status}: ${((r.stdout ?? '') + (r.stderr ?? '')).trim().split('\n').slice(-12).join('\n')}`,
      );
    verdict(
      "gridemu fuzz: CI's 300 seeds keep the actors' assertions and gridemu check's invariants",
      work,
      t0,
      problems,
      false,
    );
  }
  {
    // The same experiments run live, as gridemu run runs them: the journal, exactly-once delivery,
    // restarts and the transport, which the simulator's fuzz cannot reach.
    const t0 = Date.now();
    const out = join(work, 'fuzz-live');
    const r = spawnSync(process.execPath, [cli, 'fuzz', '--live', '--seeds', '10', '--out', out], {
      encoding: 'utf8',
    });
    const problems = [];
    if (r.status !== 0 || !/10 seeds passed live \(1\.\.10\)/.test(r.stdout ?? ''))
      problems.push(
        `exit ${r.status}: ${((r.stdout ?? '') + (r.stderr ?? '')).trim().split('\n').slice(-20).join('\n')}`,
      );
    verdict("gridemu fuzz --live: CI's 10 seeds end live with gridemu check passing", out, t0, problems);
  }
  {
    // Five more with their journals in JetStream (those of seeds with crashes or server restarts).
    const t0 = Date.now();
    const out = join(work, 'fuzz-live-jetstream');
    const r = spawnSync(
      process.execPath,
      [cli, 'fuzz', '--live', '--from', '11', '--seeds', '5', '--journal-store', 'jetstream', '--out', out],
      { encoding: 'utf8' },
    );
    const problems = [];
    if (r.status !== 0 || !/5 seeds passed live \(11\.\.15\)/.test(r.stdout ?? ''))
      problems.push(
        `exit ${r.status}: ${((r.stdout ?? '') + (r.stderr ?? '')).trim().split('\n').slice(-20).join('\n')}`,
      );
    verdict(
      'gridemu fuzz --live --journal-store jetstream: seeds 11 to 15 end live with gridemu check passing',
      out,
      t0,
      problems,
    );
  }
  slowVitest();
} finally {
  if (failed === 0) rmSync(work, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);

function verdict(name, out, t0, problems, removeOut = true) {
  if (problems.length === 0) {
    passed++;
    console.log(`✓ ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    if (removeOut) rmSync(out, { recursive: true, force: true });
  } else {
    failed++;
    console.log(`✗ ${name}: results kept in ${out}\n  ${problems.join('\n  ')}`);
  }
}
process.exit(failed === 0 ? 0 : 1);

/** Runs services/cli/test-slow with its vitest configuration and counts each of its tests. */
function slowVitest() {
  const dir = join(repo, 'services/cli');
  const report = join(dir, 'test-slow-results.json');
  rmSync(report, { force: true });
  const r = spawnSync(
    process.execPath,
    [join(repo, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'vitest.slow.config.ts'],
    {
      cwd: dir,
      stdio: 'inherit',
    },
  );
  if (!existsSync(report)) {
    failed++;
    console.log(`✗ services/cli/test-slow: vitest wrote no report (exit ${r.status})`);
    return;
  }
  const results = JSON.parse(readFileSync(report, 'utf8'));
  passed += results.numPassedTests;
  failed += results.numFailedTests;
  // A file that failed to load has no failed test but failed all the same.
  if (r.status !== 0 && results.numFailedTests === 0) {
    failed++;
    console.log(`✗ services/cli/test-slow: vitest exited ${r.status}`);
  }
}
