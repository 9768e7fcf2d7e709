// Sweep benchmark: all seven schemes of paper 001 on the 4-site KTH set-up, run by
// `gridemu sweep` in parallel on this machine's cores. Median wall time of several sweeps.
import { spawnSync } from 'node:child_process';
import { cpus, tmpdir } from 'node:os';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
process.env.GRIDEMU_TRACE_DIR ??= resolve(repo, '../shared/data/traces');
const RUNS = Number(process.env.BENCH_SWEEP_RUNS ?? 3);
const schemes = 'independent,unified,centralized,hierarchical,distributed,k-distributed,k-dual';
const times = [];
for (let i = 0; i < RUNS; i++) {
  const out = mkdtempSync(join(tmpdir(), 'gridemu-bench-sweep-'));
  const t = performance.now();
  const r = spawnSync(
    process.execPath,
    [
      join(repo, 'services/cli/dist/main.js'),
      'sweep',
      join(repo, 'examples/kth-independent.yaml'),
      '--vary',
      `meta.scheme=${schemes}`,
      '--set',
      'meta.k=4',
      '--out',
      out,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  if (r.status !== 0) throw new Error(`sweep failed: ${r.stderr}`);
  times.push((performance.now() - t) / 1000);
  if (readFileSync(join(out, 'sweep.csv'), 'utf8').trim().split('\n').length !== 8)
    throw new Error('sweep.csv should have 7 rows');
  rmSync(out, { recursive: true, force: true });
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
const machine = `${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}, Node ${process.version}`;
console.log(
  `sweep of 7 schemes x 20000 jobs (KTH 4-site set-up, K=4), ${RUNS} sweeps on ${machine}: ` +
    `median ${median.toFixed(1)} s (min ${times[0].toFixed(1)}, max ${times.at(-1).toFixed(1)}); target under 60 s`,
);
mkdirSync(join(repo, 'bench-results'), { recursive: true });
writeFileSync(
  join(repo, 'bench-results/sweep.json'),
  JSON.stringify({ machine, date: new Date().toISOString(), times_s: times, median_s: median }, null, 2) + '\n',
);
