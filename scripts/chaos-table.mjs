#!/usr/bin/env node
// docs/faults.md's chaos table: examples/chaos-kth-k4.yaml run live under each fault set, each run
// replayed with `gridemu simulate --network-from`, and one Markdown row per run printed. About ten
// minutes on 2 cores; needs the KTH-SP2 trace (GRIDEMU_TRACE_DIR) and nats-server. Not run by CI.
//
//   node scripts/chaos-table.mjs [OUT_DIR]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(repo, 'services/cli/dist/main.js');
const spec = join(repo, 'examples/chaos-kth-k4.yaml');
const out = process.argv[2] ?? join(tmpdir(), `gridemu-chaos-${process.pid}`);
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
const gridemu = (args) => {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`gridemu ${args.join(' ')} exited ${r.status}:\n${r.stderr.slice(-2000)}`);
};
const json = (f) => JSON.parse(readFileSync(f, 'utf8'));
console.log(
  '| run | mean bounded slowdown, live | its replay | live vs replay | wall | felt one-way delay, mean | jobs | `gridemu check` | crashes applied | runs lost | restart to caught up (wall / emulated s) |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- |');
rows.forEach(([label, sets], i) => {
  const live = join(out, `live-${i}`);
  const replay = join(out, `replay-${i}`);
  const setArgs = sets.flatMap((s) => ['--set', s]);
  process.stderr.write(`chaos table: ${label}: live`);
  gridemu(['run', spec, ...setArgs, '--out', live, '--quiet', '--timeout', '600']);
  process.stderr.write(', replay\n');
  gridemu(['simulate', spec, ...setArgs, '--network-from', live, '--out', replay, '--quiet']);
  const l = json(join(live, 'summary.json'));
  const r = json(join(replay, 'summary.json'));
  const check = json(join(live, 'check.json'));
  const network = json(join(live, 'network.json'));
  let sum = 0;
  let count = 0;
  for (const [link, h] of Object.entries(network.links)) {
    const [from, to] = link.split('->');
    if (from !== to) ((sum += h.sum_ms), (count += h.count));
  }
  const f = l.faults ?? {};
  const rejoins = (l.live.rejoins ?? [])
    .map((j) => `${j.process} ${j.catch_up_wall_s.toFixed(2)} s / ${Math.round(j.catch_up_emulated_s)}`)
    .join('; ');
  const lb = l.mean_bounded_slowdown;
  const rb = r.mean_bounded_slowdown;
  console.log(
    `| ${label} | ${lb.toFixed(1)} | ${rb.toFixed(1)} | ${((100 * (lb - rb)) / rb).toFixed(0)}% | ${l.live.run_wall_s.toFixed(1)} s | ${(sum / count).toFixed(1)} ms | ${l.jobs.completed}/${l.jobs.submitted} | ${check.ok ? 'passed' : 'FAILED'} | ${f.crashes_applied ?? ''} | ${f.lost_runs ?? ''} | ${rejoins} |`,
  );
});
