import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(fileURLToPath(import.meta.url), '../../../..');
export const MAIN = join(REPO, 'services/cli/dist/main.js');

export interface Finished {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

/** Starts the built `gridemu` as a user would; `done` resolves when it exits. */
/** `ownGroup`: the command leads a process group of its own, which a test can signal whole (kill(-pid)). */
export function gridemuLive(
  args: string[],
  ownGroup = false,
  env: NodeJS.ProcessEnv = process.env,
): { child: ChildProcess; done: Promise<Finished> } {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: REPO, env, detached: ownGroup });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const done = new Promise<Finished>((r) => child.once('exit', (code) => r({ code, out, err })));
  return { child, done };
}

export const tmp = () => mkdtempSync(join(tmpdir(), 'gridemu-live-'));

/**
 * The warm-up jobs per site of the tests' live runs. The default warm-up (250 a site) is there so
 * that a run's numbers are the scheme's from its first second; these tests assert what must hold
 * whatever the timing (every job once, the check passing), and a short warm-up that still runs
 * its whole path takes about 2.5 s less a run, over some fifty live runs in `npm test`.
 */
export const TEST_WARM_UP_JOBS = 25;

/**
 * The `--timeout` of a test's own live run, and the test's limit just above it. A run that does not
 * end then fails with gridemu run's reason and last lines in the assertion's message, not with
 * vitest's bare time-out, which keeps nothing of why: on 2026-12-07, with two `npm test` runs side
 * by side, two such tests (about 12 s each alone) hit vitest's 60 s while their runs had 150 and
 * 300 s to go. Room for a slow machine too: a run that ends within it passes.
 */
export const RUN_LIMIT_S = 100;
export const RUN_TEST_LIMIT_MS = (RUN_LIMIT_S + 30) * 1000;

/** A small synthetic experiment file: `sites` sites of 32 processors, `jobs` Lublin jobs each. */
export function smallSpec(
  dir: string,
  o: {
    sites?: number;
    jobs?: number;
    scheme?: string;
    k?: number;
    latency_ms?: number;
    jitter_ms?: number;
    speedup?: number;
    policy?: string;
  } = {},
): string {
  const n = o.sites ?? 3;
  const ids = Array.from({ length: n }, (_, i) => `s${i + 1}`);
  const text = [
    `name: live-test`,
    `seed: 7`,
    `sites:`,
    ...ids.map((id) => `  - { id: ${id}, cpus: 32 }`),
    `workload:`,
    ...ids.map((id, i) => `  - { site: ${id}, synthetic: { jobs: ${o.jobs ?? 30}, uhi: 5 }, shift_h: ${i % 3} }`),
    `local: { policy: ${o.policy ?? 'easy'} }`,
    `meta: { scheme: ${o.scheme ?? 'k-distributed'}, k: ${o.k ?? 2}, load_period_s: 120 }`,
    `network: { latency_ms: ${o.latency_ms ?? 0}, jitter_ms: ${o.jitter_ms ?? 0} }`,
    `live: { speedup: ${o.speedup ?? 50000}, warm_up_jobs: ${TEST_WARM_UP_JOBS} }`,
  ].join('\n');
  const file = join(dir, 'spec.yaml');
  writeFileSync(file, text + '\n');
  return file;
}

export interface JobRow {
  readonly id: string;
  readonly state: string;
  readonly start: string;
  readonly origin: string;
  readonly exec: string;
}

export function readJobs(dir: string): JobRow[] {
  const [header, ...lines] = readFileSync(join(dir, 'jobs.csv'), 'utf8').trim().split('\n');
  const cols = header!.split(',');
  const at = (name: string) => cols.indexOf(name);
  return lines.map((l) => {
    const f = l.split(',');
    return {
      id: f[at('job_id')]!,
      state: f[at('final_state')]!,
      start: f[at('starting_time')]!,
      origin: f[at('origin_site')]!,
      exec: f[at('exec_site')]!,
    };
  });
}

/** Every `job.started` line in the processes' logs: job id → the sites whose executor started it. */
export function startsInLogs(logs: string): Map<string, string[]> {
  const starts = new Map<string, string[]>();
  for (const file of readdirSync(logs)) {
    for (const line of readFileSync(join(logs, file), 'utf8').split('\n')) {
      if (!line.includes('"job.started"')) continue;
      const e = JSON.parse(line) as { jobId: string; site: string };
      starts.set(e.jobId, [...(starts.get(e.jobId) ?? []), e.site]);
    }
  }
  return starts;
}

/** summary.json as the tests read it: loosely typed, since it is checked field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LooseSummary = Record<string, any>;

export function readSummary(dir: string): LooseSummary {
  return JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as LooseSummary;
}

/**
 * Writes an experiment file of these lines to a fresh folder, runs it live, and expects exit 0.
 * Returns the results folder and its summary.json.
 */
export async function runLiveLines(
  lines: readonly string[],
  extra: readonly string[] = [],
): Promise<{ out: string; s: LooseSummary }> {
  const dir = tmp();
  const spec = join(dir, 'experiment.yaml');
  writeFileSync(spec, lines.join('\n') + '\n');
  const out = join(dir, 'out');
  const { code, err } = await gridemuLive(['run', spec, '--out', out, '--timeout', '120', ...extra]).done;
  if (code !== 0) throw new Error(`gridemu run exited ${code}:\n${err}`);
  return { out, s: readSummary(out) };
}

/** check.json, gridemu run's check of its own folder (invariants, and what Prometheus saw). */
export function readCheck(dir: string): LooseSummary {
  return JSON.parse(readFileSync(join(dir, 'check.json'), 'utf8')) as LooseSummary;
}

/** Every query of deploy/grafana's dashboard, with its `$run` variable set (default: any run). */
export function dashboardQueries(run = '.*'): { panel: string; expr: string }[] {
  const file = join(REPO, 'deploy/grafana/dashboards/gridemu.json');
  const dashboard = JSON.parse(readFileSync(file, 'utf8')) as {
    panels: { title: string; targets?: { expr: string }[] }[];
  };
  return dashboard.panels.flatMap((p) =>
    (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr.replaceAll('$run', run) })),
  );
}

/** A CSV a command wrote (seeds.csv, sweep.csv) as rows of named cells; no cell these tests read holds a comma. */
export function csvRows(file: string): Record<string, string>[] {
  const [header, ...lines] = readFileSync(file, 'utf8').trim().split('\n');
  const cols = header!.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i]!, v])));
}

/**
 * A run that never ends: one pool up about 100 s between outages of a day on average, so a 1000 s
 * task is evicted every time it starts and no task ever ends (a FCFS queue holds the 100 s one
 * behind it). The watch for a stalled run (shared/schemes/src/stalled-run.ts) stops it once 50
 * mean outages (50 emulated days) have passed with no outcome: about 4 s at this speed-up; a live
 * run's watch allows at least its processes' heartbeat time-out (10 s here). No warm-up: its
 * jobs, which would never end either, held the live run's start for the warm-up's 5 s limit.
 */
export const NEVER_ENDING_SPEC = [
  'name: never',
  'seed: 3',
  'sites: [{ id: g, cpus: 1 }]',
  'workload:',
  '  - { name: tasks, site: g, tasks: { list: [{ submit_s: 0, work_s: 1000 }, { submit_s: 10, work_s: 100 }] } }',
  'meta:',
  '  scheme: fcfs-flat',
  '  grids:',
  '    g: { N: 1, P: 1, overhead_s: 0, evictions_per_hour: 0, outages: { mean_s: 86400, mean_between_s: 100 } }',
  '  queues:',
  '    - { id: Q1, level: 1, grids: [g], T_q_min: 600, T_e_min: 300, parallel: false }',
  'live: { speedup: 1000000, warm_up_jobs: 0 }',
  '',
].join('\n');

/** How NEVER_ENDING_SPEC's run is stopped, in `simulate` and `run` alike. */
export const NEVER_ENDING_STOP =
  /no job reached its outcome for \d+ emulated s \(from 10 s, .*\); 2 of 2 jobs have none \(tasks!1, tasks!2\)/;

/** Whether a process with this pid is still there (signal 0 only asks). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
