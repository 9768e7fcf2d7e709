// What paper 002's two calibrations share (scripts/paper-002-calibrate.mjs on Table XII,
// scripts/paper-002-calibrate-large.mjs on Table XI): a grid of candidates run as gridemu sweeps,
// the re-plans of each candidate's runs pooled by reason over selectors, workloads and seeds (so
// pooled by jobs, as the paper's tables are), and a loss against the table's rates per job.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCsv } from './read-csv.mjs';

/**
 * Runs one sweep per workload over every candidate of `grid` and every selector, into
 * `out/<workload>` (kept with --reuse), and returns the wall time of the runs, kept in
 * `out/wall.json` so a --reuse rewrite still reports it. Both of paper 002's calibrations run the
 * GRUBER example on seeds 101 onwards, apart from the report's 1 onwards.
 */
export function runFitSweeps({
  repo,
  out,
  workloads,
  grid,
  selectors,
  seeds,
  base = 'examples/gruber-grid3.yaml',
  firstSeed = 101,
  reuse = process.argv.includes('--reuse'),
}) {
  const started = Date.now();
  for (const [id, sets] of Object.entries(workloads)) {
    const dir = join(out, id);
    if (reuse && existsSync(join(dir, 'sweep.csv'))) continue;
    const args = [
      join(repo, 'services/cli/dist/main.js'),
      'sweep',
      base,
      '--seeds',
      String(seeds),
      '--out',
      dir,
      // Each run's summary is all a fit reads; their jobs.csv would be gigabytes.
      '--summaries-only',
      '--set',
      `seed=${firstSeed}`,
      ...sets.flatMap((s) => ['--set', s]),
      '--vary',
      `meta.selector=${selectors.join(',')}`,
      ...Object.entries(grid).flatMap(([k, vs]) => ['--vary', `${k}=${vs.join(',')}`]),
    ];
    console.error(`== ${id}: gridemu ${args.slice(1).join(' ')}`);
    const r = spawnSync(process.execPath, args, { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.status !== 0) throw new Error(`the calibration sweep of ${id} failed (exit ${r.status})`);
  }
  const wallFile = join(out, 'wall.json');
  if (!reuse) writeFileSync(wallFile, JSON.stringify({ wall_s: (Date.now() - started) / 1000 }) + '\n');
  return existsSync(wallFile) ? JSON.parse(readFileSync(wallFile, 'utf8')).wall_s : NaN;
}

/**
 * Each candidate's jobs and re-plans, pooled over its runs: `classes` maps a re-plan reason of
 * summary.json to the class it counts in, one of `targets`' or `shown`'s. Ranked by the loss, the
 * mean over `targets` of |ln(ours / target)|, best first; the `shown` classes are counted, not fitted.
 */
export function rankCandidates({ out, workloads, keys, classes, targets, shown = [] }) {
  const candidates = new Map();
  for (const id of Object.keys(workloads)) {
    for (const run of readCsv(join(out, id, 'sweep.csv'))) {
      const values = keys.map((k) => run[k]);
      const key = values.join('/');
      const c = candidates.get(key) ?? {
        values,
        jobs: 0,
        counts: Object.fromEntries([...Object.keys(targets), ...shown].map((t) => [t, 0])),
      };
      const summary = JSON.parse(
        readFileSync(join(out, id, `${run.variant}__seed${run.seed}`, 'summary.json'), 'utf8'),
      ).gruber;
      c.jobs += summary.jobs;
      for (const [reason, n] of Object.entries(summary.replans_by_reason)) {
        const cls = classes(reason);
        if (!(cls in c.counts)) throw new Error(`re-plan reason ${reason}: class ${cls} is neither fitted nor shown`);
        c.counts[cls] += n;
      }
      candidates.set(key, c);
    }
  }
  const names = Object.keys(targets);
  return [...candidates.values()]
    .map((c) => {
      const perJob = Object.fromEntries(Object.keys(c.counts).map((t) => [t, c.counts[t] / c.jobs]));
      const loss = names.reduce((s, t) => s + Math.abs(Math.log(perJob[t] / targets[t])), 0) / names.length;
      return { ...c, perJob, loss };
    })
    .sort((a, b) => a.loss - b.loss);
}

/**
 * Groups of candidates (their values) whose runs gave the same jobs and the same re-plans in every
 * class: the seeds' runs did not tell them apart, so their order in the ranking means nothing.
 */
export function tiedCandidates(ranked) {
  const groups = new Map();
  for (const c of ranked) {
    const key = JSON.stringify([c.jobs, c.counts]);
    groups.set(key, [...(groups.get(key) ?? []), c.values]);
  }
  return [...groups.values()].filter((g) => g.length > 1);
}

/** The keys of `grid` whose best value lies at an end of a range of three or more values. */
export function onEdge(grid, best) {
  return Object.keys(grid).filter((k, i) => {
    const vs = grid[k];
    return vs.length > 2 && (best.values[i] === vs[0] || best.values[i] === vs[vs.length - 1]);
  });
}
