// Fits paper 002's two unstated failure processes on Table XII alone, and writes
// docs/results/paper-002-calibration.md. The fitted values go into examples/gruber-grid3.yaml by
// hand; the report names them and this file.
//   npm run build && node scripts/paper-002-calibrate.mjs [--seeds 2] [--reuse]
//
// Table XII counts the errors that made the 28,000 jobs of the small and medium workloads (1 × 10
// to 1 × 500) re-plan: 15,810 "remote local scheduling timeouts (20 min)" and 21,399 others. Those
// are the two things the model draws and the paper gives no rate for: the misbehaving resource
// managers (a job sent to one starves until the 20-minute re-plan) and the transient failures. So
// what is matched is Table XII's two rates per job, pooled over the four GRUBER selectors and the
// four small and medium workloads, each run once per selector and seed (so pooled by jobs, as the
// table is). Loss: the mean of |ln(ours / paper)| over the two.
//
// Why Table XII and not Table IV (the fit before): Table XII counts the fitted mechanism itself,
// over 28,000 jobs; Table IV is ten jobs per run, and its 34 re-plans for ten G-RA jobs are 2.6
// times Table XII's rate (1.33 per job), an outlier of the paper's own small-workload runs. The
// fit was moved before any run of it was looked at: the verdicts, Table IV's included, are tests.
// The runs use seeds 101 onwards, not the report's 1 onwards.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberArg } from './lib/number-arg.mjs';
import { readCsv } from './lib/read-csv.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SEEDS = numberArg('--seeds', 2);
const OUT = join(repo, 'results', 'paper-002-calibration');
const SELECTORS = ['G-RA', 'G-RR', 'G-LU', 'G-LRU'];
// Table XII: 28,000 jobs; scheduling timeouts 15,810; every other error 21,399.
const TABLE_XII = { jobs: 28_000, timeouts: 15_810, others: 37_209 - 15_810 };
const TARGET = { timeouts: TABLE_XII.timeouts / TABLE_XII.jobs, others: TABLE_XII.others / TABLE_XII.jobs };
// The small and medium workloads, as the report runs them (the 500-job one in steps, §3.2).
const WORKLOADS = {
  w10: ['workload[0].blast.jobs=10'],
  w50: ['workload[0].blast.jobs=50'],
  w100: ['workload[0].blast.jobs=100'],
  w500: ['workload[0].blast.jobs=500', 'workload[0].blast.step_jobs=150', 'workload[0].blast.step_interval_s=3000'],
};
// Chosen from the targets before any run: about 2.3 attempts per job, so some 0.3 of attempts
// failing and 0.25 starving; a prone share times the time it misbehaves of the order of 0.2.
const GRID = {
  'meta.failures.rate': [0.2, 0.3],
  'meta.misbehaving.sites': [0.2, 0.4, 0.6],
  'meta.misbehaving.mean_episode_s': [14400, 43200],
  'meta.misbehaving.mean_between_s': [14400, 43200],
};
const keys = Object.keys(GRID);

const started = Date.now();
for (const [id, sets] of Object.entries(WORKLOADS)) {
  const out = join(OUT, id);
  if (process.argv.includes('--reuse') && existsSync(join(out, 'sweep.csv'))) continue;
  const args = [
    join(repo, 'services/cli/dist/main.js'),
    'sweep',
    'examples/gruber-grid3.yaml',
    '--seeds',
    String(SEEDS),
    '--out',
    out,
    '--set',
    'seed=101',
    ...sets.flatMap((s) => ['--set', s]),
    '--vary',
    `meta.selector=${SELECTORS.join(',')}`,
    ...Object.entries(GRID).flatMap(([k, vs]) => ['--vary', `${k}=${vs.join(',')}`]),
  ];
  console.error(`== ${id}: gridemu ${args.slice(1).join(' ')}`);
  const r = spawnSync(process.execPath, args, { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`the calibration sweep of ${id} failed (exit ${r.status})`);
}
const wallFile = join(OUT, 'wall.json');
if (!process.argv.includes('--reuse'))
  writeFileSync(wallFile, JSON.stringify({ wall_s: (Date.now() - started) / 1000 }) + '\n');
const wall = existsSync(wallFile) ? JSON.parse(readFileSync(wallFile, 'utf8')).wall_s : NaN;

// Pooled counts per candidate, from each run's summary.json (its folder: the variant and the seed).
const candidates = new Map();
for (const id of Object.keys(WORKLOADS)) {
  for (const run of readCsv(join(OUT, id, 'sweep.csv'))) {
    const values = keys.map((k) => run[k]);
    const key = values.join('/');
    const c = candidates.get(key) ?? { values, jobs: 0, timeouts: 0, others: 0 };
    const summary = JSON.parse(
      readFileSync(join(OUT, id, `${run.variant}__seed${run.seed}`, 'summary.json'), 'utf8'),
    ).gruber;
    c.jobs += summary.jobs;
    for (const [reason, n] of Object.entries(summary.replans_by_reason)) {
      if (reason === 'scheduling_timeout') c.timeouts += n;
      else c.others += n;
    }
    candidates.set(key, c);
  }
}
const ranked = [...candidates.values()]
  .map((c) => {
    const timeouts = c.timeouts / c.jobs;
    const others = c.others / c.jobs;
    const loss = (Math.abs(Math.log(timeouts / TARGET.timeouts)) + Math.abs(Math.log(others / TARGET.others))) / 2;
    return { ...c, perJob: { timeouts, others }, loss };
  })
  .sort((a, b) => a.loss - b.loss);
const best = ranked[0];
// A best value at the end of a range of three or more may be short of the true optimum: say so.
const onEdge = keys.filter((k, i) => {
  const vs = GRID[k];
  return vs.length > 2 && (best.values[i] === vs[0] || best.values[i] === vs[vs.length - 1]);
});
const coarse = keys.filter((k) => GRID[k].length === 2);

const f = (x, d) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
const [rate, sites, episode, between] = best.values;
const lines = [
  '# Paper 002: misbehaving resource managers and transient failures, fitted on Table XII alone',
  '',
  `Generated by \`node scripts/paper-002-calibrate.mjs\` on ${new Date().toISOString().slice(0, 10)}, ` +
    `${cpus()[0]?.model ?? 'unknown CPU'} ×${cpus().length}: ${candidates.size} candidates × ${SELECTORS.length} selectors × ` +
    `${Object.keys(WORKLOADS).length} workloads (1 × 10, 1 × 50, 1 × 100, 1 × 500) × ${SEEDS} seeds (101 onwards), ${f(wall, 0)} s of wall time.`,
  '',
  'The paper gives no rate for either process the model draws: managers that accept grid jobs and start none for a while ' +
    '(§4.2.1: "sites with a local resource manager that does not behave as expected"), and transient failures. Table XII ' +
    'counts what both cost the 28,000 jobs of the small and medium workloads: ' +
    `${f(TARGET.timeouts, 3)} re-plans per job after a 20-minute scheduling timeout, and ${f(TARGET.others, 3)} after every other ` +
    'error. Those two rates, pooled over the four GRUBER selectors and the four workloads, are what is fitted; the loss is ' +
    'the mean over the two of |ln(ours / paper)|. Ours count every re-plan by its reason in summary.json: the 20-minute ' +
    "starvation re-plans against the rest, and the rest include a site's refusal of a job its VO can never run there " +
    '(`too_wide`), which Table XII has no row for. ' +
    'Every table of the report, Table IV included, is judged with these values fixed.',
  '',
  'Until this fit, the misbehaviour was fitted on Table IV, and the best fit there lay at the edge of its range (80% of the ' +
    "sites, 36 h periods, 4 h between): Table IV's 1 × 10 runs re-planned 0.9 to 4.8 times per job, where Table XII's " +
    'pooled small and medium runs re-planned 1.33 times. The fit was moved to Table XII because that table counts the ' +
    'fitted mechanism itself over 28,000 jobs, and this was decided before any run of the new fit was looked at.',
  '',
  `**Chosen:** \`failures: { rate: ${rate} }\`, \`misbehaving: { sites: ${sites}, mean_episode_s: ${episode}, mean_between_s: ${between} }\`, ` +
    `loss ${f(best.loss, 3)}: ${f(best.perJob.timeouts, 3)} scheduling timeouts and ${f(best.perJob.others, 3)} other re-plans per job ` +
    `(Table XII: ${f(TARGET.timeouts, 3)} and ${f(TARGET.others, 3)}).`,
  '',
  (onEdge.length > 0
    ? `The best lies at the end of the grid's range in ${onEdge.map((k) => `\`${k}\``).join(', ')}. `
    : '') +
    (coarse.length > 0
      ? `The grid is coarse: ${coarse.map((k) => `\`${k}\``).join(', ')} took two values each, so the best is at an end of their range by construction, and two seeds separate neighbouring candidates by little (the section "How the verdicts move with the fit" in paper-002.md runs the next best).`
      : ''),
  '',
  '## Every candidate, best first',
  '',
  '| failure rate | prone sites | mean episode (s) | mean between (s) | timeouts per job | other re-plans per job | loss |',
  '| --- | --- | --- | --- | --- | --- | --- |',
  ...ranked.map(
    (c) => `| ${c.values.join(' | ')} | ${f(c.perJob.timeouts, 3)} | ${f(c.perJob.others, 3)} | ${f(c.loss, 3)} |`,
  ),
  '',
];
mkdirSync(join(repo, 'docs/results'), { recursive: true });
writeFileSync(join(repo, 'docs/results/paper-002-calibration.md'), lines.join('\n'));
console.log(
  `best: failures.rate ${rate}, misbehaving sites ${sites}, mean_episode_s ${episode}, mean_between_s ${between} (loss ${f(best.loss, 3)}); wrote docs/results/paper-002-calibration.md`,
);
