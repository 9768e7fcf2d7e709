import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '@gridemu/testkit';
import { parseExperiment } from '@gridemu/schemes';
import { warmUp, warmUpJobs, warmUpRun } from '../src/index.js';

const GRID = `name: w
sites: [{ id: s1, cpus: 64 }, { id: s2, cpus: 8 }, { id: s3, cpus: 32 }]
workload: [{ site: s1, synthetic: { jobs: 1 } }]
meta: { scheme: k-distributed, k: 2 }
`;
const spec = parseExperiment(GRID, 'w.yaml').spec;

describe('the warm-up grid (warmUpJobs)', () => {
  it('gives a site process its own jobs and as many again spread over the other sites, each fitting its site', () => {
    const jobs = warmUpJobs(spec, 's2', 10);
    const count = (site: string) => jobs.filter((j) => j.origin === site).length;
    expect([count('s1'), count('s2'), count('s3')]).toEqual([5, 10, 5]);
    expect(new Set(jobs.map((j) => j.id)).size).toBe(20);
    for (const j of jobs) expect(j.procs).toBeLessThanOrEqual(spec.sites.find((s) => s.id === j.origin)!.cpus);
    expect(jobs.map((j) => j.submit_s)).toEqual([...jobs.map((j) => j.submit_s)].sort((a, b) => a - b));
  });

  it("does not grow with the number of sites, and spreads the driver's over all of them", () => {
    const many = parseExperiment(
      `name: m\nsites: [${Array.from({ length: 40 }, (_, i) => `{ id: x${i}, cpus: 4 }`).join(', ')}]\nworkload: [{ site: x0, synthetic: { jobs: 1 } }]\n`,
      'm.yaml',
    ).spec;
    expect(warmUpJobs(many, 'x7', 100)).toHaveLength(200);
    const driver = warmUpJobs(spec, undefined, 9);
    expect(driver).toHaveLength(9);
    expect(new Set(driver.map((j) => j.origin))).toEqual(new Set(['s1', 's2', 's3']));
  });
});

describe('warmUp against a real nats-server', () => {
  let nats: NatsServerHandle;
  const opened: NatsConnection[] = [];
  beforeAll(async () => {
    nats = await startNatsServer({ prefer: 'binary' });
  });
  afterAll(async () => {
    for (const nc of opened) await nc.close();
    await nats?.stop();
  });

  it("runs the grid to the end across the server, in its own namespace: the run's subjects hear nothing", async () => {
    const nc = await connect({ servers: nats.url });
    const tap = await connect({ servers: nats.url });
    opened.push(nc, tap);
    let onRun = 0;
    let onScratch = 0;
    tap.subscribe('gridemu.r1.>', { callback: () => void onRun++ });
    tap.subscribe(`gridemu.${warmUpRun('r1', 's1')}.>`, { callback: () => void onScratch++ });
    await tap.flush();
    const report = await warmUp(nc, 'r1', 's1', spec, { perSite: 30, budget_ms: 20_000 });
    await tap.flush();
    expect(report).toMatchObject({ jobs: 60, finished: 60 });
    expect(report.error).toBeUndefined();
    expect(onRun).toBe(0);
    // s1's actors in one runtime, the rest in another: s1's traffic crossed the server.
    expect(onScratch).toBeGreaterThan(60);
  });

  it('delivers as a journaled run does: durable messages acknowledged, a file journal in a scratch folder it removes', async () => {
    const nc = await connect({ servers: nats.url });
    opened.push(nc);
    const plain = await warmUp(nc, 'r4', 's1', spec, { perSite: 30, budget_ms: 20_000 });
    expect(plain).toMatchObject({ finished: 60, journal_appends: 0, acks_sent: 0 });
    const journaled = parseExperiment(`${GRID}live: { journal: true }\n`, 'j.yaml').spec;
    const scratch = mkdtempSync(join(tmpdir(), 'warm-up-test-'));
    try {
      for (const journal of ['file', 'network'] as const) {
        const report = await warmUp(nc, `r5-${journal}`, 's1', journaled, {
          perSite: 30,
          budget_ms: 20_000,
          journal,
          scratch_dir: scratch,
        });
        expect(report).toMatchObject({ jobs: 60, finished: 60 });
        expect(report.error).toBeUndefined();
        expect(report.journal_appends).toBeGreaterThan(0);
        expect(report.acks_sent).toBeGreaterThan(0);
        expect(readdirSync(scratch)).toEqual([]);
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('skips a scheme that takes no plain jobs, at once', async () => {
    const nc = await connect({ servers: nats.url });
    opened.push(nc);
    const dag = parseExperiment(
      'name: d\nsites: [{ id: a, cpus: 8 }]\nworkload: [{ site: a, tornado: { jobs: 4, parallel: 2, variation: low } }]\nmeta: { scheme: dag-adaptive }\n',
      'd.yaml',
    ).spec;
    const report = await warmUp(nc, 'r3', 'services', dag, { perSite: 50, budget_ms: 20_000 });
    expect(report.skipped).toMatch(/dag-adaptive takes no plain jobs/);
    expect(report.wall_ms).toBe(0);
  });
});
