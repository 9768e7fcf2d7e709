// Simulator throughput: jobs scheduled per second, median of several runs.
// Run with `npm run bench` from the repository root (it builds first). Needs the KTH-SP2 trace
// in GRIDEMU_TRACE_DIR (default ../shared/data/traces beside the repository).
import { cpus } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { loadExperiment, parseExperiment, simulate } from '@gridemu/schemes';
import { loadWorkload } from '@gridemu/workload';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
process.env.GRIDEMU_TRACE_DIR ??= resolve(repo, '../shared/data/traces');
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const PYSS_FULL_KTH_EASY_S = 48.6; // SOURCES.md: pyss, same input, this kind of machine

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function wholeProcess(spec) {
  const dir = mkdtempSync(join(tmpdir(), 'gridemu-bench-'));
  const file = join(dir, 'kth-easy.yaml');
  writeFileSync(
    file,
    `name: ${spec.name}\nsites: [{ id: kth, cpus: 100 }]\nworkload: [{ site: kth, swf: KTH-SP2-1996-2.1-cln.swf.gz }]\nlocal: { policy: easy }\n`,
  );
  const row = timeSimulate([file, '--out', join(dir, 'out'), '--quiet'], RUNS);
  rmSync(dir, { recursive: true, force: true });
  return row;
}

/** `gridemu simulate ARGS` as whole processes from the repository: `runs` timed after a warm-up. */
function timeSimulate(args, runs) {
  const cli = resolve(repo, 'services/cli/dist/main.js');
  const once = () => {
    const t = performance.now();
    const r = spawnSync(process.execPath, [cli, 'simulate', ...args], { cwd: repo, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`gridemu simulate failed: ${r.stderr}`);
    return (performance.now() - t) / 1000;
  };
  once();
  const times = Array.from({ length: runs }, once);
  return {
    runs,
    median_s: +median(times).toFixed(3),
    min_s: +Math.min(...times).toFixed(3),
    max_s: +Math.max(...times).toFixed(3),
  };
}

async function bench(label, spec, specFile) {
  const t0 = performance.now();
  const workload = await loadWorkload(spec, { specFile });
  const load_s = (performance.now() - t0) / 1000;
  simulate(spec, workload.jobs); // warm-up: JIT
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const r = simulate(spec, workload.jobs);
    times.push((performance.now() - t) / 1000);
    if (r.records.some((x) => x.finish_s === undefined && x.rejectReason === undefined))
      throw new Error(`${label}: a job did not finish`);
  }
  const sim_s = median(times);
  const row = {
    label,
    jobs: workload.jobs.length,
    runs: RUNS,
    trace_load_s: +load_s.toFixed(3),
    simulate_median_s: +sim_s.toFixed(4),
    simulate_min_s: +Math.min(...times).toFixed(4),
    simulate_max_s: +Math.max(...times).toFixed(4),
    jobs_per_s_median: Math.round(workload.jobs.length / sim_s),
    end_to_end_s: +(load_s + sim_s).toFixed(3),
  };
  console.log(
    `${label.padEnd(44)} ${String(row.jobs).padStart(6)} jobs  simulate ${row.simulate_median_s.toFixed(3)} s median ` +
      `(${row.simulate_min_s.toFixed(3)}..${row.simulate_max_s.toFixed(3)})  ${row.jobs_per_s_median.toLocaleString('en')} jobs/s  ` +
      `+ trace read ${row.trace_load_s.toFixed(3)} s`,
  );
  return row;
}

const machine = `${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}, Node ${process.version}`;
console.log(`simulator benchmark, ${RUNS} runs each after a warm-up; machine: ${machine}`);
const single = (policy) =>
  parseExperiment(
    `name: kth-full-${policy}\nsites: [{ id: kth, cpus: 100 }]\nworkload: [{ site: kth, swf: KTH-SP2-1996-2.1-cln.swf.gz }]\nlocal: { policy: ${policy} }\n`,
    resolve(repo, 'bench.yaml'),
  ).spec;
const rows = [];
rows.push(await bench('full KTH-SP2, one 100-CPU site, EASY', single('easy')));
rows.push(await bench('full KTH-SP2, one 100-CPU site, FCFS', single('fcfs')));
for (const name of ['kth-independent', 'kth-unified']) {
  const file = resolve(repo, `examples/${name}.yaml`);
  rows.push(await bench(`paper 001 4-site set-up (${name})`, loadExperiment(file).spec, file));
}
const easy = rows[0];
console.log(
  `\nfull KTH EASY end to end (read + simulate): ${easy.end_to_end_s.toFixed(3)} s; ` +
    `pyss takes ${PYSS_FULL_KTH_EASY_S} s for the same input: ${(PYSS_FULL_KTH_EASY_S / easy.end_to_end_s).toFixed(0)}x faster`,
);

// The whole process a user runs: `gridemu simulate` of the full KTH-SP2 trace on one EASY site,
// start to exit (module loading, trace reading, scheduling, jobs.csv and summary.json), wall time.
const whole = await wholeProcess(single('easy'));
console.log(
  `gridemu simulate, full KTH-SP2 on one EASY site, as a whole process: median ${whole.median_s.toFixed(3)} s ` +
    `(${whole.min_s.toFixed(3)}..${whole.max_s.toFixed(3)}) over ${whole.runs} runs after a warm-up`,
);

// One run of paper 002's report as its sweeps make it: the Grid3 set-up at 1 × 100, whose 15 sites'
// own users submit some 133,000 jobs, summary.json alone. The report makes about 480 such runs and
// its fits some 1,200 more, so this is what decides how long it takes.
const gridDir = mkdtempSync(join(tmpdir(), 'gridemu-bench-grid-'));
const grid = timeSimulate(
  [
    'examples/gruber-grid3.yaml',
    '--set',
    'workload[0].blast.jobs=100',
    '--summary-only',
    '--out',
    join(gridDir, 'out'),
    '--quiet',
  ],
  Number(process.env.BENCH_GRID_RUNS ?? 3),
);
rmSync(gridDir, { recursive: true, force: true });
console.log(
  `gridemu simulate --summary-only, paper 002 Grid3 set-up at 1 x 100, as a whole process: median ${grid.median_s.toFixed(3)} s ` +
    `(${grid.min_s.toFixed(3)}..${grid.max_s.toFixed(3)}) over ${grid.runs} runs after a warm-up`,
);

// Issue 38: paper 001's greedy distributed scheme as an external Python policy against the built-in
// one, each a whole `gridemu simulate` of the 4-site KTH set-up (20,000 jobs), alternated; the two
// jobs.csv must be the same byte for byte. Target: the external run under 10 s.
async function externalPolicy() {
  const dir = mkdtempSync(join(tmpdir(), 'gridemu-bench-external-'));
  const cli = resolve(repo, 'services/cli/dist/main.js');
  const spec = resolve(repo, 'examples/kth-distributed.yaml');
  const external = ['--set', 'meta={scheme: external, command: [python3, examples/policies/least_loaded.py]}'];
  const once = (extra, out) => {
    const t = performance.now();
    const r = spawnSync(process.execPath, [cli, 'simulate', spec, '--out', join(dir, out), '--quiet', ...extra], {
      cwd: repo,
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`gridemu simulate failed: ${r.stderr}`);
    return (performance.now() - t) / 1000;
  };
  const runs = Number(process.env.BENCH_EXTERNAL_RUNS ?? 3);
  const builtIn = [];
  const python = [];
  for (let i = 0; i < runs; i++) {
    builtIn.push(once([], 'built-in'));
    python.push(once(external, 'external'));
  }
  const same =
    readFileSync(join(dir, 'built-in', 'jobs.csv'), 'utf8') === readFileSync(join(dir, 'external', 'jobs.csv'), 'utf8');
  const row = {
    runs,
    jobs:
      readFileSync(join(dir, 'external', 'jobs.csv'), 'utf8')
        .trim()
        .split('\n').length - 1,
    built_in_median_s: +median(builtIn).toFixed(3),
    external_median_s: +median(python).toFixed(3),
    same_jobs_csv: same,
  };
  rmSync(dir, { recursive: true, force: true });
  console.log(
    `paper 001 KTH set-up, greedy distributed: built-in ${row.built_in_median_s} s, as a Python external policy ${row.external_median_s} s (${(row.external_median_s / row.built_in_median_s).toFixed(1)}x; medians of ${runs}, whole processes); jobs.csv ${same ? 'the same' : 'DIFFERENT'}`,
  );
  return row;
}
const external = await externalPolicy();

mkdirSync(resolve(repo, 'bench-results'), { recursive: true });
const out = resolve(repo, 'bench-results/simulator.json');
writeFileSync(
  out,
  JSON.stringify(
    {
      machine,
      date: new Date().toISOString(),
      rows,
      whole_process_kth_easy: whole,
      whole_process_grid3: grid,
      external,
    },
    null,
    2,
  ) + '\n',
);
console.log(`wrote ${out}`);
