// Runs paper 003's experiments (adaptive rescheduling of DAG jobs against random static placement)
// and writes docs/results/paper-003.md.
//   npm run report:paper-003                 (builds first)
//   node scripts/paper-003-report.mjs --seeds 3
//   node scripts/paper-003-report.mjs --reuse   (rewrites the report from the runs already under results/paper-003/)
// Every number in the report comes from the runs this script makes, set beside the paper's claims
// (its figures give no numbers in the text). The WfCommons section needs the BLAST instance from
// WfInstances (see examples/dag-wfcommons.yaml) where traces are found; without it, that section says so.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberArg } from './lib/number-arg.mjs';
import { readCsv } from './lib/read-csv.mjs';
import { tookSeconds } from './lib/took.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.env.GRIDEMU_TRACE_DIR ??= resolve(repo, '../shared/data/traces');
const SEEDS = numberArg('--seeds', 2);
const REUSE = process.argv.includes('--reuse');
const OUT = join(repo, 'results', 'paper-003');
const SPEC = 'examples/dag-tornado.yaml';
const PARALLEL = [2, 5, 10, 20];
const VARIATION = ['high', 'medium', 'low'];
const MP = [0, 0.2, 0.5, 0.7];
const cli = join(repo, 'services/cli/dist/main.js');

const started = Date.now();
const gridemu = (id, args, done, env = process.env) => {
  const out = join(OUT, id);
  if (!(REUSE && existsSync(join(out, done)))) {
    console.error(`== ${id}: gridemu ${args.join(' ')}`);
    const r = spawnSync(process.execPath, [cli, ...args, '--out', out], {
      cwd: repo,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (r.status !== 0) return undefined;
  }
  return out;
};
const sweep = (id, args) =>
  readCsv(join(gridemu(id, ['sweep', SPEC, '--seeds', String(SEEDS), ...args], 'sweep-mean.csv'), 'sweep-mean.csv'));

// Figures 6 and 7: both schedulers, every parallelism and variation model.
const grid = sweep('schedulers', [
  '--vary',
  'meta.scheme=dag-static,dag-adaptive',
  '--vary',
  `workload[0].tornado.parallel=${PARALLEL}`,
  '--vary',
  `workload[0].tornado.variation=${VARIATION}`,
]);
// Figure 8: the adaptive scheduler with parent sets of 5, MP from 0 to 70%.
const mp = sweep('mp', ['--vary', `meta.min_improvement=${MP}`, '--set', 'workload[0].tornado.parallel=5']);
// One WfCommons instance under both schedulers, from the trace folder or the user's trace cache.
const INSTANCE = 'blast-chameleon-small-001.json';
const cache = join(homedir(), '.cache/gridemu/traces');
const wfEnv =
  existsSync(join(process.env.GRIDEMU_TRACE_DIR, INSTANCE)) || !existsSync(join(cache, INSTANCE))
    ? process.env
    : { ...process.env, GRIDEMU_TRACE_DIR: cache };
const wf = {};
for (const scheme of ['dag-static', 'dag-adaptive']) {
  const out = gridemu(
    `wfcommons-${scheme}`,
    ['simulate', 'examples/dag-wfcommons.yaml', '--set', `meta.scheme=${scheme}`, '--quiet'],
    'summary.json',
    wfEnv,
  );
  wf[scheme] =
    out && existsSync(join(out, 'summary.json'))
      ? JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))
      : undefined;
}

const cell = (scheme, parallel, variation) =>
  grid.find(
    (r) =>
      r['meta.scheme'] === scheme &&
      Number(r['workload[0].tornado.parallel']) === parallel &&
      r['workload[0].tornado.variation'] === variation,
  );
const pct = (x) => `${(Number(x) * 100).toFixed(1)}%`;
const gain = (a, s) => (Number(s) > 0 ? `${((Number(a) / Number(s) - 1) * 100).toFixed(0)}%` : 'n/a');
const lines = [];
const say = (s = '') => lines.push(s);
/** A table of `metric` by variation (rows) and parallelism: static, adaptive, and how much more adaptive's is. */
const staticAgainstAdaptive = (metric, show, more) => {
  say(`| variation | ${PARALLEL.map((p) => `${p} parallel: static | adaptive | ${more}`).join(' | ')} |`);
  say(`| --- | ${PARALLEL.map(() => '--- | --- | ---').join(' | ')} |`);
  for (const v of VARIATION) {
    say(
      `| ${v} | ${PARALLEL.map((p) => {
        const s = cell('dag-static', p, v)[metric];
        const a = cell('dag-adaptive', p, v)[metric];
        return `${show(s)} | ${show(a)} | ${gain(a, s)}`;
      }).join(' | ')} |`,
    );
  }
  say();
};
say('# Paper 003 reproduced: adaptive rescheduling of DAG jobs against static placement');
say();
say(
  `Written by \`npm run report:paper-003\` (scripts/paper-003-report.mjs) on ${new Date().toISOString().slice(0, 10)}, from the runs it made under`,
);
say(
  `\`results/paper-003/\` (${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}, Node ${process.version}; ${tookSeconds(OUT, REUSE, started)} s to make). Set-up: \`${SPEC}\`, as §4 has it:`,
);
say(
  '4 sites with 128 computational resources (CRs) of 100 to 4000 MIPS, WAN links of 1 Gbit/s and 3-10 ms, 1 MB inputs, outputs and',
);
say(
  'checkpoints, checkpoints of 0.1-1 s, and 120 Tornado-like DAG jobs arriving in batches over a day, 80% by day. Tasks report',
);
say(
  "progress through the *increasing* prediction model, which the paper studies. The grid is observed for 24 h: a job's work is",
);
say(
  '*useful* if the job ends within the window and within 200% of its length (its critical path on the 1000-MIPS reference).',
);
say(
  `Each cell is the mean of ${SEEDS} seeds; the seed draws the CRs' speeds, the WAN latencies and the jobs. docs/dag.md gives our`,
);
say('parameters where the paper gives none.');
say();
say("## The paper's claims");
say();
say(
  '1. Figure 6: the adaptive scheduler processes more useful work than the static one, by as much as 60%. The gain is largest with',
);
say(
  '   high task-length variation and an intermediate parallelism; it shrinks with little parallelism and little variation.',
);
say(
  '2. Figure 7: the adaptive scheduler loads the network more, up to 20% more than the static one, most with many parallel tasks.',
);
say(
  '3. Figure 8 (parent sets of 5): skipping migrations that gain less than MP = 20% does best, about 10% better than MP = 0;',
);
say('   larger MP values degrade.');
say();
say('## Figure 6: useful work, adaptive against static');
say();
staticAgainstAdaptive('useful_work_share', pct, 'gain');
const gains = VARIATION.flatMap((v) =>
  PARALLEL.map((p) => ({
    v,
    p,
    g:
      Number(cell('dag-adaptive', p, v).useful_work_share) /
        Math.max(1e-9, Number(cell('dag-static', p, v).useful_work_share)) -
      1,
  })),
);
const best = gains.reduce((a, b) => (b.g > a.g ? b : a));
const wins = gains.filter((x) => x.g > 0).length;
say(
  `- Adaptive processes more useful work in ${wins} of ${gains.length} cells; the largest gain is ${(best.g * 100).toFixed(0)}% (${best.v} variation, ${best.p} parallel tasks).`,
);
say(
  `- Mean gain by variation: ${VARIATION.map((v) => `${v} ${((gains.filter((x) => x.v === v).reduce((a, x) => a + x.g, 0) / PARALLEL.length) * 100).toFixed(0)}%`).join(', ')}.`,
);
say(
  `- Mean gain by parallelism: ${PARALLEL.map((p) => `${p}: ${((gains.filter((x) => x.p === p).reduce((a, x) => a + x.g, 0) / VARIATION.length) * 100).toFixed(0)}%`).join(', ')}.`,
);
say();
say('## Figure 7: network load (MB: inputs and outputs, and checkpoints)');
say();
staticAgainstAdaptive('network_mb', (x) => Math.round(x), 'more');
say(
  `- Migrations per run, adaptive, high variation: ${PARALLEL.map((p) => `${p} parallel: ${Math.round(cell('dag-adaptive', p, 'high').dag_migrations)}`).join(', ')}.`,
);
say();
say('## Figure 8: MP, parent sets of 5 (adaptive, high variation)');
say();
say('| MP | useful work | migrations | of which initial tasks moved | network MB | DAG turnaround |');
say('| --- | --- | --- | --- | --- | --- |');
for (const r of mp)
  say(
    `| ${(Number(r['meta.min_improvement']) * 100).toFixed(0)}% | ${pct(r.useful_work_share)} | ${Math.round(r.dag_migrations)} | ${Math.round(r.dag_initial_moves)} | ${Math.round(r.network_mb)} | ${Math.round(r.dag_turnaround_s)} s |`,
  );
say();
const mpBest = mp.reduce((a, b) => (Number(b.useful_work_share) > Number(a.useful_work_share) ? b : a));
say(
  `- The most useful work comes at MP = ${(Number(mpBest['meta.min_improvement']) * 100).toFixed(0)}%; migrations fall from ${Math.round(mp[0].dag_migrations)} at 0% to ${Math.round(mp.at(-1).dag_migrations)} at 70%.`,
);
say(
  "- MP gates step 2's moves only. Step 1 still moves an initial task off a CR that a dependent task takes (it would stand still",
);
say('  there), so the migrations left at high MP are those.');
say();
say('## A WfCommons instance under both schedulers');
say();
if (wf['dag-static'] && wf['dag-adaptive']) {
  const [st, ad] = [wf['dag-static'].dag, wf['dag-adaptive'].dag];
  say(
    "WfInstances' Makeflow BLAST instance (`blast-chameleon-small-001.json`: a split, 40 `blastall` tasks, two merges), replayed 20",
  );
  say('times an hour apart (`examples/dag-wfcommons.yaml`), each task moving the bytes of the files it reads.');
  say();
  say('| scheduler | useful work | DAG turnaround | migrations | network MB |');
  say('| --- | --- | --- | --- | --- |');
  for (const s of ['dag-static', 'dag-adaptive'])
    say(
      `| ${s} | ${pct(wf[s].dag.useful_work_share)} | ${wf[s].dag.mean_turnaround_s} s | ${wf[s].dag.migrations} | ${Math.round(wf[s].dag.network_mb.total)} |`,
    );
  say();
  say(
    `- The adaptive scheduler's DAGs finish in ${((1 - ad.mean_turnaround_s / st.mean_turnaround_s) * 100).toFixed(0)}% less time. Its tasks last seconds, so step 2 finds`,
  );
  say(
    "  nothing worth moving: the gain is step 3's placement on fast CRs, where a random CR can be ten times slower than the reference.",
  );
  say(
    '- Every `blastall` task reads the 5.1 GB BLAST database, which no task writes, so it comes from outside the grid: 41 s over',
  );
  say(
    "  a 1 Gbit/s link, several times the task's own run. No DAG then ends within 200% of its critical path of run times, under",
  );
  say(
    "  either scheduler. A real deployment would stage the database once per site; we do not model a site's copy of a shared",
  );
  say('  input (docs/dag.md, "Not built").');
} else {
  say(
    `Not run: \`${INSTANCE}\` (github.com/wfcommons/WfInstances, makeflow/blast/) is not in GRIDEMU_TRACE_DIR or ${cache}.`,
  );
}
say();
say('## Where we differ from the paper, and why');
say();
const hi20 = cell('dag-static', 20, 'high');
const lo2 = cell('dag-static', 2, 'low');
say(
  `- **The static baseline loses more, and more with parallelism.** Static useful work falls from ${pct(lo2.useful_work_share)} (2 parallel, low variation)`,
);
say(
  `  to ${pct(hi20.useful_work_share)} (20 parallel, high). A job is useful only within 200% of its length, and its length is set by its slowest`,
);
say(
  '  task. Placed at random among CRs of 100 to 4000 MIPS, one of 20 parallel tasks almost surely lands on a CR several times slower',
);
say(
  "  than the reference, and the job overruns. The paper's Figure 6 caps the gain near 60%. We cannot tell how its limit was applied",
);
say(
  '  (the text says only "200% of the initially estimated job length"), nor how loaded its grid was. Ours has 120 jobs a day on 128 CRs,',
);
say('  so the adaptive scheduler nearly always finds a free fast CR and reaches close to 100%.');
say(
  '- **Variation.** The paper finds the gain largest with high variation. Here low variation gains as much or more: with similar',
);
say('  lengths every task of a set is as long as the longest, so one slow placement overruns the job just as surely.');
const hi5 = cell('dag-adaptive', 5, 'high');
say(
  `- **Network load.** The adaptive scheduler moves ${Math.round(hi5.network_mb)} MB against static's ${Math.round(cell('dag-static', 5, 'high').network_mb)} (5 parallel, high), far above the paper's`,
);
say(
  '  "up to 20% more". Every migration moves a checkpoint to the checkpoint server and on, with the task\'s inputs again. Under the',
);
say(
  "  increasing model a running task's estimate keeps growing, so step 2 keeps finding a CR that would finish it sooner, and MP = 0",
);
say("  takes every such move. MP is the paper's own remedy: at 20% it cuts the migrations by");
say(
  `  ${(100 - (Number(mp[1].dag_migrations) / Math.max(1, Number(mp[0].dag_migrations))) * 100).toFixed(0)}% and the network load to ${Math.round(mp[1].network_mb)} MB, for ${((Number(mp[1].dag_turnaround_s) / Number(mp[0].dag_turnaround_s) - 1) * 100).toFixed(0)}% longer turnaround.`,
);
say(
  '- **MP and useful work.** The paper finds MP = 20% best by about 10% of useful work. Here useful work is at or near 100% at every',
);
say('  MP, for the reason above, so MP shows only in migrations, network load and turnaround.');
say();
writeFileSync(join(repo, 'docs/results/paper-003.md'), lines.join('\n') + '\n');
console.error(`wrote docs/results/paper-003.md (${((Date.now() - started) / 1000).toFixed(0)} s)`);
