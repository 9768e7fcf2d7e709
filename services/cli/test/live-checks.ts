// Checks of a live run's results shared by the live test files (test/ and test-slow/).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { readProtocolTrace } from '@gridemu/metrics';
import {
  gridemuLive,
  readCheck,
  readJobs,
  readSummary,
  startsInLogs,
  TEST_WARM_UP_JOBS,
  tmp,
  type LooseSummary,
} from './live-helpers.js';

/**
 * `gridemu run` end to end: a real nats-server, one Node process per site (and central), the
 * driver, and the results folder. Each job must start at exactly one site, seen both in jobs.csv
 * and in the sites' own logs, and no job may be lost.
 */
export function checkExactlyOnce(out: string) {
  const jobs = readJobs(out);
  const starts = startsInLogs(join(out, 'logs'));
  expect(jobs.length).toBeGreaterThan(0);
  expect(new Set(jobs.map((j) => j.id)).size).toBe(jobs.length);
  for (const j of jobs) {
    expect(['COMPLETED_SUCCESSFULLY', 'REJECTED'], `${j.id} ended ${j.state}`).toContain(j.state);
    if (j.state === 'REJECTED') continue;
    expect(starts.get(j.id), `${j.id} in the sites' logs`).toEqual([j.exec]);
  }
  expect(starts.size).toBe(jobs.filter((j) => j.state === 'COMPLETED_SUCCESSFULLY').length);
  return jobs;
}

/**
 * Issue 15: every process's protocol steps gathered into one trace, in emulated time order, adding
 * up with the run's counters, and each job's `run` step at the site jobs.csv says it ran.
 */
export function checkProtocolTrace(out: string, s: LooseSummary): void {
  const trace = readProtocolTrace(join(out, 'protocol-trace.csv'));
  const count = (event: string) => trace.filter((t) => t.event === event).length;
  expect(count('claim.sent')).toBe(s.claims.sent);
  expect(count('origin.grant')).toBe(s.claims.granted);
  expect(count('origin.deny')).toBe(s.claims.denied);
  expect(count('copies.sent')).toBe(s.jobs.submitted);
  const ran = new Map(trace.filter((t) => t.event === 'run').map((t) => [t.job_id, t.location]));
  for (const row of readFileSync(join(out, 'jobs.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(',')))
    expect(ran.get(row[0]!)).toBe(row[15]);
  expect(trace.every((t, i) => i === 0 || trace[i - 1]!.time_s <= t.time_s)).toBe(true);
}

/**
 * A live run of `lines`, an experiment whose faults crash the processes `crashed`, and its replay:
 * it must end with gridemu check passing, every crash applied, the restarts caught up from their
 * journals, and `gridemu simulate --network-from` crashing the processes that were. Returns both summaries.
 */
export async function crashedAndReplayed(lines: readonly string[], crashed: readonly string[]) {
  const dir = tmp();
  const spec = join(dir, 'spec.yaml');
  writeFileSync(spec, lines.join('\n') + '\n');
  const out = join(dir, 'out');
  const { code, err } = await gridemuLive(['run', spec, '--out', out, '--timeout', '150']).done;
  expect(code, err).toBe(0);
  expect(readCheck(out).ok, JSON.stringify(readCheck(out))).toBe(true);
  const s = readSummary(out);
  expect(s.faults.crashes_applied).toBe(crashed.length);
  // Each restart that caught up before the run ended (on a busy machine one with nothing left to
  // do may not have) is in summary.json, and the replay crashes those processes when they were down.
  const rejoined = (s.live.rejoins as { process: string }[]).map((j) => j.process).sort();
  expect(rejoined.length).toBeGreaterThan(0);
  for (const p of rejoined) expect(crashed).toContain(p);
  expect(s.counters['journal.replayed_entries']).toBeGreaterThan(0);
  const replay = join(dir, 'replay');
  const replayed = await gridemuLive(['simulate', spec, '--network-from', out, '--out', replay, '--quiet']).done;
  expect(replayed.code, replayed.err).toBe(0);
  const r = readSummary(replay);
  expect(r.spec.faults.crash.map((c: { process: string }) => c.process).sort()).toEqual(rejoined);
  return { s, r };
}

/**
 * Paper 003 live: 12 Tornado DAGs on four sites of 8 CRs. The CRs are slower than §4's, so some jobs
 * pass 200% of their estimated length and are stopped (5 of 12 simulated).
 */
export const LIVE_DAG = [
  'name: live-dag',
  'seed: 1',
  'sites: [{ id: s1, cpus: 8 }, { id: s2, cpus: 8 }, { id: s3, cpus: 8 }, { id: s4, cpus: 8 }]',
  'workload: [{ name: tor, site: s1, tornado: { jobs: 12, parallel: 5, variation: high, median_s: 600 } }]',
  'meta: { scheme: dag-adaptive, mips: [100, 2000] }',
  'network: { latency_ms: 5 }',
  `live: { speedup: 2000, warm_up_jobs: ${TEST_WARM_UP_JOBS} }`,
];

/**
 * Waits until s1 of the live run writing into `runDir` has started its clock, the moment tests
 * stop a run mid-way. A generous bound for start-up on a busy machine; a run that works is there
 * in a few seconds.
 */
export async function clockStarted(runDir: string): Promise<void> {
  const log = join(runDir, 'logs', 's1.log');
  const logged = () => (existsSync(log) ? readFileSync(log, 'utf8') : '');
  for (let i = 0; i < 1200 && !logged().includes('clock started'); i++) await new Promise((r) => setTimeout(r, 50));
  expect(logged(), 's1 never started its clock').toContain('clock started');
}
