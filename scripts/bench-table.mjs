#!/usr/bin/env node
// Rewrites the table at the top of docs/performance.md from bench-results/*.json, the files
// `npm run bench` has just written; it runs as the last step of `npm run bench`. Only the block
// between the two markers changes; the history below it is written by hand.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const doc = join(repo, 'docs/performance.md');
const START = '<!-- bench-table:start (npm run bench rewrites this block) -->';
const END = '<!-- bench-table:end -->';

const read = (name) => {
  const file = join(repo, 'bench-results', name);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
};
const simulator = read('simulator.json');
const live = read('live.json');
const n = (x) => (typeof x === 'number' ? x.toLocaleString('en') : '–');

const rows = [];
if (simulator) {
  const w = simulator.whole_process_kth_easy;
  if (w)
    rows.push([
      '`gridemu simulate`, full KTH-SP2 on one EASY site, whole process (target under 0.4 s)',
      `**${w.median_s.toFixed(3)} s** median (${w.min_s.toFixed(3)}–${w.max_s.toFixed(3)}, ${w.runs} runs)`,
    ]);
  const g = simulator.whole_process_grid3;
  if (g)
    rows.push([
      "`gridemu simulate --summary-only`, paper 002's Grid3 set-up at 1 × 100 (about 133,000 local jobs), whole process: one run of its report",
      `${g.median_s.toFixed(3)} s median (${g.min_s.toFixed(3)}–${g.max_s.toFixed(3)}, ${g.runs} runs)`,
    ]);
  for (const r of simulator.rows)
    rows.push([
      `simulate, ${r.label} (${n(r.jobs)} jobs), in process`,
      `${r.simulate_median_s.toFixed(3)} s median, ${n(r.jobs_per_s_median)} jobs/s`,
    ]);
}
if (simulator?.external) {
  const e = simulator.external;
  rows.push([
    `simulate, paper 001 KTH set-up (${n(e.jobs)} jobs), greedy as a Python external policy against the built-in, whole processes (target under 10 s)`,
    `**${e.external_median_s.toFixed(2)} s** against ${e.built_in_median_s.toFixed(2)} s (${(e.external_median_s / e.built_in_median_s).toFixed(1)}×, medians of ${e.runs}); jobs.csv ${e.same_jobs_csv ? 'the same' : '**different**'}`,
  ]);
}
const rate = (r) =>
  r
    ? `**${n(r.jobs_per_s)} jobs/s** over ${n(r.jobs)} jobs at speed-up ${n(r.speedup)}, ${r.cpu_ms_per_job ?? '–'} CPU ms per job, exactly-once ${r.exactly_once ? 'held' : 'BROKEN'}`
    : 'no run held exactly-once';
if (live) {
  rows.push(['live, 4 sites K = 2, best of the short runs (target at least 1,000 jobs/s)', rate(live.best)]);
  if (live.long_runs)
    rows.push(['live, 4 sites K = 2, sustained (target at least 2,000 jobs/s)', rate(live.sustained)]);
  if (live.k4) rows.push(['live, 4 sites K = 4, sustained (target at least 2,000 jobs/s)', rate(live.k4.sustained)]);
  const q = live.quickstart_fidelity;
  if (q) {
    const side = (v) =>
      v
        ? `one hop ${v.hop_ms} ms (${v.hop_s} emulated s), timer lag ${v.timer_lag_ms} ms (${v.timer_lag_s} s)`
        : 'not measured';
    rows.push([
      `live, the README's quickstart at speed-up ${n(q.speedup)}: the fidelity guard (target: quiet before and during the run, every hop and lag under ${q.share * 100}% of the scheme's timescales)`,
      `**${q.quiet ? 'quiet' : 'warned'}**; before: ${side(q.before)}; measured: ${side(q.measured)}${q.quiet ? '' : `; ${[...(q.before?.warnings ?? []), ...(q.measured?.warnings ?? [])].join(' ')}`}`,
    ]);
  }
  const journalRows = [
    live.journal,
    live.journal_jetstream,
    live.journal_patient_claims,
    live.journal_below_saturation,
  ];
  for (const j of journalRows.filter(Boolean)) {
    const claims = j.without.claims_sent
      ? `; claims sent ${n(j.with.claims_sent)} against ${n(j.without.claims_sent)}, ${n(j.with.resent)} resent`
      : '';
    const patient =
      j.claim_timeout_s > 600 ? ', claims waiting beyond any round trip (10^6 s) so both runs do the same work' : '';
    const range = (xs) => (xs?.length ? `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}×` : undefined);
    const pairs =
      range(j.pair_jobs_per_s_ratios) !== undefined
        ? `; the pairs one by one: jobs/s ${range(j.pair_jobs_per_s_ratios)}, delay ${range(j.pair_felt_delay_ratios)}`
        : '';
    const below =
      live.sustained && j.speedup < live.sustained.speedup
        ? `, at speed-up ${n(j.speedup)}, a tenth of the sustained one (below saturation: both runs keep up with the trace)`
        : '';
    // Where the felt delay went (bench results from 2026-11-29 on): until the receiver's mailbox, and in it.
    const parts =
      j.with.to_mailbox_mean_ms != null
        ? `; of the felt delay, to the receiver's mailbox ${j.with.to_mailbox_mean_ms} against ${j.without.to_mailbox_mean_ms} ms, waiting in it ${j.with.in_mailbox_mean_ms} against ${j.without.in_mailbox_mean_ms} ms, timers ${j.with.timer_fire_lag_mean_ms} against ${j.without.timer_fire_lag_mean_ms} ms late`
        : '';
    // CPU per job of the run's own processes (driver and sites, start-up and warm-up included;
    // nats-server not; in bench results since 2026-11-26). Below saturation its ratio is what a
    // journal costs; at saturation the processes use the cores whole either way (runCpu below).
    const cpu =
      j.with.cpu_ms_per_job != null
        ? `; CPU ${j.with.cpu_ms_per_job} against ${j.without.cpu_ms_per_job} ms per job (${(j.with.cpu_ms_per_job / j.without.cpu_ms_per_job).toFixed(2)}×, the run's processes, nats-server not counted)`
        : '';
    // The same from the clock's start only (bench results from 2026-12-02 on): start-up and the
    // warm-up cost both sides alike, so the ratio over the whole lives understates the run's own.
    // With the cores' worth it kept busy (CPU a job times jobs a second): where that is the machine
    // whole, as at saturation, the CPU a job follows the run's length and says nothing of where
    // the time went (docs/performance.md, "At saturation the CPU is the wall time").
    const cores = (side) => ((side.run_cpu_ms_per_job * side.jobs_per_s) / 1000).toFixed(2);
    const runCpu =
      j.with.run_cpu_ms_per_job != null && j.without.run_cpu_ms_per_job != null
        ? `, during the run ${j.with.run_cpu_ms_per_job} against ${j.without.run_cpu_ms_per_job} ms (${(j.with.run_cpu_ms_per_job / j.without.run_cpu_ms_per_job).toFixed(2)}×; ${cores(j.with)} against ${cores(j.without)} cores busy)`
        : '';
    rows.push([
      `live with \`live.journal: true\`, journal in ${j.store}${patient}${below}, against the same run without (targets: jobs/s at least 0.9×, felt delay at most 1.2×)`,
      `jobs/s **${j.jobs_per_s_ratio.toFixed(2)}×**, felt one-way delay **${j.felt_delay_ratio.toFixed(2)}×** (${n(j.with.jobs_per_s)} against ${n(j.without.jobs_per_s)} jobs/s; ${j.with.felt_mean_ms} against ${j.without.felt_mean_ms} ms${parts}${cpu}${runCpu}${claims}; medians of ${j.pairs} pairs${pairs})`,
    ]);
  }
}
if (rows.length === 0) {
  console.error('bench-table: no bench-results/*.json to read; run npm run bench first');
  process.exit(1);
}
const machine = live?.machine ?? simulator?.machine ?? 'unknown machine';
const date = (live?.date ?? simulator?.date ?? '').slice(0, 10);
const block = [
  START,
  `Last \`npm run bench\`: ${date}, ${machine}. A shared machine: compare ratios and medians, not single runs.`,
  '',
  '| what | measured |',
  '| --- | --- |',
  ...rows.map(([what, value]) => `| ${what} | ${value} |`),
  END,
].join('\n');

const text = readFileSync(doc, 'utf8');
const from = text.indexOf(START);
const to = text.indexOf(END);
const next =
  from >= 0 && to > from
    ? text.slice(0, from) + block + text.slice(to + END.length)
    : text.replace(/\n\n/, `\n\n${block}\n\n`);
writeFileSync(doc, next);
console.log(`bench-table: rewrote the table at the top of ${doc}`);
