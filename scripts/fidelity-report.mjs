// How close a live run comes to the simulator, for every scheme of every paper; writes docs/fidelity.md.
//   npm run report:fidelity                      (builds first; needs nats-server and the archive traces)
//   node scripts/fidelity-report.mjs [--families paper-001,dag] [--seeds 3] [--out docs/fidelity.md]
//   node scripts/fidelity-report.mjs --render-only   (the page again from the runs under results/fidelity/)
//   node scripts/fidelity-report.mjs --resume        (only the runs not yet under results/fidelity/, then the page)
//
// For each scheme, on a small workload of its family, at three speed-ups, and at the speed-up the
// fidelity guard recommends when that is slower and the run fits FIDELITY_GUARD_BUDGET_S: `gridemu run`, then
// `gridemu simulate` with the spec's network (the like-for-like comparison) and `gridemu simulate
// --network-from` the live run (the simulator given the network the run had: each link's felt delay per
// message type), over a few seeds since one draw of the delays is noisy. The fidelity guard's verdict of
// each live run is beside it. Then the K = 4 KTH fidelity run: K = 4, 20 ms links, 1,600 KTH jobs at
// 20,000x, repeated there and at 5,000x, then at 1,000x and 100x (FIDELITY_ISSUE15_SLOW), where
// its runs go side by side (the 100x ones take about 70 minutes). Every number in the report
// comes from these runs; docs/fidelity-notes.md follows them.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { boundedSlowdown, mean, meanWithInterval, splitCsvLine } from '@gridemu/metrics';
import { meanGap } from './lib/mean-gap.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.env.GRIDEMU_TRACE_DIR ??= resolve(repo, '../shared/data/traces');
const { values } = parseArgs({
  options: {
    families: { type: 'string' },
    seeds: { type: 'string', default: '3' },
    out: { type: 'string', default: 'docs/fidelity.md' },
    'render-only': { type: 'boolean', default: false },
    resume: { type: 'boolean', default: false },
  },
});
/** Write the page from the runs already under results/fidelity/, making none (a new reading of the same runs). */
const RENDER_ONLY = values['render-only'];
/** Make only what is not on disk yet: a report cut short, or one that asks for more runs than the last. */
const RESUME = values.resume;
const SEEDS = Number(values.seeds);
const RESULTS = join(repo, 'results', 'fidelity');
const CLI = join(repo, 'services/cli/dist/main.js');
mkdirSync(RESULTS, { recursive: true });
const started = Date.now();

/** Per family: a workload small enough to run live three times, the schemes, the headline metric. */
const FAMILIES = [
  {
    family: 'paper-001',
    spec: 'examples/quickstart-live.yaml',
    sets: [0, 1, 2, 3].map((i) => `workload[${i}].synthetic.jobs=40`),
    schemes: ['independent', 'unified', 'centralized', 'hierarchical', 'distributed', 'k-distributed', 'k-dual'],
    schemeSets: (s) => [`meta.scheme=${s}`, ...(s === 'k-dual' ? ['local.policy=dual-easy'] : [])],
    speedups: [5000, 20000, 50000],
    metric: 'mean_bounded_slowdown',
  },
  {
    family: 'paper-002 (GRUBER)',
    spec: 'examples/gruber-live.yaml',
    sets: [],
    schemes: ['gruber'],
    schemeSets: () => [],
    speedups: [1000, 5000, 20000],
    metric: 'mean_bounded_slowdown',
  },
  {
    family: 'paper-000 (hierarchy)',
    spec: 'examples/hierarchy-superlink.yaml',
    // Superlink's mix with bursts a minute apart and a shorter tail: 40 tasks over about an hour of
    // emulated time, so that the run at the guard's speed-up (10x or less: the estimator's 5 s time
    // constant) takes minutes, where 200 tasks of the example's hourly bursts took six hours.
    sets: [
      'workload[0].tasks.stream.tasks=40',
      'workload[0].tasks.stream.burst_gap_s=60',
      'workload[0].tasks.stream.medium_max_s=100000',
      'workload[0].tasks.stream.tail_max_s=500000',
    ],
    schemes: ['mq-hierarchy'],
    schemeSets: () => [],
    speedups: [5000, 20000, 50000],
    metric: 'mean_bounded_slowdown',
  },
  {
    family: 'paper-004 (shadow)',
    spec: 'examples/shadow-lcg.yaml',
    sets: ['workload[0].jobs=1000'],
    schemes: ['shadow'],
    schemeSets: () => [],
    speedups: [2000, 5000, 20000],
    metric: 'mean_bounded_slowdown',
  },
  {
    family: 'paper-003 (DAG)',
    spec: 'examples/dag-tornado.yaml',
    sets: ['workload[0].tornado.jobs=30', 'workload[0].tornado.parallel=5'],
    schemes: ['dag-static', 'dag-adaptive'],
    schemeSets: (s) => [`meta.scheme=${s}`],
    speedups: [5000, 20000, 50000],
    metric: 'dag.mean_turnaround_s',
  },
];
const chosen = values.families
  ? FAMILIES.filter((f) => values.families.split(',').some((n) => f.family.startsWith(n)))
  : FAMILIES;

/** A replay that runs longer than this is stopped and reported: a simulation ends only when every job has. */
const REPLAY_TIMEOUT_MS = Number(process.env.FIDELITY_REPLAY_TIMEOUT_S ?? 180) * 1000;

/**
 * A run or simulation whose results include the file `made`; with --render-only, none is made and
 * the one on disk stands in (exit 0 when that file is there).
 */
function produce(args, made, allowFail = false, timeout_ms = undefined) {
  return alreadyMade(made, allowFail) ?? gridemu(args, allowFail, timeout_ms);
}
/** produce(), without waiting: for runs that go side by side. */
function produceAsync(args, made) {
  const known = alreadyMade(made, true);
  if (known) return Promise.resolve(known);
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}
/** What produce() answers without making anything (--resume with `made` on disk, --render-only), or undefined: make it. */
function alreadyMade(made, allowFail) {
  const there = existsSync(made);
  if (RESUME && there) return { status: 0, stdout: '', stderr: '' };
  if (!RENDER_ONLY) return undefined;
  if (!there && !allowFail) throw new Error(`--render-only: no ${made}`);
  return { status: there ? 0 : 1, stdout: '', stderr: `no ${made} (--render-only)` };
}
/**
 * How many runs of a kind to make: the environment's word, else `made`; with --render-only, else
 * the most on disk (the highest repeat number of a folder name `pattern` matches), so the page
 * shows every run there is and not the default's share of them.
 */
function runCount(env, made, pattern) {
  const asked = process.env[env];
  if (asked !== undefined) {
    if (!(Number(asked) >= 1 && Number.isInteger(Number(asked))))
      throw new Error(`${env}: want a whole number of runs, 1 or more, got "${asked}"`);
    return Number(asked);
  }
  if (!RENDER_ONLY) return made;
  const onDisk = readdirSync(RESULTS).map((name) => Number(pattern.exec(name)?.[1] ?? 0));
  return Math.max(1, ...onDisk);
}
const summaryOf = (dir) => join(dir, 'summary.json');
const seedsOf = (dir) => join(dir, 'seeds.json');

function gridemu(args, allowFail = false, timeout_ms = undefined) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: repo,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(timeout_ms ? { timeout: timeout_ms, killSignal: 'SIGKILL' } : {}),
  });
  if (r.status !== 0 && !allowFail)
    throw new Error(`gridemu ${args.join(' ')} exited ${r.status}\n${r.stdout}\n${r.stderr}`);
  return r;
}
const summary = (dir) => JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
const pick = (s, path) => path.split('.').reduce((o, k) => o?.[k], s);
const flags = (sets) => sets.flatMap((s) => ['--set', s]);
/** The mean of a metric over `--seeds` simulations (seeds.json), or the one run's. */
const seedMean = (dir, metric) => {
  const s = JSON.parse(readFileSync(join(dir, 'seeds.json'), 'utf8'));
  const column = metric.replace(/\./g, '_').replace(/^dag_mean_turnaround_s$/, 'dag_turnaround_s');
  return s.metrics[column] ?? s.metrics[metric];
};

/**
 * The longest live run the report makes at the speed-up the guard recommends, in wall seconds
 * (estimated from the scheme's slowest fixed speed-up); a longer one is reported, not run.
 */
const GUARD_RUN_BUDGET_S = Number(process.env.FIDELITY_GUARD_BUDGET_S ?? 1200);

const rows = [];
for (const fam of chosen) {
  if (!existsSync(join(repo, fam.spec))) continue;
  for (const scheme of fam.schemes) {
    const sets = [...fam.sets, ...fam.schemeSets(scheme)];
    const simDir = join(RESULTS, `${scheme}-simulate`);
    produce(['simulate', fam.spec, '--out', simDir, '--quiet', ...flags(sets)], summaryOf(simDir));
    const sim = summary(simDir);
    for (const speedup of fam.speedups) rows.push(cell(fam, scheme, sets, sim, speedup));
    // Issue 15's target holds at the speed-up the guard recommends: the guard's word on the
    // slowest run, whose hops are the least disturbed by the machine, decides it.
    const slowest = rows.find((r) => r.fam === fam && r.scheme === scheme && r.live);
    const recommended = slowest?.live.live.fidelity?.measured?.recommended_speedup;
    if (recommended === undefined || recommended === null || recommended >= slowest.speedup) continue;
    const wall_s = (slowest.live.live.run_wall_s * slowest.speedup) / recommended;
    if (wall_s > GUARD_RUN_BUDGET_S) {
      process.stderr.write(
        `fidelity: ${fam.family} ${scheme}: the guard recommends ≤ ${recommended}, about ${duration(wall_s)}: not run\n`,
      );
      rows.push({ fam, scheme, speedup: recommended, guard: true, tooLong_s: wall_s });
    } else rows.push({ ...cell(fam, scheme, sets, sim, recommended), guard: true });
  }
}
// A scheme outside 10% of its replay at the guard's speed-up is run there again: one run of these
// small workloads can turn on a single job (docs/fidelity-notes.md), so the verdict is the mean
// gap over CELL_REPEATS runs, with its 90% interval.
const CELL_REPEATS = runCount('FIDELITY_CELL_REPEATS', 8, /^(?!issue-15-).*-repeat-(\d+)-run$/);
for (const fam of chosen) {
  for (const scheme of fam.schemes) {
    const accepted = acceptedRow(rows.filter((r) => r.fam === fam && r.scheme === scheme));
    if (!accepted?.net || within(accepted.net.mean, pick(accepted.live, fam.metric), 0.1)) continue;
    const sets = [...fam.sets, ...fam.schemeSets(scheme)];
    const more = [];
    for (let i = 2; i <= CELL_REPEATS; i++)
      more.push(cell(fam, scheme, sets, accepted.sim, accepted.speedup, `-repeat-${i}`));
    accepted.repeats = [accepted, ...more].filter((r) => r.net);
    if (accepted.repeats.length > 1)
      accepted.repeatGap = meanGap(accepted.repeats.map((x) => [pick(x.live, fam.metric), x.net.mean]));
  }
}

/**
 * The run the guard accepts for a scheme: the one at its recommended speed-up where that was run
 * or found too long, else the slowest run on which it was quiet (or recommended no slower).
 */
function acceptedRow(mine) {
  return (
    mine.find((r) => r.guard) ??
    mine.find(
      (r) =>
        r.live &&
        (!r.live.live.fidelity?.measured?.warnings.length ||
          r.live.live.fidelity.measured.recommended_speedup >= r.speedup),
    )
  );
}

/** One live run of a scheme at one speed-up and its replay over SEEDS seeds: a row of the table. */
function cell(fam, scheme, sets, sim, speedup, repeat = '') {
  const tag = `${scheme}-${speedup}${repeat}`;
  const liveDir = join(RESULTS, `${tag}-run`);
  process.stderr.write(`fidelity: ${fam.family} ${scheme} at speed-up ${speedup}${repeat}: run`);
  const r = produce(
    [
      'run',
      fam.spec,
      '--out',
      liveDir,
      '--quiet',
      '--speedup',
      String(speedup),
      '--timeout',
      String(Math.max(900, 2 * GUARD_RUN_BUDGET_S)),
      ...flags(sets),
    ],
    summaryOf(liveDir),
    true,
  );
  if (r.status !== 0 || !existsSync(join(liveDir, 'network.json'))) {
    process.stderr.write(` FAILED (exit ${r.status})\n`);
    return {
      fam,
      scheme,
      speedup,
      failed: `exit ${r.status}: ${(r.stderr || r.stdout).trim().split('\n').slice(-2).join(' ').slice(0, 200)}`,
    };
  }
  const live = summary(liveDir);
  process.stderr.write(', simulate --network-from');
  const netDir = join(RESULTS, `${tag}-network-from`);
  const replay = produce(
    [
      'simulate',
      fam.spec,
      '--out',
      netDir,
      '--quiet',
      '--seeds',
      String(SEEDS),
      '--network-from',
      liveDir,
      ...flags(sets),
    ],
    seedsOf(netDir),
    true,
    REPLAY_TIMEOUT_MS,
  );
  if (replay.status !== 0) {
    const why =
      replay.status === null
        ? `did not finish in ${REPLAY_TIMEOUT_MS / 1000} s`
        : `exited ${replay.status}: ${(replay.stderr || '').trim().split('\n').slice(-1)[0]?.slice(0, 160)}`;
    process.stderr.write(`: replay ${why}\n`);
    return { fam, scheme, speedup, sim, live, liveDir, replayFailed: why };
  }
  const net = seedMean(netDir, fam.metric);
  process.stderr.write(
    `: ${fam.metric} simulate ${fmt(pick(sim, fam.metric))}, live ${fmt(pick(live, fam.metric))}, replayed ${fmt(net?.mean)}\n`,
  );
  return { fam, scheme, speedup, sim, live, net, liveDir, netDir };
}

/** Replay seeds per repeat of the K = 4 KTH fidelity run. */
const ISSUE15_REPLAY_SEEDS = 10;
/** Emulated seconds from the first of the K = 4 KTH fidelity run's 1,600 jobs to the last one's end (its runs' `live.emulated_s`). */
const ISSUE15_SPAN_S = 414000;
/** Slower speed-ups for the K = 4 KTH fidelity run (FIDELITY_ISSUE15_SLOW, comma-separated; empty for none). */
const ISSUE15_SLOW = (process.env.FIDELITY_ISSUE15_SLOW ?? '1000,100')
  .split(',')
  .filter((x) => x.trim() !== '')
  .map(Number);
if (ISSUE15_SLOW.some((x) => !(x > 0)))
  throw new Error(
    `FIDELITY_ISSUE15_SLOW: want comma-separated speed-ups above 0, got "${process.env.FIDELITY_ISSUE15_SLOW}"`,
  );
// Issue 15's run: K = 4, 20 ms ± 2 ms links, 400 KTH jobs per site (two sites ×1.7), 20,000x.
const KTH = 'KTH-SP2-1996-2.1-cln.swf.gz';
let issueRun;
if (!values.families && existsSync(join(process.env.GRIDEMU_TRACE_DIR, KTH))) {
  // With the claim protocol traced in both modes, so the page can say where the two part ways.
  const sets = [
    ...[0, 1, 2, 3].map((i) => `workload[${i}].jobs=400`),
    'network.latency_ms=20',
    'network.jitter_ms=2',
    'live.speedup=20000',
    'protocol_trace=true',
  ];
  const spec = 'examples/kth-k-distributed.yaml';
  process.stderr.write("fidelity: issue 15's run (K = 4, 20 ms, 1600 KTH jobs, 20,000x)\n");
  const simDir = join(RESULTS, 'issue-15-simulate');
  const liveDir = join(RESULTS, 'issue-15-run');
  const netDir = join(RESULTS, 'issue-15-network-from');
  produce(['simulate', spec, '--out', simDir, '--quiet', ...flags(sets)], summaryOf(simDir));
  produce(['run', spec, '--out', liveDir, '--quiet', '--timeout', '900', ...flags(sets)], summaryOf(liveDir));
  produce(
    ['simulate', spec, '--out', netDir, '--quiet', '--seeds', '5', '--network-from', liveDir, ...flags(sets)],
    seedsOf(netDir),
  );
  const seeds = JSON.parse(readFileSync(join(netDir, 'seeds.json'), 'utf8'));
  const firstSeed = summary(join(netDir, `seed-${seeds.seeds[0]}`));
  const protocol = JSON.parse(
    gridemu(['compare', liveDir, join(netDir, `seed-${seeds.seeds[0]}`), '--json'], true).stdout,
  ).protocol;
  issueRun = { sim: summary(simDir), live: summary(liveDir), net: seeds.metrics, netOne: firstSeed, protocol };
  issueRun.repeats = await repeatIssueRun(
    spec,
    sets.filter((s) => !s.startsWith('protocol_trace') && !s.startsWith('live.speedup')),
  );
}

/**
 * Issue 15's run again, untraced, several times at 20,000x and at 5,000x, each replayed over
 * REPLAY_SEEDS seeds. One run of 1,600 jobs varies by a factor of 1.5 from one repeat to the next
 * (docs/fidelity-notes.md), live and replayed alike, so whether live is within 10% of its replay
 * can only be judged over several: per run, live against the mean of its replays; over the runs,
 * the mean of those gaps with its 90% interval.
 *
 * Then at the slower speed-ups of ISSUE15_SLOW, to say where 10% holds when it does not at
 * 20,000x: there a run takes minutes to an hour (1,600 jobs span about 414,000 emulated s) and
 * its processes use a few percent of a core, so the runs of a speed-up go side by side. Sharing
 * the cores shows in each run's felt delays, which is what its replay is given.
 */
async function repeatIssueRun(spec, sets) {
  const runs = runCount('FIDELITY_ISSUE15_REPEATS', 8, /^issue-15-20000-repeat-(\d+)-run$/);
  const bySpeedup = [];
  for (const [speedup, n] of [
    [20000, runs],
    [5000, Math.ceil(runs / 2)],
  ]) {
    const rows = [];
    for (let i = 1; i <= n; i++) {
      process.stderr.write(`fidelity: issue 15's run at ${speedup}x, repeat ${i} of ${n}\n`);
      const liveDir = join(RESULTS, `issue-15-${speedup}-repeat-${i}-run`);
      const r = produce(issueRunArgs(spec, sets, speedup, liveDir), summaryOf(liveDir), true);
      if (r.status === 0) rows.push(replayIssueRun(spec, sets, speedup, i));
    }
    bySpeedup.push({ speedup, asked: n, rows, replaySeeds: ISSUE15_REPLAY_SEEDS });
  }
  const slowRuns = runCount(
    'FIDELITY_ISSUE15_SLOW_REPEATS',
    8,
    new RegExp(`^issue-15-(?:${ISSUE15_SLOW.join('|')})-repeat-(\\d+)-run$`),
  );
  for (const speedup of ISSUE15_SLOW) {
    process.stderr.write(
      `fidelity: issue 15's run at ${speedup}x, ${slowRuns} runs side by side (about ${duration(ISSUE15_SPAN_S / speedup)})\n`,
    );
    const made = await Promise.all(
      Array.from({ length: slowRuns }, (_, k) => {
        const liveDir = join(RESULTS, `issue-15-${speedup}-repeat-${k + 1}-run`);
        return produceAsync(issueRunArgs(spec, sets, speedup, liveDir), summaryOf(liveDir));
      }),
    );
    made.forEach((r, k) => {
      if (r.status !== 0 && !RENDER_ONLY)
        process.stderr.write(
          `fidelity: issue 15's run at ${speedup}x, run ${k + 1} FAILED (exit ${r.status}): ${(r.stderr || r.stdout).trim().split('\n').slice(-1)[0]?.slice(0, 200)}\n`,
        );
    });
    const rows = made.flatMap((r, k) => (r.status === 0 ? [replayIssueRun(spec, sets, speedup, k + 1)] : []));
    bySpeedup.push({ speedup, asked: slowRuns, rows, replaySeeds: ISSUE15_REPLAY_SEEDS, sideBySide: true });
  }
  return bySpeedup;
}

/** `gridemu run` of the K = 4 KTH fidelity experiment at a speed-up, with a wall-time limit that fits it. */
function issueRunArgs(spec, sets, speedup, liveDir) {
  const timeout_s = Math.max(900, Math.ceil((1.5 * ISSUE15_SPAN_S) / speedup));
  return [
    'run',
    spec,
    '--out',
    liveDir,
    '--quiet',
    '--timeout',
    String(timeout_s),
    '--speedup',
    String(speedup),
    ...flags(sets),
  ];
}

/** Replays one repeat of the K = 4 KTH fidelity run over ISSUE15_REPLAY_SEEDS seeds: a row of its table. */
function replayIssueRun(spec, sets, speedup, i) {
  const liveDir = join(RESULTS, `issue-15-${speedup}-repeat-${i}-run`);
  const netDir = join(RESULTS, `issue-15-${speedup}-repeat-${i}-network-from`);
  produce(
    [
      'simulate',
      spec,
      '--out',
      netDir,
      '--quiet',
      '--seeds',
      String(ISSUE15_REPLAY_SEEDS),
      '--network-from',
      liveDir,
      ...flags(sets),
    ],
    seedsOf(netDir),
  );
  const live = summary(liveDir);
  const net = JSON.parse(readFileSync(join(netDir, 'seeds.json'), 'utf8')).metrics;
  const measured = live.live.fidelity?.measured;
  // Where the two part at high speed-ups (docs/fidelity-notes.md): how many jobs ran away from
  // their origin, each of them after claims that time out, and how many claims timed out.
  const seedDirs = readdirSync(netDir)
    .filter((f) => f.startsWith('seed-'))
    .map((f) => join(netDir, f));
  const away = { live: jobsAwayFromOrigin(liveDir), net: mean(seedDirs.map(jobsAwayFromOrigin)) };
  const timedOut = {
    live: live.claims?.timed_out ?? 0,
    net: mean(seedDirs.map((d) => summary(d).claims?.timed_out ?? 0)),
  };
  return {
    live: live.mean_bounded_slowdown,
    liveWait: live.mean_wait_s,
    net: net.mean_bounded_slowdown,
    netWait: net.mean_wait_s,
    hop_s: measured?.hop_s,
    wall_s: live.live.run_wall_s,
    away,
    timedOut,
  };
}

/** A wall time estimate as a person reads it. */
function duration(s) {
  if (s < 90) return `${Math.round(s)} s`;
  return s < 2 * 3600 ? `${Math.round(s / 60)} minutes` : `${(s / 3600).toFixed(1)} hours`;
}
function fmt(x, d = 2) {
  return x === null || x === undefined || Number.isNaN(x) ? '-' : Number(x).toFixed(d);
}
function gap(ref, x) {
  return ref === undefined || x === undefined || !(Math.abs(ref) > 0)
    ? '-'
    : `${x >= ref ? '+' : ''}${(((x - ref) / ref) * 100).toFixed(0)}%`;
}
function within(ref, x, share) {
  return ref !== undefined && x !== undefined && Math.abs(x - ref) <= share * Math.abs(ref);
}

/** Why a row's gap is what it is, from its own numbers. */
function reason(r) {
  const m = r.fam.metric;
  const live = pick(r.live, m);
  const f = r.live.live.fidelity?.measured;
  const parts = [];
  if (r.replayFailed) parts.push(`the replay ${r.replayFailed}`);
  else if (within(r.net?.mean, live, 0.1)) parts.push('within 10% of the network it had');
  else if (r.net && Math.abs(live - r.net.mean) <= r.net.half_width) parts.push("within the replay's seed spread");
  else parts.push('outside the replay');
  const few = r.net && !within(r.net.mean, live, 0.1) ? fewJobs(r) : undefined;
  if (few === null) parts.push('the gap is spread over many jobs, not a few (docs/fidelity-notes.md)');
  else if (few !== undefined) parts.push(few);
  if (f && f.warnings.length > 0) {
    const worst = [...f.exceeded].sort(
      (a, b) => Math.max(b.hop_share, b.lag_share) - Math.max(a.hop_share, a.lag_share),
    )[0];
    const thin = f.thinned?.[0];
    const said = [
      worst
        ? `a hop is ${fmt(f.hop_s, 1)} emulated s, ${(Math.max(worst.hop_share, worst.lag_share) * 100).toFixed(0)}% of ${worst.name}`
        : undefined,
      thin ? `load reports thinned to one in ${fmt(thin.sent_every_s / thin.seconds, 1)}` : undefined,
    ].filter((x) => x !== undefined);
    parts.push(`guard: ${said.join(', ')}; it recommends ≤ ${f.recommended_speedup}`);
  } else if (f) parts.push('guard quiet');
  if (!within(pick(r.sim, m), live, 0.1))
    parts.push(
      f && f.warnings.length > 0
        ? "the gap to the spec's network is that hop"
        : "the gap to the spec's network is the felt hops and queues",
    );
  return parts.join('; ');
}

/** Per completed job of a results folder's jobs.csv: its bounded slowdown (as summary.json has it) and where it ran. */
function jobsBoundedSlowdown(dir) {
  const [header, ...rows] = readFileSync(join(dir, 'jobs.csv'), 'utf8').trim().split('\n');
  const col = Object.fromEntries(splitCsvLine(header).map((name, i) => [name, i]));
  const jobs = new Map();
  for (const row of rows) {
    const c = splitCsvLine(row);
    if (c[col.final_state] !== 'COMPLETED_SUCCESSFULLY') continue;
    const run = Number(c[col.execution_time]);
    jobs.set(c[col.job_id], {
      bsld: boundedSlowdown(Number(c[col.waiting_time]) + run, run),
      site: c[col.exec_site],
      origin: c[col.origin_site],
    });
  }
  return jobs;
}

/** How many of a results folder's completed jobs ran at a site other than their origin. */
function jobsAwayFromOrigin(dir) {
  return [...jobsBoundedSlowdown(dir).values()].filter((j) => j.site !== j.origin).length;
}

/**
 * Where a few jobs make a row's gap (mean bounded slowdown only; undefined for another metric, null
 * when no three jobs do): the fewest, at most three, whose
 * live bounded slowdown is furthest from their mean over the replay's seeds and without which the
 * rest agree within 10%, each with where it ran live and in most replays. On these small
 * workloads one job placed differently can move the mean by a third.
 */
function fewJobs(r) {
  if (r.fam.metric !== 'mean_bounded_slowdown' || !r.liveDir || !r.netDir) return undefined;
  const live = jobsBoundedSlowdown(r.liveDir);
  const replays = readdirSync(r.netDir)
    .filter((d) => d.startsWith('seed-'))
    .map((d) => jobsBoundedSlowdown(join(r.netDir, d)));
  const jobs = [...live]
    .filter(([id]) => replays.every((x) => x.has(id)))
    .map(([id, l]) => {
      const sites = replays.map((x) => x.get(id).site);
      const usual = [...new Set(sites)].sort(
        (a, b) => sites.filter((x) => x === b).length - sites.filter((x) => x === a).length,
      )[0];
      return { id, live: l.bsld, replayed: mean(replays.map((x) => x.get(id).bsld)), site: l.site, usual };
    })
    .sort((a, b) => Math.abs(b.live - b.replayed) - Math.abs(a.live - a.replayed));
  for (let k = 1; k <= 3 && k < jobs.length; k++) {
    const rest = jobs.slice(k);
    const [l, n] = [mean(rest.map((j) => j.live)), mean(rest.map((j) => j.replayed))];
    if (!within(n, l, 0.1)) continue;
    const named = jobs
      .slice(0, k)
      .map(
        (j) =>
          `${j.id} (${fmt(j.live, 1)} live at ${j.site}, ${fmt(j.replayed, 1)} replayed${j.usual !== j.site ? `, mostly at ${j.usual}` : ''})`,
      );
    return `${k} of ${jobs.length} jobs ${k === 1 ? 'makes' : 'make'} the gap: ${named.join(', ')}; the other ${jobs.length - k} are ${gap(n, l)} of their replay`;
  }
  return null;
}

// How long the runs took and when: measured by the run that made them, kept for --render-only.
const TIMING = join(RESULTS, 'report-timing.json');
const earlier = RESUME && existsSync(TIMING) ? JSON.parse(readFileSync(TIMING, 'utf8')).minutes : 0;
if (!RENDER_ONLY)
  writeFileSync(
    TIMING,
    JSON.stringify({ date: new Date().toISOString().slice(0, 10), minutes: earlier + (Date.now() - started) / 60000 }) +
      '\n',
  );
const timing = existsSync(TIMING)
  ? JSON.parse(readFileSync(TIMING, 'utf8'))
  : { date: new Date().toISOString().slice(0, 10), minutes: NaN };

const lines = [
  '# Fidelity: `gridemu run` against `gridemu simulate`',
  '',
  '<!-- Generated by scripts/fidelity-report.mjs (npm run report:fidelity); numbers come from the runs it makes. -->',
  '',
  `Written on ${timing.date} from runs under \`results/fidelity/\` (${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ${fmt(timing.minutes, 0)} minutes of runs). ` +
    'One live run per cell: the machine is shared and noisy. "Replayed" is `gridemu simulate --network-from` that run, ' +
    `the mean of ${SEEDS} seeds ± its 90% half-width: the simulator given each link's felt delay, per message type (the spec's latency, the bus, the mailboxes, the timers' lag; issue 15).`,
  '',
  `Workloads, one per family, small enough to run live three times, and a fourth at the speed-up the guard recommends where that is slower and takes at most ${GUARD_RUN_BUDGET_S} s of wall time (issue 15's target is within 10% of the replay there):`,
  '',
  ...chosen.map(
    (f) =>
      `- **${f.family}**: \`${f.spec}\`${f.sets.length ? ` with ${f.sets.map((s) => `\`--set ${s}\``).join(' ')}` : ''}; metric \`${f.metric}\`.`,
  ),
  '',
  '| family | scheme | speed-up | wall s | simulate (spec network) | live | live vs simulate | replayed (network-from) | live vs replayed | hop, emulated s | why |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ...rows.map((r) => {
    const speedup = r.guard ? `${r.speedup} (guard's)` : r.speedup;
    if (r.tooLong_s !== undefined)
      return `| ${r.fam.family} | ${r.scheme} | ${speedup} | ~${fmt(r.tooLong_s, 0)} | - | - | - | - | - | - | not run: at the speed-up the guard recommends this workload takes about ${duration(r.tooLong_s)} of wall time, past the report's ${GUARD_RUN_BUDGET_S} s a run (FIDELITY_GUARD_BUDGET_S) |`;
    if (r.failed)
      return `| ${r.fam.family} | ${r.scheme} | ${speedup} | - | - | - | - | - | - | - | live run failed: ${r.failed.replace(/\|/g, '/')} |`;
    const m = r.fam.metric;
    const sim = pick(r.sim, m);
    const live = pick(r.live, m);
    const hop = r.live.live.fidelity?.measured?.hop_s;
    return `| ${r.fam.family} | ${r.scheme} | ${speedup} | ${fmt(r.live.live.run_wall_s, 0)} | ${fmt(sim)} | ${fmt(live)} | ${gap(sim, live)} | ${r.net ? `${fmt(r.net.mean)} ± ${fmt(r.net.half_width)}` : '-'} | ${gap(r.net?.mean, live)} | ${fmt(hop, 1)} | ${reason(r)} |`;
  }),
  '',
];
const ok = rows.filter((r) => !r.failed && !r.replayFailed && r.tooLong_s === undefined);
const inTen = ok.filter((r) => within(r.net?.mean, pick(r.live, r.fam.metric), 0.1)).length;
const inSpread = ok.filter(
  (r) =>
    r.net &&
    Math.abs(pick(r.live, r.fam.metric) - r.net.mean) <= Math.max(r.net.half_width, 0.1 * Math.abs(r.net.mean)),
).length;
const nearSpec = ok.filter((r) => within(pick(r.sim, r.fam.metric), pick(r.live, r.fam.metric), 0.1)).length;
lines.push(
  `Of ${ok.length} live runs, ${inTen} are within 10% of the replayed simulation and ${inSpread} within 10% or its seed spread; ${nearSpec} are within 10% of the simulation with the spec's network.` +
    (rows.some((r) => r.failed || r.replayFailed)
      ? ` ${rows.filter((r) => r.failed || r.replayFailed).length} run(s) or replay(s) did not complete (the row says how).`
      : ''),
  '',
  guardLine(),
  '',
  ...cellRepeatLines(),
);

/** A repeated run's mean gap over its repeats, for the guard line. */
function repeatedGap(r) {
  const g = r.repeatGap;
  if (g === undefined) return '';
  return `; over ${r.repeats.length} runs ${pct(g.mean)}, 90% interval ${pct(g.lo)} to ${pct(g.hi)}`;
}

/** Issue 15's target: within 10% of the replay at the speed-up the guard recommends, scheme by scheme. */
function guardLine() {
  const schemes = [...new Set(rows.map((r) => `${r.fam.family}\u0000${r.scheme}`))].map((k) => {
    const [family, scheme] = k.split('\u0000');
    return { scheme, accepted: acceptedRow(rows.filter((r) => r.fam.family === family && r.scheme === scheme)) };
  });
  const run = schemes.filter((s) => s.accepted && s.accepted.tooLong_s === undefined && s.accepted.net);
  const held = run.filter((s) => within(s.accepted.net.mean, pick(s.accepted.live, s.accepted.fam.metric), 0.1));
  const spread = run.filter(
    (s) =>
      !held.includes(s) &&
      Math.abs(pick(s.accepted.live, s.accepted.fam.metric) - s.accepted.net.mean) <= s.accepted.net.half_width,
  );
  const tooLong = schemes.filter((s) => s.accepted?.tooLong_s !== undefined);
  const none = schemes.filter((s) => !s.accepted || (s.accepted.tooLong_s === undefined && !s.accepted.net));
  return (
    `At the speed-up the guard recommends (its word on each scheme's slowest run; a row marked "guard's" where that is below the fixed three): ` +
    `of ${schemes.length} schemes, ${run.length} were run there and ${held.length} of them are within 10% of their replay (${held.map((s) => s.scheme).join(', ') || 'none'})` +
    (spread.length
      ? `, ${spread.length} more within the replay's seed spread (${spread.map((s) => (s.accepted.repeatGap ? `${s.scheme}: ${repeatedGap(s.accepted).slice(2)}` : s.scheme)).join('; ')})`
      : '') +
    (run.length > held.length + spread.length
      ? `; outside: ${run
          .filter((s) => !held.includes(s) && !spread.includes(s))
          .map(
            (s) =>
              `${s.scheme} at ${s.accepted.speedup} (${gap(s.accepted.net.mean, pick(s.accepted.live, s.accepted.fam.metric))}${repeatedGap(s.accepted)})`,
          )
          .join(', ')}`
      : '') +
    (tooLong.length
      ? `; not run, too long at that speed-up: ${tooLong.map((s) => `${s.scheme} (≤ ${s.accepted.speedup}, about ${duration(s.accepted.tooLong_s)})`).join(', ')}`
      : '') +
    (none.length ? `; no verdict: ${none.map((s) => s.scheme).join(', ')}` : '') +
    '.'
  );
}
if (issueRun) {
  const { sim, live, net, netOne } = issueRun;
  const c = (s) => s.claims ?? {};
  lines.push(
    "## Issue 15's run: K = 4, 20 ms links, 1,600 KTH jobs at 20,000x",
    '',
    '`examples/kth-k-distributed.yaml` with 400 jobs per site, `network.latency_ms=20`, `jitter_ms=2`, speed-up 20,000.',
    '',
    '| | mean bounded slowdown | mean wait s | claim time-outs | late grants | claims denied | messages per job |',
    '|---|---:|---:|---:|---:|---:|---:|',
    `| simulate, the spec's network | ${fmt(sim.mean_bounded_slowdown)} | ${fmt(sim.mean_wait_s, 0)} | ${c(sim).timed_out ?? 0} | ${c(sim).late_grants ?? 0} | ${c(sim).denied ?? 0} | ${fmt(sim.messages.per_job, 1)} |`,
    `| live | ${fmt(live.mean_bounded_slowdown)} | ${fmt(live.mean_wait_s, 0)} | ${c(live).timed_out ?? 0} | ${c(live).late_grants ?? 0} | ${c(live).denied ?? 0} | ${fmt(live.messages.per_job, 1)} |`,
    `| simulate --network-from the live run, 5 seeds | ${fmt(net.mean_bounded_slowdown?.mean)} ± ${fmt(net.mean_bounded_slowdown?.half_width)} | ${fmt(net.mean_wait_s?.mean, 0)} ± ${fmt(net.mean_wait_s?.half_width, 0)} | ${c(netOne).timed_out ?? 0} (first seed) | ${c(netOne).late_grants ?? 0} | ${c(netOne).denied ?? 0} | ${fmt(netOne.messages.per_job, 1)} |`,
    '',
    `- Live against the replay: bounded slowdown ${gap(net.mean_bounded_slowdown?.mean, live.mean_bounded_slowdown)}, mean wait ${gap(net.mean_wait_s?.mean, live.mean_wait_s)}.`,
    ...protocolLines(issueRun.protocol),
    `- The guard on the live run: ${live.live.fidelity?.measured ? `a hop ${fmt(live.live.fidelity.measured.hop_s, 0)} emulated s, timer lag ${fmt(live.live.fidelity.measured.timer_lag_s, 0)} s${live.live.fidelity.measured.thinned?.length ? `, load reports thinned to one in ${fmt(live.live.fidelity.measured.thinned[0].sent_every_s / live.live.fidelity.measured.thinned[0].seconds, 1)} (${live.counters?.['messages.superseded'] ?? 0} held back)` : ''}; ${live.live.fidelity.measured.warnings.length} warnings; recommended speed-up ≤ ${live.live.fidelity.measured.recommended_speedup ?? '-'}` : 'no verdict'}.`,
    '',
    ...repeatLines(issueRun.repeats),
  );
}
function pct(x) {
  return `${x >= 0 ? '+' : ''}${(100 * x).toFixed(0)}%`;
}

/** The schemes whose run at the guard's speed-up was outside 10% and was repeated (CELL_REPEATS). */
function cellRepeatLines() {
  const repeated = rows.filter((r) => r.repeats);
  if (repeated.length === 0) return [];
  return [
    `Where that run was outside 10% of its replay, it was repeated at the same speed-up (${CELL_REPEATS} runs in all, each replayed over ${SEEDS} seeds); the verdict is the mean gap over the runs:`,
    '',
    '| family | scheme | speed-up | runs | each run, live vs replay | mean gap (90% interval) | verdict |',
    '|---|---|---:|---:|---|---:|---|',
    ...repeated.map((r) => {
      const m = r.fam.metric;
      const g = r.repeatGap;
      return `| ${r.fam.family} | ${r.scheme} | ${r.speedup} | ${r.repeats.length} | ${r.repeats.map((x) => gap(x.net.mean, pick(x.live, m))).join(', ')} | ${g ? `${pct(g.mean)} (${pct(g.lo)} to ${pct(g.hi)})` : '-'} | ${g ? g.verdict : 'too few runs completed'} |`;
    }),
    '',
  ];
}

/** Issue 15's run repeated: each run against its replay, and the mean gap over the runs with its 90% interval. */
function repeatLines(repeats) {
  const out = [
    '### The same run, repeated',
    '',
    'One run of this experiment varies by a factor of 1.5 from one repeat to the next, so the page repeats it untraced: each live run against the mean of its own replay (`simulate --network-from` over ' +
      `${repeats[0]?.replaySeeds ?? '-'} seeds), and over the runs the mean of those gaps with its 90% interval (Student's t).`,
    '',
  ];
  for (const { speedup, asked, rows, replaySeeds, sideBySide } of repeats) {
    out.push(
      `**At ${speedup.toLocaleString('en')}x** (${rows.length} of ${asked} runs completed${sideBySide ? ', side by side' : ''}; ${replaySeeds} replay seeds each):`,
      '',
      '| run | wall s | hop, emulated s | live bounded slowdown | replay ± 90% | live vs replay | live mean wait vs replay | jobs run away from their origin, live / replay | claim time-outs, live / replay |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    rows.forEach((r, i) =>
      out.push(
        `| ${i + 1} | ${fmt(r.wall_s, 0)} | ${fmt(r.hop_s, r.hop_s < 10 ? 1 : 0)} | ${fmt(r.live)} | ${fmt(r.net.mean)} ± ${fmt(r.net.half_width)} | ${gap(r.net.mean, r.live)} | ${gap(r.netWait.mean, r.liveWait)} | ${r.away ? `${r.away.live} / ${fmt(r.away.net, 0)}` : '-'} | ${r.timedOut ? `${r.timedOut.live} / ${fmt(r.timedOut.net, 0)}` : '-'} |`,
      ),
    );
    out.push('');
    if (rows.length < 2) {
      out.push('- Too few runs completed to judge.', '');
      continue;
    }
    const g = meanGap(rows.map((r) => [r.live, r.net.mean]));
    const waitGaps = meanWithInterval(rows.map((r) => (r.liveWait - r.netWait.mean) / r.netWait.mean));
    const lives = meanWithInterval(rows.map((r) => r.live));
    const nets = meanWithInterval(rows.map((r) => r.net.mean));
    out.push(
      `- Live against its replay, over ${rows.length} runs: bounded slowdown **${pct(g.mean)}** (90% interval ${pct(g.lo)} to ${pct(g.hi)}): ${g.verdict}; mean wait ${pct(waitGaps.mean)} ± ${(100 * waitGaps.half_width).toFixed(0)} points.`,
      `- Means over the runs: live ${fmt(lives.mean)} ± ${fmt(lives.half_width)}, replays ${fmt(nets.mean)} ± ${fmt(nets.half_width)}.`,
      ...(rows.every((r) => r.away)
        ? [
            `- Jobs run away from their origin: live ${fmt(mean(rows.map((r) => r.away.live)), 0)} a run, replays ${fmt(mean(rows.map((r) => r.away.net)), 0)} (fewer live in ${rows.filter((r) => r.away.live < r.away.net).length} of ${rows.length}); claim time-outs: live ${fmt(mean(rows.map((r) => r.timedOut.live)), 0)}, replays ${fmt(mean(rows.map((r) => r.timedOut.net)), 0)}.`,
          ]
        : []),
      '',
    );
  }
  return out;
}

/** The claim protocol of the K = 4 KTH fidelity run, live against the replay's first seed, from both protocol traces (gridemu compare --json). */
function protocolLines(p) {
  if (!p) return ['- No protocol traces to compare.'];
  const perJob = (s, e) => (s.jobs > 0 ? (s.events[e] ?? 0) / s.jobs : undefined);
  const share = (s, e) => {
    const all = Object.values(s.first_claim_ended_by).reduce((a, b) => a + b, 0);
    return all > 0 ? (s.first_claim_ended_by[e] ?? 0) / all : undefined;
  };
  const row = (label, f, d = 2) => `| ${label} | ${fmt(f(p.a), d)} | ${fmt(f(p.b), d)} |`;
  return [
    '',
    "The claim protocol step by step, from the two runs' `protocol-trace.csv` (`gridemu compare LIVE REPLAY`; the replay's first seed):",
    '',
    '| | live | replay |',
    '|---|---:|---:|',
    ...['claim.sent', 'claim.timed_out', 'claim.late_grant', 'claim.denied'].map((e) =>
      row(`${e} per job`, (s) => perJob(s, e)),
    ),
    ...['claim.granted', 'claim.timed_out', 'copy.cancelled'].map((e) =>
      row(`first claims ended by ${e}`, (s) => share(s, e)),
    ),
    row('claim round trip, median s', (s) => s.claim_round_trip_s.median, 0),
    row('claim round trip, p95 s', (s) => s.claim_round_trip_s.p95, 0),
    row('copies to grant, median s', (s) => s.time_to_grant_s.median, 0),
    '',
  ];
}

const notes = readFileSync(join(repo, 'docs', 'fidelity-notes.md'), 'utf8');
writeFileSync(resolve(repo, values.out), `${lines.join('\n')}\n${notes}`);
console.error(`wrote ${values.out} (${((Date.now() - started) / 60000).toFixed(1)} min)`);
