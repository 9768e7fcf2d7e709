// Measures what the misbehaving resource managers do to the differences between paper 002's site selectors,
// and writes docs/results/paper-002-misbehaviour.md. Issue 34 asked to show that they are what
// separates the selectors that see availability from those that do not; this measures it.
//   npm run build && node scripts/paper-002-misbehaviour.mjs [--seeds 10] [--reuse]
//
// Two of the report's workloads, each run with the example's misbehaving managers and with none
// (meta.misbehaving.sites 0), nothing else changed: Table III's 1 × 1000 (G-LU, G-Obs, S-RA) and
// Table VI's 1 × 100 (the four GRUBER selectors and S-RA, which Table VI does not have). Seeds 1
// onwards, as the report's: the runs with misbehaving managers are the report's own runs of those
// workloads (S-RA at 1 × 100 excepted). Nothing here is a verdict, and nothing is fitted.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { welchTTest } from '@gridemu/metrics';
import { parseExperiment } from '@gridemu/schemes';
import { numberArg } from './lib/number-arg.mjs';
import { readCsv } from './lib/read-csv.mjs';
import { meanReplans } from './lib/replans-by-reason.mjs';
import { runSweep } from './lib/run-sweep.mjs';
import {
  BASE,
  blast,
  CHOSEN_LARGE_FIT,
  largeSets,
  STEPS,
  TABLE_III_JOBS,
  TABLE_III_RETRIES,
} from './lib/paper-002-settings.mjs';
import { MADE_BY, withMadeBy } from './lib/made-by.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SEEDS = numberArg('--seeds', 10);
const OUT = join(repo, 'results', 'paper-002-misbehaviour');
const REPORT = join(repo, 'docs', 'results', 'paper-002-misbehaviour.md');
const SPEC = parseExperiment(readFileSync(join(repo, BASE), 'utf8'), join(repo, BASE)).spec;
const MISBEHAVING = SPEC.meta.misbehaving;
if (typeof MISBEHAVING?.sites !== 'number')
  throw new Error(`${BASE}: meta.misbehaving.sites must be a share of the sites for this script to vary it`);
/** p below this: the two selectors differ (two-sided Welch t-test over the seeds), as the report reads Table XIII. */
const ALPHA = 0.05;

const EXPERIMENTS = {
  table3: {
    title: 'G-LU against G-Obs and S-RA, 1 × 1000 (Table III)',
    sets: [...blast(1, TABLE_III_JOBS), ...STEPS, ...largeSets(CHOSEN_LARGE_FIT), TABLE_III_RETRIES],
    selectors: ['G-LU', 'G-Obs', 'S-RA'],
  },
  w100: {
    title: '1 × 100 (Table VI), with S-RA beside the four GRUBER selectors',
    sets: blast(1, 100),
    selectors: ['G-RA', 'G-RR', 'G-LU', 'G-LRU', 'S-RA'],
  },
};
const METRICS = [
  ['Comp (%)', 'comp_pct', 1],
  ['Replan', 'replan', 1],
  ['Delay (s)', 'delay_s', 0],
  ['Time (s)', 'time_s', 0],
  ['Speedup', 'speedup', 2],
];
/** The metrics whose differences are tested. */
const TESTED = [
  ['Speedup', 'speedup'],
  ['Comp', 'comp_pct'],
];
const CONDITIONS = [
  { label: 'none', share: 0 },
  { label: 'fitted', share: MISBEHAVING.sites },
];

const started = Date.now();
const data = {};
let ran = 0;
for (const [id, e] of Object.entries(EXPERIMENTS)) {
  const out = join(OUT, id);
  if (!(process.argv.includes('--reuse') && existsSync(join(out, 'sweep.csv')))) {
    ran++;
    runSweep(repo, `experiment ${id}`, [
      BASE,
      '--seeds',
      String(SEEDS),
      '--out',
      out,
      '--summaries-only',
      '--vary',
      `meta.selector=${e.selectors.join(',')}`,
      '--vary',
      `meta.misbehaving.sites=${CONDITIONS.map((c) => c.share).join(',')}`,
      ...e.sets.flatMap((s) => ['--set', s]),
    ]);
  }
  data[id] = { means: readCsv(join(out, 'sweep-mean.csv')), runs: readCsv(join(out, 'sweep.csv')) };
}
// The runs' wall time, kept beside them so that a --reuse rewrite still reports it.
const wallFile = join(OUT, 'wall.json');
if (ran > 0) writeFileSync(wallFile, JSON.stringify({ wall_s: (Date.now() - started) / 1000, sweeps: ran }) + '\n');
const wall_s = existsSync(wallFile) ? JSON.parse(readFileSync(wallFile, 'utf8')).wall_s : NaN;

const f = (x, d) => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(d) : 'n/a');
const shareOf = (r) => Number(r['meta.misbehaving.sites']);
const meanRow = (id, selector, share) =>
  data[id].means.find((r) => r['meta.selector'] === selector && shareOf(r) === share);
/** The runs' values of `metric`, less those that do not define it (Speedup where no job completed). */
const runsOf = (id, selector, share, metric) =>
  data[id].runs
    .filter((r) => r['meta.selector'] === selector && shareOf(r) === share)
    .map((r) => r[metric])
    .filter((v) => typeof v === 'number');
/** A re-plan cause's count (summary.json's replans_by_reason), a run's mean over the variant's seeds. */
const reasonsOf = (id, selector, share, reason) =>
  meanReplans(
    join(OUT, id),
    data[id].runs.filter((r) => r['meta.selector'] === selector && shareOf(r) === share),
    reason,
  );
const pairs = (xs) => xs.flatMap((a, i) => xs.slice(i + 1).map((b) => [a, b]));
/** Welch's p for two selectors' runs, or undefined where every run of both gives one same value (every job completed). */
const pOf = (id, a, b, share, metric) => {
  const [xs, ys] = [runsOf(id, a, share, metric), runsOf(id, b, share, metric)];
  const constant = (v) => v.every((x) => x === v[0]);
  return constant(xs) && constant(ys) && xs[0] === ys[0] ? undefined : welchTTest(xs, ys).p;
};
const list = (xs) => (xs.length === 0 ? 'none' : xs.join(', '));
const mark = (p) => (p === undefined ? '– (no spread)' : `${f(p, 4)}${p < ALPHA ? ' (T)' : ''}`);

const lines = [];
const p = (s = '') => lines.push(s);
/** Per workload, the Speedup pairs the misbehaving managers separate, and those they stop separating. */
const separations = [];
p('# Paper 002: what the misbehaving managers do to the selectors');
p();
p(
  `Generated by \`node scripts/paper-002-misbehaviour.mjs\` on ${new Date().toISOString().slice(0, 10)}, ` +
    `${cpus()[0]?.model.trim() ?? 'unknown CPU'} ×${cpus().length}, Node ${process.version}: ` +
    `${SEEDS} seeds a variant in simulation, ${f(wall_s, 0)} s of wall. Every number comes from those runs ` +
    '(their summary.json under results/paper-002-misbehaviour/). Nothing here is judged or fitted.',
);
p();
p(`The runs were made by ${MADE_BY}, as each run's summary.json says in \`provenance\`.`);
p();
p(
  "Issue 34 asked to show that the resource managers that misbehave (a site's manager that starts no grid job " +
    'for a while) are what separates the selectors that see availability from those that do not. Here two of ' +
    `[the report](paper-002.md)'s workloads run as the report runs them, with the example's misbehaving managers ` +
    `(${f(100 * MISBEHAVING.sites, 0)}% of the sites drawn per seed, episodes of ${f(MISBEHAVING.mean_episode_s / 3600, 1)} h ` +
    `every ${f(MISBEHAVING.mean_between_s / 3600, 1)} h on average, fitted on Table XII) and with none, nothing else changed. ` +
    'The GRUBER selectors ask the engine which sites are available; G-Obs also sends a site one more job only once ' +
    'one sent there has started; S-RA asks nothing. Seeds 1 onwards, as the report: the runs with the misbehaving ' +
    "managers are the report's own (S-RA at 1 × 100 excepted, which the report does not run).",
);
p();
for (const [id, e] of Object.entries(EXPERIMENTS)) {
  p(`## ${e.title}`);
  p();
  p(`| | ${e.selectors.map((s) => `${s} none | ${s} fitted`).join(' | ')} |`);
  p(`| --- | ${e.selectors.map(() => '---: | ---:').join(' | ')} |`);
  for (const [label, key, d] of METRICS) {
    const cells = e.selectors.flatMap((s) =>
      CONDITIONS.map((c) => {
        const r = meanRow(id, s, c.share);
        const over = r[`${key}_runs`];
        const fewer = typeof over === 'number' && over < SEEDS ? ` (${over} of ${SEEDS} runs)` : '';
        return `${f(r[key], d)} ± ${f(r[`${key}_ci90`], d)}${fewer}`;
      }),
    );
    p(`| ${label} | ${cells.join(' | ')} |`);
  }
  p();
  p(`Two-sided Welch t-tests over the seeds, each pair of selectors under each condition; "(T)" where p < ${ALPHA}:`);
  p();
  p(`| pair | ${TESTED.flatMap(([label]) => CONDITIONS.map((c) => `${label}, ${c.label}`)).join(' | ')} |`);
  p(`| --- | ${TESTED.flatMap(() => CONDITIONS.map(() => '---:')).join(' | ')} |`);
  for (const [a, b] of pairs(e.selectors))
    p(
      `| ${a} vs ${b} | ${TESTED.flatMap(([, key]) => CONDITIONS.map((c) => mark(pOf(id, a, b, c.share, key)))).join(' | ')} |`,
    );
  p();
  for (const [label, key] of TESTED) {
    const differing = (share) =>
      pairs(e.selectors)
        .filter(([a, b]) => pOf(id, a, b, share, key) < ALPHA)
        .map(([a, b]) => `${a}–${b}`);
    const [none, fitted] = CONDITIONS.map((c) => differing(c.share));
    const onlyWith = fitted.filter((x) => !none.includes(x));
    const onlyWithout = none.filter((x) => !fitted.includes(x));
    if (key === 'speedup') separations.push({ title: e.title, onlyWith, onlyWithout, pairs: pairs(e.selectors) });
    p(
      `- **${label}:** ${none.length} of ${pairs(e.selectors).length} pairs differ with no misbehaving managers ` +
        `(${list(none)}), ${fitted.length} with them (${list(fitted)}). Separated only with them: ${list(onlyWith)}; ` +
        `only without them: ${list(onlyWithout)}.`,
    );
  }
  const cost = e.selectors.map((s) => {
    const [none, fitted] = CONDITIONS.map((c) => meanRow(id, s, c.share).speedup);
    return `${s} ${f(fitted / none, 2)}×`;
  });
  p(`- Speedup with the misbehaving managers against without: ${cost.join(', ')}.`);
  // A site refusing what it can never hold (too_wide) is a re-plan no misbehaving manager makes:
  // docs/gruber.md, "A gap between the engine and the sites".
  const refusals = e.selectors.map(
    (s) => `${s} ${CONDITIONS.map((c) => f(reasonsOf(id, s, c.share, 'too_wide'), 1)).join(' / ')}`,
  );
  p(
    `- Re-plans after a site refused a job it can never hold (\`too_wide\`), a run's mean, none / fitted: ${refusals.join(', ')} ` +
      '(a GRUBER selector is offered only sites that can hold the job: until 2026-12-01 the engine offered one whose ' +
      'extensible share rounded down to no CPU and the site refused every job, docs/gruber.md, "A gap between ' +
      'the engine and the sites"; S-RA, which asks no engine, meets the sites that give the VO no share).',
  );
  // Until 2026-12-01 `gridemu sweep` read a metric a run leaves undefined as 0, and the report of
  // 2026-11-28 was made so: what its means were, for the variants where it mattered.
  for (const s of e.selectors)
    for (const c of CONDITIONS) {
      const all = data[id].runs.filter((r) => r['meta.selector'] === s && shareOf(r) === c.share);
      const lacking = all.filter((r) => typeof r.time_s !== 'number').length;
      if (lacking === 0) continue;
      const asZero = (key) => all.reduce((n, r) => n + (typeof r[key] === 'number' ? r[key] : 0), 0) / all.length;
      p(
        `- ${s}, ${c.label === 'none' ? 'no misbehaving managers' : 'the misbehaving managers'}: in ${lacking} of ${all.length} runs no job completed; ` +
          'those have no Delay, Time or Speedup, and the means above leave them out. Read as 0, as `gridemu sweep` read them ' +
          `until 2026-12-01 (and so [the report](paper-002.md) made on 2026-11-28 reads them), Time would be ${f(asZero('time_s'), 0)} s ` +
          `and Speedup ${f(asZero('speedup'), 2)}.`,
      );
    }
  p();
}
// The question asked, answered from the tests above: does a pair of a selector that asks the engine
// what is available and S-RA, which asks nothing, differ only with the misbehaving managers?
const withSRA = (xs) => xs.filter((x) => x.includes('S-RA'));
p('## What they separate');
p();
for (const s of separations)
  p(
    `- ${s.title}: on Speedup, the misbehaving managers separate ${list(s.onlyWith)} and erase ` +
      `${s.onlyWithout.length === 0 ? 'no difference' : `the differences of ${s.onlyWithout.join(', ')}`}. Pairs of a selector that asks the engine and S-RA separated only with them: ${list(withSRA(s.onlyWith))} ` +
      `(of ${s.pairs.filter(([a, b]) => a === 'S-RA' || b === 'S-RA').length}).`,
  );
p();
mkdirSync(dirname(REPORT), { recursive: true });
writeFileSync(REPORT, withMadeBy(lines.join('\n'), OUT));
console.error(`wrote ${REPORT}`);
