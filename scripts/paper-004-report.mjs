// Runs paper 004's experiments (Grid Shadow Routing against MCT and JSQ*) and writes docs/results/paper-004.md.
//   npm run report:paper-004                 (builds first; needs the LCG trace in GRIDEMU_TRACE_DIR)
//   node scripts/paper-004-report.mjs --seeds 3
//   node scripts/paper-004-report.mjs --reuse   (rewrites the report from the runs already under results/paper-004/)
// Every number in the report comes from the runs this script makes, set beside the paper's claims
// (its figures give no numbers in the text).
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberArg } from './lib/number-arg.mjs';
import { readCsv } from './lib/read-csv.mjs';
import { tookSeconds } from './lib/took.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.env.GRIDEMU_TRACE_DIR ??= resolve(repo, '../shared/data/traces');
const SEEDS = numberArg('--seeds', 2);
const REUSE = process.argv.includes('--reuse');
const OUT = join(repo, 'results', 'paper-004');
const SPEC = 'examples/shadow-lcg.yaml';
const LEVELS = [0, 0.1, 0.2, 0.3, 0.4];
const ROUTERS = ['shadow', 'mct', 'jsq'];
const NAMES = { shadow: 'Grid Shadow', mct: 'MCT', jsq: 'JSQ*' };
// Figures 2–5: the four combinations of error model and what it applies to.
const SETTINGS = [
  {
    id: 'over-under-lengths',
    model: 'over-under',
    apply: 'lengths',
    figure: 'Figure 2 (flowtime, over and under, lengths)',
  },
  {
    id: 'over-under-both',
    model: 'over-under',
    apply: 'both',
    figure: 'Figure 3 (makespan, over and under, lengths and rates)',
  },
  { id: 'over-lengths', model: 'over', apply: 'lengths', figure: 'Figure 4 (flowtime, over only, lengths)' },
  { id: 'over-both', model: 'over', apply: 'both', figure: 'Figure 5 (makespan, over only, lengths and rates)' },
];
const ETAS = [1 / 30, 1 / 300, 1 / 3000, 1 / 30000, 1 / 300000, 1 / 3000000];

const started = Date.now();
const sweep = (id, args) => {
  const out = join(OUT, id);
  if (!(REUSE && existsSync(join(out, 'sweep-mean.csv')))) {
    const all = [
      join(repo, 'services/cli/dist/main.js'),
      'sweep',
      SPEC,
      '--seeds',
      String(SEEDS),
      '--out',
      out,
      ...args,
    ];
    console.error(`== ${id}: gridemu ${all.slice(1).join(' ')}`);
    const r = spawnSync(process.execPath, all, { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.status !== 0)
      throw new Error(
        `${id} failed (exit ${r.status}); the LCG trace must be in GRIDEMU_TRACE_DIR (gridemu trace fetch LCG-2005-1.swf.gz)`,
      );
  }
  return readCsv(join(out, 'sweep-mean.csv'));
};

const errors = {};
for (const s of SETTINGS) {
  errors[s.id] = sweep(`errors-${s.id}`, [
    '--vary',
    `meta.scheme=${ROUTERS}`,
    '--vary',
    `meta.errors.I=${LEVELS}`,
    '--set',
    `meta.errors.model=${s.model}`,
    '--set',
    `meta.errors.apply=${s.apply}`,
  ]);
}
const etas = sweep('eta', ['--vary', `meta.eta=${ETAS.map((e) => e.toPrecision(6))}`, '--set', 'meta.scheme=shadow']);

const row = (rows, router, I) => rows.find((r) => r['meta.scheme'] === router && Number(r['meta.errors.I']) === I);
const hours = (s) => `${(s / 3600).toFixed(2)} h`;
const lines = [];
const say = (s = '') => lines.push(s);
say('# Paper 004 reproduced: Grid Shadow Routing, MCT and JSQ*');
say();
say(
  `Written by \`npm run report:paper-004\` (scripts/paper-004-report.mjs) on ${new Date().toISOString().slice(0, 10)}, from the runs it made under`,
);
say(
  `\`results/paper-004/\` (${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}, Node ${process.version}; ${tookSeconds(OUT, REUSE, started)} s to make). Set-up: \`${SPEC}\`. There are 50 single-CPU`,
);
say("resources with speeds drawn uniform in [4, 35], and the LCG trace's first 20,000 tasks (about 0.9 load).");
say(
  'One scheduler routes every task over 10 Mbps links with 50 ms latency. Flowtime is, as the paper defines it, the mean',
);
say(
  `completion time (from the first arrival); makespan the largest. Each cell is the mean of ${SEEDS} seeds; the seed draws the speeds and the errors.`,
);
say();
say("## The paper's claims");
say();
say('1. Grid Shadow has the best flowtime, well ahead of MCT, at every error level.');
say("2. MCT has the best makespan; Grid Shadow's is competitive with JSQ*'s.");
say('3. Up to 40% error does not much affect Grid Shadow.');
say('4. Grid Shadow needs no state messages; MCT and JSQ* need state from every resource for every task.');
say();
for (const s of SETTINGS) {
  const rows = errors[s.id];
  say(`## ${s.figure}`);
  say();
  say(`| I | ${ROUTERS.map((r) => `${NAMES[r]} flowtime | ${NAMES[r]} makespan`).join(' | ')} |`);
  say(`| --- | ${ROUTERS.map(() => '--- | ---').join(' | ')} |`);
  for (const I of LEVELS)
    say(
      `| ${(I * 100).toFixed(0)}% | ${ROUTERS.map((r) => `${hours(row(rows, r, I).flowtime_mean_s)} | ${hours(row(rows, r, I).makespan_s)}`).join(' | ')} |`,
    );
  say();
  const best = (metric, I) => ROUTERS.reduce((b, r) => (row(rows, r, I)[metric] < row(rows, b, I)[metric] ? r : b));
  const flowWins = LEVELS.filter((I) => best('flowtime_mean_s', I) === 'shadow').length;
  const mkWins = LEVELS.filter((I) => best('makespan_s', I) === 'mct').length;
  const drift = (row(rows, 'shadow', 0.4).flowtime_mean_s / row(rows, 'shadow', 0).flowtime_mean_s - 1) * 100;
  say(
    `- Grid Shadow has the best flowtime at ${flowWins} of ${LEVELS.length} error levels, and MCT the best makespan at ${mkWins} of ${LEVELS.length}.`,
  );
  say(`- From 0 to 40% error, Grid Shadow's flowtime changes by ${drift.toFixed(1)}%.`);
  say();
}
say('## State messages per task');
say();
const base = errors['over-under-lengths'];
say(`| router | state messages per task | flowtime at 0% | makespan at 0% |`);
say('| --- | --- | --- | --- |');
for (const r of ROUTERS)
  say(
    `| ${NAMES[r]} | ${row(base, r, 0).state_messages_per_task} | ${hours(row(base, r, 0).flowtime_mean_s)} | ${hours(row(base, r, 0).makespan_s)} |`,
  );
say();
say(
  '- MCT and JSQ* send a query to each of the 50 resources and get an answer back: 100 messages per task. Grid Shadow sends none.',
);
say(
  "- This is where we differ from the paper's account of MCT. Its state gathering cost is paid here in latency (a 100 ms round trip) and in the scheduler's link (100 messages of 1 kB at 10 Mbps, 80 ms a task).",
);
say(
  "  That is under a second against LCG's several seconds between arrivals. So MCT's overhead is small here, and its flowtime suffers less from it than the paper's did.",
);
say('  The paper gives no message sizes or GridSim link details, so we cannot say how much state cost its MCT.');
say();
say('## η, from 1/30 to 1/3,000,000 (Grid Shadow, no errors)');
say();
say('| η | flowtime | makespan |');
say('| --- | --- | --- |');
for (const r of etas)
  say(
    `| 1/${(Math.round(1 / Number(r['meta.eta']) / 10) * 10).toLocaleString('en')} | ${hours(r.flowtime_mean_s)} | ${hours(r.makespan_s)} |`,
  );
say();
say(
  "- η multiplies seconds of virtual queue. The normalization fires when η·ΣQ_r >= 1, and then takes twice the slowest resource's estimated time for the task from every queue.",
);
say(
  "  LCG's tasks last about an hour and a half on the reference CPU. At the paper's 1/300 the step fires after nearly every task and empties all the queues, so the choice is made on L̂/μ̂ alone and the fastest resources get most tasks.",
);
say(
  "  The paper's range, 1/30 to 1/3,000, is far too large here. η needs to be scaled to the workload's task times; the example uses the best value of this sweep.",
);
say(
  '- The paper chose 1/300 "for the workloads considered" in GridSim, whose task lengths and rates are in other units. Its lesson, that η sets a trade-off to be tuned, holds. Its value does not carry over.',
);
say();
writeFileSync(join(repo, 'docs/results/paper-004.md'), lines.join('\n'));
console.error(`wrote docs/results/paper-004.md (${((Date.now() - started) / 1000).toFixed(0)} s)`);
