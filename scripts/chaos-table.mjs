#!/usr/bin/env node
// docs/faults.md's chaos table: examples/chaos-kth-k4.yaml run live under each fault set, each run
// replayed with `gridemu simulate --network-from`, and one Markdown row per run printed. About ten
// minutes on 2 cores for one run of each row; needs the KTH-SP2 trace (GRIDEMU_TRACE_DIR) and
// nats-server. Not run by CI.
//
//   node scripts/chaos-table.mjs [OUT_DIR] [--runs N] [--rows 0,4,5] [--replay-seeds S] [--set K=V]... [--faults LABEL=FAULTS]... [--whole-delays] [--burst-until S]
//
// --set applies to every row, live and replayed alike (e.g. --set meta.claim_timeout_s=2000); it
// may not set `faults`, which would give every row's label the lie. --faults adds a row of its own,
// labelled LABEL, whose `faults:` are FAULTS (the experiment file's form, e.g. --faults 'crashes
// and a restart={crash: [{ process: s2, at_s: 650000, down_s: 4000 }], nats_restart: [{ at_s:
// 660000, down_s: 500 }]}'), numbered after the seven; with any, only those run unless --rows names others.
// --whole-delays replays each live run a second time with `simulate --whole-delays` (the default
// replay before the mailbox split; docs/faults.md, "Replaying the mailboxes") and prints that
// replay's gaps and claims beside the default's.
//
// One live run of this spec moves its bounded slowdown by about ±40% from the next, so "within 10%
// of its replay" cannot be read off one run. With --runs N each row is run N times, each run
// replayed over S network seeds, and a second table gives the mean gap over the runs with its 90%
// interval and what that interval says of 10% (scripts/lib/mean-gap.mjs). A last table gives
// each row's claims sent and timed out, live and replayed. Beside each row's gap it gives the mean
// bounded slowdown of the jobs submitted before --burst-until (emulated s; by default 640,000, the
// trace's first two wall seconds at 20,000x: the start's burst) and of the rest, live / replayed.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { meanWithInterval } from '@gridemu/metrics';
import { burstSplit } from './lib/burst-split.mjs';
import { meanGap } from './lib/mean-gap.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(repo, 'services/cli/dist/main.js');
const spec = join(repo, 'examples/chaos-kth-k4.yaml');
const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '1' },
    rows: { type: 'string' },
    'replay-seeds': { type: 'string', default: '1' },
    set: { type: 'string', multiple: true, default: [] },
    faults: { type: 'string', multiple: true, default: [] },
    'whole-delays': { type: 'boolean', default: false },
    'burst-until': { type: 'string', default: '640000' },
  },
});
const out = positionals[0] ?? join(tmpdir(), `gridemu-chaos-${process.pid}`);
const count = (name, v) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name}: expected a whole number of at least 1, got ${v}`);
  return n;
};
const RUNS = count('runs', opts.runs);
const REPLAY_SEEDS = count('replay-seeds', opts['replay-seeds']);
const BURST_UNTIL_S = Number(opts['burst-until']);
if (!Number.isFinite(BURST_UNTIL_S))
  throw new Error(`--burst-until: expected emulated seconds, got ${opts['burst-until']}`);
const crash = (process, at_s, down_s) => `{ process: ${process}, at_s: ${at_s}, down_s: ${down_s} }`;
const two = [crash('s2', 650000, 4000), crash('s1', 700000, 2000)];
const more = [
  crash('s3', 720000, 3000),
  crash('s4', 760000, 2000),
  crash('s2', 800000, 3000),
  crash('s1', 850000, 2000),
];
const partition = '[{ sites: [s3], from_s: 620000, to_s: 640000 }]';
const restart = '[{ at_s: 660000, down_s: 500 }]';
const rows = [
  ['no faults', []],
  ['2% loss', ['faults={drop: 0.02}']],
  ['partition only', [`faults={partition: ${partition}}`]],
  ['server restart only', [`faults={nats_restart: ${restart}}`]],
  ['two crashes', [`faults={crash: [${two.join(', ')}]}`]],
  [
    'six crashes, partition, loss, restart',
    [
      `faults={crash: [${[...two, ...more].join(', ')}], partition: ${partition}, drop: 0.02, nats_restart: ${restart}}`,
    ],
  ],
  ['no faults, `live.journal: true` (files)', ['live.journal=true']],
];
for (const set of opts.set)
  if (/^faults[.=]/.test(set))
    throw new Error(`--set ${set}: a row's faults are its own; add a row of them with --faults LABEL=FAULTS`);
const standardRows = rows.length;
for (const f of opts.faults) {
  const eq = f.indexOf('=');
  if (eq <= 0 || eq === f.length - 1) throw new Error(`--faults: expected LABEL=FAULTS, got ${f}`);
  rows.push([f.slice(0, eq), [`faults=${f.slice(eq + 1)}`]]);
}
const chosen =
  opts.rows !== undefined
    ? opts.rows.split(',').map(Number)
    : rows.map((_, i) => i).filter((i) => opts.faults.length === 0 || i >= standardRows);
for (const i of chosen)
  if (!Number.isInteger(i) || !rows[i]) throw new Error(`--rows: no row ${i} (0 to ${rows.length - 1})`);
const gridemu = (args) => {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`gridemu ${args.join(' ')} exited ${r.status}:\n${r.stderr.slice(-2000)}`);
};
const json = (f) => JSON.parse(readFileSync(f, 'utf8'));
const fmt = (x) => x.toFixed(1);
console.log(
  '| run | mean bounded slowdown, live | its replay | live vs replay | wall | felt one-way delay, mean | jobs | `gridemu check` | crashes applied | runs lost | restart to caught up (wall / emulated s) |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- |');
const pairsByRow = new Map();
const claimsByRow = new Map();
/** Per row, each run's [live, replay] burst / later split (burstSplit; the replay's over its seeds). */
const splitsByRow = new Map();
/** With --whole-delays: per row, each run's [live, whole-delay replay] slowdowns, and those replays' claims. */
const wholePairsByRow = new Map();
const wholeClaimsByRow = new Map();
const push = (m, i, x) => m.set(i, [...(m.get(i) ?? []), x]);
for (const i of chosen) {
  const [label, sets] = rows[i];
  const setArgs = [...opts.set, ...sets].flatMap((s) => ['--set', s]);
  for (let k = 0; k < RUNS; k++) {
    const live = join(out, `live-${i}-${k}`);
    const replay = join(out, `replay-${i}-${k}`);
    process.stderr.write(`chaos table: ${label}, run ${k + 1} of ${RUNS}: live`);
    gridemu(['run', spec, ...setArgs, '--out', live, '--quiet', '--timeout', '600']);
    process.stderr.write(', replay\n');
    const replayInto = (dir, extra) => {
      gridemu([
        'simulate',
        spec,
        ...setArgs,
        '--network-from',
        live,
        ...extra,
        '--out',
        dir,
        '--quiet',
        // One seed is the spec's own, written as summary.json; --seeds 1 would write DIR/seed-1/ instead.
        ...(REPLAY_SEEDS > 1 ? ['--seeds', String(REPLAY_SEEDS)] : []),
      ]);
      // With several seeds the replay writes one summary.json a seed under seed-N/; with one, its own.
      return REPLAY_SEEDS > 1
        ? Array.from({ length: REPLAY_SEEDS }, (_, s) => json(join(dir, `seed-${s + 1}`, 'summary.json')))
        : [json(join(dir, 'summary.json'))];
    };
    const replaySummaries = replayInto(replay, []);
    const replaySplits = (
      REPLAY_SEEDS > 1
        ? Array.from({ length: REPLAY_SEEDS }, (_, s) => join(replay, `seed-${s + 1}`, 'jobs.csv'))
        : [join(replay, 'jobs.csv')]
    ).map((f) => burstSplit(f, BURST_UNTIL_S));
    // null when a seed has no job on that side (then none has: a replay keeps the live run's submissions).
    const meanSide = (side) =>
      replaySplits.some((x) => x[side] === null)
        ? null
        : replaySplits.reduce((a, x) => a + x[side], 0) / replaySplits.length;
    push(splitsByRow, i, [
      burstSplit(join(live, 'jobs.csv'), BURST_UNTIL_S),
      { burst: meanSide('burst'), later: meanSide('later') },
    ]);
    const l = json(join(live, 'summary.json'));
    const meanOf = (summaries, value) => summaries.reduce((a, x) => a + value(x), 0) / summaries.length;
    // seeds.json's mean, taken from the seeds' own summaries.
    const rb = meanOf(replaySummaries, (x) => x.mean_bounded_slowdown);
    // What a replay must get right is which claims time out before their answer comes.
    const claimsOf = (summaries) => ({
      sent: meanOf(summaries, (x) => x.claims.sent),
      timed_out: meanOf(summaries, (x) => x.claims.timed_out),
    });
    push(claimsByRow, i, [claimsOf([l]), claimsOf(replaySummaries)]);
    if (opts['whole-delays']) {
      const w = replayInto(join(out, `replay-whole-${i}-${k}`), ['--whole-delays']);
      push(wholePairsByRow, i, [l.mean_bounded_slowdown, meanOf(w, (x) => x.mean_bounded_slowdown)]);
      push(wholeClaimsByRow, i, claimsOf(w));
    }
    const check = json(join(live, 'check.json'));
    const network = json(join(live, 'network.json'));
    let sum = 0;
    let n = 0;
    for (const [link, h] of Object.entries(network.links)) {
      const [from, to] = link.split('->');
      if (from !== to) ((sum += h.sum_ms), (n += h.count));
    }
    const f = l.faults ?? {};
    const rejoins = (l.live.rejoins ?? [])
      .map((j) => `${j.process} ${j.catch_up_wall_s.toFixed(2)} s / ${Math.round(j.catch_up_emulated_s)}`)
      .join('; ');
    const lb = l.mean_bounded_slowdown;
    push(pairsByRow, i, [lb, rb]);
    console.log(
      `| ${label} | ${fmt(lb)} | ${fmt(rb)} | ${((100 * (lb - rb)) / rb).toFixed(0)}% | ${l.live.run_wall_s.toFixed(1)} s | ${(sum / n).toFixed(1)} ms | ${l.jobs.completed}/${l.jobs.submitted} | ${check.ok ? 'passed' : 'FAILED'} | ${f.crashes_applied ?? ''} | ${f.lost_runs ?? ''} | ${rejoins} |`,
    );
  }
}
if (RUNS > 1) {
  const pm = (xs) => {
    const m = meanWithInterval(xs);
    return `${fmt(m.mean)} ± ${fmt(m.half_width)}`;
  };
  const pct = (x) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(0)}%`;
  console.log('');
  console.log(
    `Over ${RUNS} live runs a row, each replayed over ${REPLAY_SEEDS} network seed${REPLAY_SEEDS > 1 ? 's' : ''}; ± is the 90% interval (Student's t).`,
  );
  console.log('');
  // The burst's and the later jobs' slowdowns, means over the row's runs, live / replayed.
  const split = (i, side) => {
    // A run with no job on this side (--burst-until before the first submission or after the last) has none to count.
    const runs = (splitsByRow.get(i) ?? []).filter((r) => r[0][side] !== null && r[1][side] !== null);
    if (runs.length === 0) return '–';
    const mean = (k) => runs.reduce((a, r) => a + r[k][side], 0) / runs.length;
    const [l, r] = [mean(0), mean(1)];
    return `${fmt(l)} / ${fmt(r)} (${(l / r).toFixed(2)}×)`;
  };
  const gapTable = (byRow, withSplit) => {
    const extra = withSplit ? ` the burst's jobs, live / replayed | the later jobs |` : '';
    console.log(`| run | live, mean | replays, mean | mean gap (90% interval) | verdict |${extra}`);
    console.log(`| --- | ---: | ---: | ---: | --- |${withSplit ? ' ---: | ---: |' : ''}`);
    for (const [i, pairs] of byRow) {
      const g = meanGap(pairs);
      const cells = withSplit ? ` ${split(i, 'burst')} | ${split(i, 'later')} |` : '';
      console.log(
        `| ${rows[i][0]} | ${pm(pairs.map((p) => p[0]))} | ${pm(pairs.map((p) => p[1]))} | ${pct(g.mean)} (${pct(g.lo)} to ${pct(g.hi)}) | ${g.verdict} |${cells}`,
      );
    }
  };
  console.log(`The burst: the jobs submitted before ${BURST_UNTIL_S} emulated s; the later jobs: the rest.`);
  console.log('');
  gapTable(pairsByRow, true);
  if (opts['whole-delays']) {
    console.log('');
    console.log('The same live runs replayed with `simulate --whole-delays`, over the same seeds:');
    console.log('');
    gapTable(wholePairsByRow, false);
  }
}
console.log('');
console.log("Claims, a run's mean (replays: over every replay of the row):");
console.log('');
const also = opts['whole-delays'];
const withWhole = also ? ' | with --whole-delays' : '';
console.log(`| run | claims sent, live | replays${withWhole} | timed out, live | replays${withWhole} |`);
console.log(`| --- | ---: | ---:${also ? ' | ---:' : ''} | ---: | ---:${also ? ' | ---:' : ''} |`);
for (const [i, runs] of claimsByRow) {
  const mean = (xs, key) => Math.round(xs.reduce((a, r) => a + r[key], 0) / xs.length).toLocaleString('en');
  const live = runs.map((r) => r[0]);
  const replays = runs.map((r) => r[1]);
  const whole = wholeClaimsByRow.get(i) ?? [];
  const wholeMean = (key) => (also ? ` | ${mean(whole, key)}` : '');
  console.log(
    `| ${rows[i][0]} | ${mean(live, 'sent')} | ${mean(replays, 'sent')}${wholeMean('sent')} | ${mean(live, 'timed_out')} | ${mean(replays, 'timed_out')}${wholeMean('timed_out')} |`,
  );
}
