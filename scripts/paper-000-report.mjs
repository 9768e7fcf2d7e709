// Runs paper 000's experiments (the grid execution hierarchy) and writes docs/results/paper-000.md.
//   npm run report:paper-000                    (builds first; needs no trace, starts nats-server for the live runs)
//   node scripts/paper-000-report.mjs --seeds 5 --stream-seeds 3 --speedup 1000
//   node scripts/paper-000-report.mjs --no-live (simulation only)
//   node scripts/paper-000-report.mjs --reuse   (rewrites the report from the runs already under results/paper-000/)
// Every number in the report comes from the runs this script makes, set beside the paper's own.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCsv } from './lib/read-csv.mjs';
import { numberArg } from './lib/number-arg.mjs';
import { timed, tookSeconds } from './lib/took.mjs';
import { MADE_BY, withMadeBy } from './lib/made-by.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// Table 1's figures are "averaged over several attempts".
const SEEDS = numberArg('--seeds', 5);
const STREAM_SEEDS = numberArg('--stream-seeds', 3);
const SPEEDUP = numberArg('--speedup', 1000);
const LIVE = !process.argv.includes('--no-live');
const REUSE = process.argv.includes('--reuse');
const OUT = join(repo, 'results', 'paper-000');
const CLI = join(repo, 'services/cli/dist/main.js');
const TABLE1 = 'examples/hierarchy-table1.yaml';
const STREAM = 'examples/hierarchy-superlink.yaml';
const SCHEMES = ['fcfs-flat', 'fcfs-hierarchy', 'mq-flat', 'mq-hierarchy'];
const COLUMN = { 'fcfs-flat': 'FCFS', 'fcfs-hierarchy': 'FCFS+H', 'mq-flat': 'MQ', 'mq-hierarchy': 'MQ+H' };
/** Table 1: turnaround of the long and the short task, seconds. */
const PAPER_T1 = {
  'fcfs-flat': [6.2 * 3600, 4.7 * 3600],
  'fcfs-hierarchy': [6.4 * 3600, 4.2 * 3600],
  'mq-flat': [6.1 * 3600, 3.5 * 60],
  'mq-hierarchy': [6.3 * 3600, 44],
};
/** Table 3 (Q2, Q3, Q4): volatility % of runtime, % of jobs, allocated CPUs, % of requests, jobs per task, job minutes. */
const PAPER_T3 = {
  Q2: [1, 1, 55, 50, 93, 9.4],
  Q3: [4.5, 7, 81.7, 54, 194, 13.3],
  Q4: [7, 14, 141, 9, 1600, 15.3],
};
/** Figure 4: share of the system's CPU time per level, %. */
const PAPER_F4_CPU = { L1: 0.3, L2: 17.7, L3: 82 };

const gridemu = (args, label) => {
  console.error(`== ${label}: gridemu ${args.join(' ')}`);
  const r = timed(() =>
    spawnSync(process.execPath, [CLI, ...args], { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] }),
  );
  if (r.status !== 0) throw new Error(`${label} failed (exit ${r.status})`);
};
const json = (file) => JSON.parse(readFileSync(file, 'utf8'));
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const seedsOf = (dir) => json(join(dir, 'seeds.json')).seeds;
const started = Date.now();
mkdirSync(OUT, { recursive: true });

// --- Table 1, simulated: each scheme over SEEDS seeds -------------------------------------------
const table1 = {};
for (const scheme of SCHEMES) {
  const dir = join(OUT, `table1-${scheme}`);
  if (!(REUSE && existsSync(join(dir, 'seeds.json'))))
    gridemu(
      ['simulate', TABLE1, '--set', `meta.scheme=${scheme}`, '--seeds', String(SEEDS), '--out', dir, '--quiet'],
      `Table 1, ${scheme}`,
    );
  const runs = seedsOf(dir).map((s) => readCsv(join(dir, `seed-${s}`, 'jobs.csv')));
  table1[scheme] = {
    long: runs.map((r) => r[0].turnaround_time),
    short: runs.map((r) => r[1].turnaround_time),
    shortLevel: runs.map((r) => r[1].exec_site),
  };
}

// Table 1 over the hierarchy with no evictions at Madison: what the rerun tail costs the long task.
const calmDir = join(OUT, 'table1-mq-hierarchy-no-evictions');
if (!(REUSE && existsSync(join(calmDir, 'seeds.json'))))
  gridemu(
    [
      'simulate',
      TABLE1,
      '--set',
      'meta.grids.madison.evictions_per_hour=0',
      '--seeds',
      String(SEEDS),
      '--out',
      calmDir,
      '--quiet',
    ],
    'Table 1, mq-hierarchy without evictions',
  );
const calmLong = seedsOf(calmDir).map((s) => readCsv(join(calmDir, `seed-${s}`, 'jobs.csv'))[0].turnaround_time);

// --- Table 1, live: each scheme once over a local nats-server ----------------------------------
const live = {};
if (LIVE) {
  for (const scheme of SCHEMES) {
    const dir = join(OUT, `table1-live-${scheme}`);
    if (!(REUSE && existsSync(join(dir, 'jobs.csv'))))
      gridemu(
        ['run', TABLE1, '--set', `meta.scheme=${scheme}`, '--speedup', String(SPEEDUP), '--out', dir, '--quiet'],
        `Table 1 live, ${scheme}`,
      );
    const rows = readCsv(join(dir, 'jobs.csv'));
    const summary = json(join(dir, 'summary.json'));
    live[scheme] = {
      long: rows[0].turnaround_time,
      short: rows[1].turnaround_time,
      check: summary.schedule_check?.ok,
      latency_s: summary.live?.emulated_latency_mean_s,
    };
  }
}

// --- The Superlink stream: Figures 4-7 and Table 3 ---------------------------------------------
const streamDir = join(OUT, 'superlink');
if (!(REUSE && existsSync(join(streamDir, 'seeds.json'))))
  gridemu(['simulate', STREAM, '--seeds', String(STREAM_SEEDS), '--out', streamDir, '--quiet'], 'Superlink stream');
const streamRuns = seedsOf(streamDir).map((s) => json(join(streamDir, `seed-${s}`, 'summary.json')).hierarchy);
const queueIds = Object.keys(streamRuns[0].queues);
const q = (id, field) => mean(streamRuns.map((h) => h.queues[id][field]));
// The same stream with other users taking less or more of Madison's cycles: 0 is what the
// negotiation cycles alone make of Q3's Condor wait, so the rest is competition (Figure 6).
const SHARES = [0, 0.333, 0.667, 0.9];
const sharesDir = join(OUT, 'superlink-others-share');
if (!(REUSE && existsSync(join(sharesDir, 'sweep.csv'))))
  gridemu(
    [
      'sweep',
      STREAM,
      '--vary',
      `meta.grids.madison.others_share=${SHARES.join(',')}`,
      '--seeds',
      String(STREAM_SEEDS),
      '--out',
      sharesDir,
    ],
    "Superlink stream, other users' share at Madison",
  );
// Each run's summary.json is in its variant's folder, <path>=<value>__seed<n>.
const sharedRuns = (share) =>
  seedsOf(streamDir).map(
    (seed) => json(join(sharesDir, `meta.grids.madison.others_share=${share}__seed${seed}`, 'summary.json')).hierarchy,
  );
const waitAt = (share, queue) => mean(sharedRuns(share).map((h) => h.queues[queue].grid_wait_s));
const q3WaitAt = (share) => waitAt(share, 'Q3');
const q2WaitAt = (share) => waitAt(share, 'Q2');
const spec = readFileSync(join(repo, STREAM), 'utf8');
const levelOf = Object.fromEntries([...spec.matchAll(/id: (Q\d), level: (\d)/g)].map((m) => [m[1], Number(m[2])]));

// --- The report ---------------------------------------------------------------------------------
const h = (s) =>
  s >= 3600 ? `${(s / 3600).toFixed(1)} h` : s >= 120 ? `${(s / 60).toFixed(1)} min` : `${s.toFixed(0)} s`;
const range = (xs) => `${h(mean(xs))} (${h(Math.min(...xs))}–${h(Math.max(...xs))})`;
const pct = (x) => `${(100 * x).toFixed(1)}%`;
const lines = [];
const say = (s = '') => lines.push(s);
say('# Paper 000 reproduced: the grid execution hierarchy');
say();
say(
  `Written by \`npm run report:paper-000\` (scripts/paper-000-report.mjs) on ${new Date().toISOString().slice(0, 10)}, from the runs it made`,
);
say(
  `under \`results/paper-000/\` (${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}, Node ${process.version}; ${tookSeconds(OUT, REUSE, started)} s to make).`,
);
say(`The runs were made by ${MADE_BY}, as each run's summary.json says in \`provenance\`.`);
say(
  "The deployment is Table 2's (`examples/hierarchy-table1.yaml`, `examples/hierarchy-superlink.yaml`); docs/hierarchy.md says how each part is modelled.",
);
say();
// ---- Verdicts: one row per claim of the paper that our runs can earn, each from the threshold in
// its row. Numbers set from the paper (inputs) or fitted to it (calibrated) are listed apart and not judged.
const simMean = (scheme, which) => mean(table1[scheme][which]);
const longs = SCHEMES.map((x) => simMean(x, 'long'));
const f7cell = (r, c) => mean(streamRuns.map((x) => x.figure7[r]?.[c] ?? 0));
const f7cols = Object.keys(streamRuns[0].figure7['belongs-L1'] ?? {});
const l1Total = f7cols.reduce((a, c) => a + f7cell('belongs-L1', c), 0);
const l1AtL2 = f7cell('belongs-L1', 'ran-L2') / Math.max(1e-9, l1Total);
const q4Queueing = q('Q4', 'queueing_s') / Math.max(1e-9, q('Q4', 'overhead_s'));
const within = (x, target, factor) => x >= target / factor && x <= target * factor;
const mark = (ok) => (ok === undefined ? '-' : ok ? '**agrees**' : '**differs**');
const claims = [
  {
    claim: 'Table 1: the long task takes about the same time under all four schemes (6.1-6.4 h)',
    ours: `${SCHEMES.map((x) => `${COLUMN[x]} ${h(simMean(x, 'long'))}`).join(', ')}; longest / shortest ${(Math.max(...longs) / Math.min(...longs)).toFixed(2)}`,
    direction: Math.max(...longs) / Math.min(...longs) <= 1.1,
    size: within(mean(longs), 6.25 * 3600, 1.15),
    why: `the eviction tail: 5% of the one-hour jobs run again after the last wave (MQ+H without evictions: ${h(mean(calmLong))}); the example's work, 500 CPUs × 6 h, is our reading of "approximately six hours"`,
    threshold:
      "direction: longest / shortest at most 1.1 (the paper: 1.05); size: their mean within 1.15x of the paper's 6.25 h",
  },
  {
    claim:
      'Table 1: under MQ with the hierarchy the short task finishes in under a minute (44 s); under FCFS it waits hours',
    ours: `MQ+H ${h(simMean('mq-hierarchy', 'short'))}; FCFS ${h(simMean('fcfs-flat', 'short'))}, FCFS+H ${h(simMean('fcfs-hierarchy', 'short'))}`,
    direction:
      simMean('mq-hierarchy', 'short') < 600 &&
      simMean('fcfs-flat', 'short') > 3600 &&
      simMean('fcfs-hierarchy', 'short') > 3600,
    size: within(simMean('mq-hierarchy', 'short'), 44, 2),
    threshold: 'direction: MQ+H under 10 min, both FCFS over 1 h; size: MQ+H within 2x of 44 s',
  },
  {
    claim: 'Table 1: MQ over the flat pool is slower for the short task than with the hierarchy (3.5 min against 44 s)',
    ours: `MQ ${h(simMean('mq-flat', 'short'))} against MQ+H ${h(simMean('mq-hierarchy', 'short'))}`,
    direction: simMean('mq-flat', 'short') > simMean('mq-hierarchy', 'short'),
    threshold: "MQ's short task slower than MQ+H's",
  },
  {
    claim: 'Table 1: FCFS with the hierarchy serves the short task sooner than plain FCFS (4.2 h against 4.7 h)',
    ours: `FCFS+H ${h(simMean('fcfs-hierarchy', 'short'))}, FCFS ${h(simMean('fcfs-flat', 'short'))}`,
    direction: simMean('fcfs-hierarchy', 'short') < simMean('fcfs-flat', 'short'),
    why: "both long tasks hold 500 CPUs and submit their last jobs at about the same time, so which short task goes first is down to the eviction draws; the paper's 0.5 h gap is not explained by anything we model",
    threshold: "FCFS+H's short task sooner",
  },
  {
    claim: 'Figure 5: tasks served by Q1 stay about 72 s in the system',
    ours: h(q('Q1', 'accumulated_s')),
    direction: q('Q1', 'accumulated_s') < 600,
    size: within(q('Q1', 'accumulated_s'), 72, 1.5),
    threshold: 'direction: minutes, not more (under 10 min); size: within 1.5x of 72 s',
  },
  {
    claim: "Figure 6: Q1's main overhead is complexity estimation (11 s)",
    ours: `estimation ${h(q('Q1', 'estimation_s'))} of ${h(q('Q1', 'overhead_s'))} overhead`,
    direction: q('Q1', 'estimation_s') > q('Q1', 'overhead_s') / 2,
    size: within(q('Q1', 'estimation_s'), 11, 2),
    threshold: 'direction: over half the overhead; size: within 2x of 11 s',
  },
  {
    claim: "Figure 6: over 70% of Q4's overhead is tasks queueing behind longer ones",
    ours: pct(q4Queueing),
    direction: q4Queueing > 0.5,
    size: q4Queueing >= 0.7,
    threshold: 'direction: the larger part (over 50%); size: at least 70%',
  },
  {
    claim: "Figure 6: Q3's Condor wait is well above Q2's (several minutes against about 20 s)",
    ours: `Q2 ${h(q('Q2', 'grid_wait_s'))}, Q3 ${h(q('Q3', 'grid_wait_s'))}`,
    direction: q('Q3', 'grid_wait_s') >= 2 * q('Q2', 'grid_wait_s'),
    size: within(q('Q2', 'grid_wait_s'), 20, 2) && q('Q3', 'grid_wait_s') >= 120 && q('Q3', 'grid_wait_s') <= 600,
    threshold: 'direction: Q3 at least twice Q2; size: Q2 within 2x of 20 s and Q3 2 to 10 min',
  },
  {
    claim: 'Figure 7: about 11% of the tasks that belong to Level 1 ran at Level 2',
    why: "Q1 sends a Level-1 task down when a burst overloads it or a first bound is loose; how often depends on the stream's bursts, which are our reading of Figure 7 (4 tasks, 30 s apart), not measured",
    ours: pct(l1AtL2),
    direction: l1AtL2 > 0,
    size: within(l1AtL2, 0.11, 2),
    threshold: 'direction: some do; size: within 2x of 11%',
  },
];
const agree = claims.filter((c) => c.direction).length;
say('## Verdicts');
say();
say(
  `Each verdict is computed by the script from the threshold in its row, on the simulated runs. ${agree} of ${claims.length} result rows agree in direction.`,
);
say('Rows whose numbers are inputs or were calibrated are listed below apart, and not judged.');
say();
say('| claim (paper 000) | ours | direction | size | threshold | why it differs |');
say('| --- | --- | --- | --- | --- | --- |');
for (const c of claims)
  say(
    `| ${c.claim} | ${c.ours} | ${mark(c.direction)} | ${mark(c.size)} | ${c.threshold} | ${c.direction === false || c.size === false ? (c.why ?? '') : ''} |`,
  );
say();
say('## Inputs and calibrated values: shown, not judged');
say();
say('| what | value | where it comes from | what it decides, so is not judged |');
say('| --- | --- | --- | --- |');
say(
  "| grids' N, P; queues' levels, T_q, T_e | Table 2 | the paper, stated; §5's queue lengths (two tasks of the longest size in Q1 and Q2, one in Q3 and Q4) are these T_q, which the overload test enforces | - |",
);
say("| job duration per queue (`job_min`) | 9.4, 13.3, 15.3 min | Table 3's own row | Table 3's job durations |");
say(
  "| Condor's negotiation cycle (`cycle_s`) | 60 s at every pool | HTCondor's documented `NEGOTIATOR_INTERVAL` default (not the paper's; its Condor version's default is not verified) | - |",
);
say(
  "| other users' fair share (`others_share`) | Technion 0, Madison 0.667 | Technion: §1 (small grids are a group's own); Madison: our choice, for a pool §1 says hundreds share (the sensitivity of Q3's wait to it is below) | - |",
);
say(
  "| evictions per hour (stream example) | Technion 0.06, Madison 0.33 | calibrated on Table 3: Q2's 1% and Q3's 7% of jobs | Table 3's volatility rows; Q4's follows from Madison's rate and its longer jobs |",
);
say(
  '| evictions per hour (Table 1 example) | Madison 0.05 | our choice (at 0.33 a third of its one-hour jobs would be evicted) | - |',
);
say(
  "| the stream's task mix and sizes | 60% minutes, 28% under 3 h, a heavy tail | our reading of Figure 7 | Figure 4's tasks and CPU per level, Table 3's CPUs and jobs per task |",
);
say("| DAGMan's delay in seeing a parallel task end (`dagman_s`) | 4 s | §6, stated | - |");
say(
  "| running jobs per submission machine (`submit_limit`) | 500 | §5, stated (every queue, and the flat schemes' one queue, is one submission machine) | - |",
);
say('| the estimator | k in [1.5, 4], τ 5 s, stop ratio 1.1, α 0.1 | our choice (the paper gives none) | - |');
say();
say('## Table 1: a 6-hour task of 3000 jobs, then a 30-second task');
say();
say(
  `Simulated over ${SEEDS} seeds: mean turnaround (lowest–highest).${LIVE ? ` Live: one run each over a local nats-server at speed-up ${SPEEDUP}, every queue and grid its own process.` : ''}`,
);
say();
say(`| | ${SCHEMES.map((s) => COLUMN[s]).join(' | ')} |`);
say(`| --- | ${SCHEMES.map(() => '---').join(' | ')} |`);
say(`| long task, paper | ${SCHEMES.map((s) => h(PAPER_T1[s][0])).join(' | ')} |`);
say(`| long task, simulated | ${SCHEMES.map((s) => range(table1[s].long)).join(' | ')} |`);
if (LIVE) say(`| long task, live | ${SCHEMES.map((s) => h(live[s].long)).join(' | ')} |`);
say(`| short task, paper | ${SCHEMES.map((s) => h(PAPER_T1[s][1])).join(' | ')} |`);
say(`| short task, simulated | ${SCHEMES.map((s) => range(table1[s].short)).join(' | ')} |`);
if (LIVE) say(`| short task, live | ${SCHEMES.map((s) => h(live[s].short)).join(' | ')} |`);
say();
const mqh = table1['mq-hierarchy'];
say(
  `- The paper's point holds: under MQ over the hierarchy the short task finishes in ${h(mean(mqh.short))} on average while the long task runs, at ${[...new Set(mqh.shortLevel)].join(', ')}; under both FCFS columns it waits hours, because FCFS gives a later task CPUs only once the earlier task has no job left to submit.`,
);
say(
  `- MQ over the flat pool (${h(mean(table1['mq-flat'].short))}) pays the big pool's Condor wait (cycles that mostly serve other users at Madison) where the paper measured 3.5 min.`,
);
say(
  `- Every column's long task runs on at most 500 CPUs: one submission machine runs no more jobs at once (§5), and the flat schemes' one queue is one submission machine too. So the four long-task times are close, as the paper's are. They are longer than the paper's 6.1-6.4 h because 5% of the one-hour jobs are evicted and run again, a tail after the last wave: without evictions MQ+H's long task takes ${h(mean(calmLong))}. The example's work (500 CPUs × 6 h) is our reading of "approximately six hours"; if the paper's six hours already include its tail, the task's work is smaller than ours.`,
);
say(
  "- FCFS+H's short task waits longer than FCFS's, where the paper's waited less. Under FCFS a later task gets CPUs only once the earlier one has no job left to submit; both long tasks submit their last jobs at about the same time now, so which short task is served first is down to the seeds' eviction draws.",
);
if (LIVE) {
  const latency = mean(SCHEMES.map((s) => live[s].latency_s));
  say(
    `- Live runs follow the same path as the simulation. At speed-up ${SPEEDUP}, the 20 ms links measured ${latency.toFixed(1)} emulated seconds a message on average, against 0.02 s in the simulator (issue 15 is about that gap). The short task's handful of messages therefore costs it about a minute more live. Each live column is one run, so the short task under MQ also rests on a single draw of Madison's negotiation (which cycle first reaches our user). The schedule check passed in ${SCHEMES.filter((s) => live[s].check).length} of 4 live runs.`,
  );
}
say();
say(
  `## Figures 4–7 and Table 3: ${json(join(streamDir, 'seed-' + seedsOf(streamDir)[0], 'summary.json')).jobs.submitted} tasks of Figure 7's mix, ${STREAM_SEEDS} seeds`,
);
say();
say('Means over the seeds of per-queue averages over the tasks that completed in each queue.');
say();
const cpuByQueue = Object.fromEntries(queueIds.map((id) => [id, q(id, 'cpu_s') * q(id, 'completed')]));
const totalCpu = Object.values(cpuByQueue).reduce((a, b) => a + b, 0);
const totalTasks = queueIds.reduce((a, id) => a + q(id, 'completed'), 0);
say('### Figure 4: tasks and CPU time per level');
say();
say('| level | tasks | CPU time | paper, CPU time |');
say('| --- | --- | --- | --- |');
for (const l of [...new Set(Object.values(levelOf))].sort()) {
  const ids = queueIds.filter((id) => levelOf[id] === l);
  const tasks = ids.reduce((a, id) => a + q(id, 'completed'), 0);
  const cpu = ids.reduce((a, id) => a + cpuByQueue[id], 0);
  say(`| ${l} (${ids.join(', ')}) | ${pct(tasks / totalTasks)} | ${pct(cpu / totalCpu)} | ${PAPER_F4_CPU[`L${l}`]}% |`);
}
say();
say('### Figures 5 and 6: accumulated time and its overheads, per queue');
say();
say(
  '| queue | tasks | accumulated | overhead | estimation | grid wait (first job) | queueing behind other tasks | moves |',
);
say('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const id of queueIds) {
  say(
    `| ${id} | ${q(id, 'completed').toFixed(0)} | ${h(q(id, 'accumulated_s'))} | ${h(q(id, 'overhead_s'))} | ${h(q(id, 'estimation_s'))} | ${h(q(id, 'grid_wait_s'))} | ${h(q(id, 'queueing_s'))} | ${q(id, 'moves').toFixed(2)} |`,
  );
}
say();
say(
  `- Paper: tasks served by Q1 stay 72 s in the system on average; ours ${h(q('Q1', 'accumulated_s'))}. Their main overhead there is complexity estimation (11 s); ours ${h(q('Q1', 'estimation_s'))}, from the estimator's stop ratio and τ.`,
);
say(
  `- Paper: Q2 waits about 20 s for a CPU, Q3 several minutes. Ours: ${h(q('Q2', 'grid_wait_s'))} and ${h(q('Q3', 'grid_wait_s'))}, counted as the paper does, until a task's first job starts. Both pools negotiate every 60 s, so a first job waits half a cycle on average; ` +
    `with no other users at Madison Q3 waits ${h(q3WaitAt(0))} (Q2 ${h(q2WaitAt(0))}), so about ${pct(q3WaitAt(0) / Math.max(1e-9, q('Q3', 'grid_wait_s')))} of Q3's wait is the cycles and the rest competition: cycles that serve other users first. ` +
    `Q3's wait for other users' share at Madison of ${SHARES.join(', ')}: ${SHARES.map((x) => h(q3WaitAt(x))).join(', ')}; it is above twice Q2's from a share of ${SHARES.find((x) => q3WaitAt(x) >= 2 * q2WaitAt(x)) ?? 'none of these'} on. ` +
    'No queue flocks in the examples (each lab is one pool here), so none of it is flocking.',
);
say(
  `- Paper: over 70% of Q4's overhead is tasks queueing behind longer ones, because the potential-overdue policies are off there. Ours: ${pct(q('Q4', 'queueing_s') / Math.max(1e-9, q('Q4', 'overhead_s')))}.`,
);
say('- Not modelled: estimation on grid CPUs.');
say();
say('### Figure 7: the level a task belongs to against the level it ran at');
say();
const rows = Object.keys(streamRuns[0].figure7);
const cols = Object.keys(streamRuns[0].figure7[rows[0]]);
say(`| belongs to | ${cols.join(' | ')} |`);
say(`| --- | ${cols.map(() => '---').join(' | ')} |`);
for (const r of rows) {
  const cells = cols.map((c) => mean(streamRuns.map((x) => x.figure7[r][c])));
  const sum = cells.reduce((a, b) => a + b, 0);
  say(`| ${r} | ${cells.map((v) => `${v.toFixed(1)} (${sum > 0 ? pct(v / sum) : '-'})`).join(' | ')} |`);
}
say();
const f7 = (r, c) => mean(streamRuns.map((x) => x.figure7[r][c]));
const l1 = cols.reduce((a, c) => a + f7('belongs-L1', c), 0);
say(
  `- Paper: about 11% of the tasks that belong to Level 1 ran at Level 2 (Q1 overloaded by bursts, or a loose first bound). Ours: ${pct(f7('belongs-L1', 'ran-L2') / Math.max(1, l1))}.`,
);
say(
  '- Paper: Level 2 keeps its tasks, with a few moved to Level 3 by potential-overdue when Condor resources dipped. Ours moves the ones whose estimate overshoots Level 2 as well.',
);
say();
say('### Table 3: resources and tasks per queue (tasks of more than one job)');
say();
say('| | ' + ['Q2', 'Q3', 'Q4'].map((id) => `${id} paper | ${id} ours`).join(' | ') + ' |');
say('| --- | ' + ['Q2', 'Q3', 'Q4'].map(() => '--- | ---').join(' | ') + ' |');
const t3 = [
  ['volatility, % of runtime (calibrated: Q2, Q3)', 0, (id) => (100 * q(id, 'volatility_runtime')).toFixed(1)],
  ['volatility, % of jobs (calibrated: Q2, Q3)', 1, (id) => (100 * q(id, 'volatility_jobs')).toFixed(1)],
  ['allocated CPUs per task (from our task sizes)', 2, (id) => q(id, 'allocated_cpus').toFixed(1)],
  ['allocated, % of requests', 3, (id) => (100 * q(id, 'allocated_share')).toFixed(0)],
  ['jobs per task (from our task sizes)', 4, (id) => q(id, 'jobs_per_task').toFixed(0)],
  ['job duration, min (input)', 5, (id) => (q(id, 'job_duration_s') / 60).toFixed(1)],
];
for (const [label, i, ours] of t3)
  say(`| ${label} | ${['Q2', 'Q3', 'Q4'].map((id) => `${PAPER_T3[id][i]} | ${ours(id)}`).join(' | ')} |`);
say();
say(
  "- Volatility follows from each grid's `evictions_per_hour`, which the stream example calibrates on this table's Q2 and Q3 (Technion 0.06, Madison 0.33 an hour). The paper's Q4 loses twice Q3's share on the same pool, which it puts down to fluctuations over its longer runs; a constant rate cannot show that. Table 1's example keeps Madison at 0.05 an hour: at 0.33, a third of its one-hour jobs would be evicted, and its long task would take far longer than the paper's 6 h.",
);
say(
  "- Allocated CPUs and jobs per task depend on the stream's sizes, which are our guess at Figure 7's mix: our Level 2 tasks are smaller than the paper's (fewer jobs each), and its Level 3 tasks larger.",
);
say(
  '- Allocated CPUs are the task\'s running jobs, sampled at each of its job starts and ends while it still had jobs to submit; "% of requests" divides that by its jobs, as the paper does.',
);
say("- Job duration is set per queue (`job_min`) from the paper's own row, so it matches by construction.");
say();
writeFileSync(join(repo, 'docs/results/paper-000.md'), withMadeBy(lines.join('\n'), OUT));
console.error(`wrote docs/results/paper-000.md (${((Date.now() - started) / 1000).toFixed(0)} s)`);
