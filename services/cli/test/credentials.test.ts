import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, describe, expect, it } from 'vitest';
import { runCredentials, warmUp, warmUpRun } from '@gridemu/live';
import type { Job } from '@gridemu/model';
import { makeRunCertificates, startLocalNatsServer, type LocalNatsServer } from '@gridemu/nats-server';
import { siteAddress } from '@gridemu/protocol';
import { encodeControl, encodeEnvelope, requestInboxPrefix, type ControlMessage } from '@gridemu/protocol/wire';
import { silentLogger } from '@gridemu/runtime';
import { LiveRuntime, wallNow_ms } from '@gridemu/runtime/live';
import { MESSAGE_CHECK, parseExperiment, planGrid, Paper001MessageType } from '@gridemu/schemes';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { actorSubject, JetStreamJournal, journalStream, journalSubject, NatsTransport } from '@gridemu/transport-nats';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gridemuLive, readCheck, readSummary, smallSpec, tmp } from './live-helpers.js';

/** How a process of `run` connects as its user: with its password, and its replies in its own inboxes. */
function asUser(run: string, c: { user: string; password: string }) {
  return { user: c.user, pass: c.password, inboxPrefix: requestInboxPrefix(run, c.user) };
}

const opened: NatsConnection[] = [];
let server: LocalNatsServer | undefined;
let tlsServer: LocalNatsServer | undefined;
afterAll(async () => {
  for (const nc of opened) await nc.close();
  await server?.stop();
  await tlsServer?.stop();
});

describe('per-process NATS credentials (issue 11)', () => {
  it("s3's credentials cannot cancel a copy of s1's job at s2: the server refuses s1's subject, s2 drops a forged sender, the job runs once", async () => {
    const run = 'creds';
    const credentials = runCredentials(run, ['s1', 's2', 's3']);
    server = await startLocalNatsServer({ users: [...credentials.values()] });
    const as = async (name: string) => {
      const c = credentials.get(name)!;
      const nc = await connect({ servers: server!.url, ...asUser(run, c), name: `${run}-${name}` });
      opened.push(nc);
      return nc;
    };
    // s2 is the only site wide enough for either job: B (its own) holds all of s2 for 1000 emulated
    // seconds, so J's copy, sent by J's origin s1, waits in s2's queue while s3 attacks it.
    const { spec } = parseExperiment(
      'name: creds\nsites: [{ id: s1, cpus: 1 }, { id: s2, cpus: 4 }, { id: s3, cpus: 2 }]\nworkload: [{ site: s1, synthetic: { jobs: 1 } }]\nmeta: { scheme: k-distributed, k: 1, load_period_s: 100000 }\n',
      'creds.yaml',
    );
    const jobs: Job[] = [
      { id: 'w!B', workload: 'w', origin: 's2', submit_s: 0, run_s: 1000, estimate_s: 1000, procs: 4 },
      { id: 'w!J', workload: 'w', origin: 's1', submit_s: 100, run_s: 10, estimate_s: 10, procs: 4 },
    ];
    const plan = planGrid(spec, jobs);
    const runtimes = new Map<string, LiveRuntime>();
    for (const p of plan.actors) {
      const where = p.location ?? 'driver';
      let rt = runtimes.get(where);
      if (!rt)
        runtimes.set(
          where,
          (rt = new LiveRuntime({
            transport: new NatsTransport(await as(where), run),
            run,
            seed: 1,
            log: silentLogger,
            check: MESSAGE_CHECK,
          })),
        );
      rt.spawn(p);
    }
    for (const rt of runtimes.values()) await rt.ready();
    const epoch = wallNow_ms() + 50;
    for (const rt of runtimes.values()) rt.start(0, 100, epoch); // 100 emulated s a wall second

    const attacker = await as('s3');
    const refused: string[] = [];
    void (async () => {
      for await (const s of attacker.status()) if (s.type === 'error') refused.push(String(s.error));
    })();
    const cancel = encodeEnvelope({
      run,
      from: siteAddress('s1', 'meta'),
      to: siteAddress('s2', 'scheduler'),
      msg: { type: Paper001MessageType.CopyCancel, jobId: 'w!J', granted_s: 0 },
    });
    // Attack once B runs at s2 and J's copy (submitted at 100 s) has had time to reach s2's queue;
    // on a busy machine this waits longer, it does not fail.
    const record = (id: string) => plan.driver.records.find((r) => r.job.id === id);
    const driverClock = runtimes.get('driver')!;
    const ready = Date.now() + 50_000;
    while (!(record('w!B')?.start_s !== undefined && driverClock.now() > 150) && Date.now() < ready)
      await new Promise((r) => setTimeout(r, 20));
    expect(record('w!B')?.start_s, 'B had not started at s2 before J was submitted').toBeLessThan(100);
    // 1. On s1's subject, as s1: the server refuses it.
    attacker.publish(actorSubject(run, siteAddress('s2', 'scheduler'), siteAddress('s1', 'meta')), cancel);
    // 2. On s3's own subject, claiming in the envelope to be s1's metascheduler: s2 drops and counts it.
    attacker.publish(actorSubject(run, siteAddress('s2', 'scheduler'), siteAddress('s3', 'meta')), cancel);
    await attacker.flush();

    // A bound for a broken run only: a working one ends when its jobs do (10 s of wall time), however busy the machine.
    const deadline = Date.now() + 50_000;
    while (!plan.driver.done && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    for (const rt of runtimes.values()) await rt.stop();

    expect(refused.join('\n')).toMatch(/Permissions Violation for Publish to "gridemu\.creds\.s2\.scheduler\.s1"/);
    const s2 = runtimes.get('s2')!;
    expect(s2.counters.get('messages.forged_sender')).toBe(1);
    expect(s2.counters.get('copies.cancelled') ?? 0).toBe(0);
    const j = plan.driver.records.find((r) => r.job.id === 'w!J')!;
    // J ran once, at s2, after B: its copy was never cancelled. (How soon after B depends on the
    // claim's round trip in wall time, so on the machine's load: not asserted.)
    expect(j.execSite).toBe('s2');
    expect(j.start_s).toBeGreaterThanOrEqual(1000);
    expect(j.finish_s! - j.start_s!).toBeCloseTo(10, 6);
    expect(plan.driver.done).toBe(true);
  });
});

describe('warm-ups under per-process credentials', () => {
  it("a site warms up in its own namespace, the driver in its own, and a site cannot use another's", async () => {
    const { spec } = parseExperiment(
      'name: w\nsites: [{ id: s1, cpus: 64 }, { id: s2, cpus: 8 }, { id: s3, cpus: 32 }]\nworkload: [{ site: s1, synthetic: { jobs: 1 } }]\nmeta: { scheme: k-distributed, k: 2 }\n',
      'w.yaml',
    );
    const credentials = runCredentials('warm', ['s1', 's2', 's3']);
    const warmServer = await startLocalNatsServer({ users: [...credentials.values()] });
    try {
      const as = async (name: string) => {
        const c = credentials.get(name)!;
        const nc = await connect({ servers: warmServer.url, user: c.user, pass: c.password });
        opened.push(nc);
        return nc;
      };
      // Under its own user a warm-up's jobs finish (how many within the budget is the machine's business).
      const own = await warmUp(await as('s1'), 'warm', 's1', spec, { perSite: 20, budget_ms: 20_000 });
      expect(own.jobs).toBe(40);
      expect(own.finished).toBeGreaterThan(0);
      const driver = await warmUp(await as('driver'), 'warm', undefined, spec, { perSite: 20, budget_ms: 20_000 });
      expect(driver.jobs).toBe(20);
      expect(driver.finished).toBeGreaterThan(0);
      // s3 posing as s1's warm-up: the server refuses its subscriptions there, so s1's jobs never finish.
      const posing = await warmUp(await as('s3'), 'warm', 's1', spec, { perSite: 5, budget_ms: 1000 });
      expect(posing.finished).toBeLessThan(posing.jobs);
      expect(credentials.get('s3')!.subscribe).not.toContain(`gridemu.${warmUpRun('warm', 's1')}.>`);
    } finally {
      await warmServer.stop();
    }
  });
});

describe('journals under per-process credentials (issue 11)', () => {
  it("a process keeps its own journal in JetStream and cannot read, write or delete another's", async () => {
    const run = 'creds-journal';
    const credentials = runCredentials(run, ['s1', 's3']);
    const js = await startLocalNatsServer({ users: [...credentials.values()] });
    const as = async (name: string) => {
      const c = credentials.get(name)!;
      const nc = await connect({ servers: js.url, ...asUser(run, c), name: `${run}-${name}` });
      opened.push(nc);
      return nc;
    };
    try {
      const s1 = await JetStreamJournal.open(await as('s1'), run, 's1', true);
      await s1.append(new Uint8Array([1, 2, 3]), 1);
      await s1.append(new Uint8Array([1, 2, 3]), 1); // a retried append is stored once
      await s1.append(new Uint8Array([4]), 2);
      // What a restart of s1 replays: each batch once.
      const restarted = await JetStreamJournal.open(await as('s1'), run, 's1', false);
      expect(restarted.incarnation).toBe(2);
      expect((await restarted.readAll()).map((b) => [...b])).toEqual([[1, 2, 3], [4]]);
      const s3 = await as('s3');
      // Refused at once, not asked again: with a budget beyond the test's timeout, only that passes.
      await expect(JetStreamJournal.open(s3, run, 's1', false, 600_000)).rejects.toThrow(/cannot keep s1's journal/);
      const mgr = await jetstreamManager(s3, { checkAPI: false, timeout: 2000 });
      await expect(mgr.streams.delete(journalStream(run, 's1'))).rejects.toThrow();
      await expect(
        jetstream(s3, { timeout: 2000 }).publish(journalSubject(run, 's1'), new Uint8Array([9])),
      ).rejects.toThrow();
      expect((await (await JetStreamJournal.open(await as('s1'), run, 's1', false)).readAll()).length).toBe(2);
      // s1's first incarnation, fenced by the restarts, can no longer append.
      await expect(s1.append(new Uint8Array([5]), 3)).rejects.toThrow(/incarnation 3 of this process has fenced/);
    } finally {
      await js.stop();
    }
  });
});

describe('the control plane: who may say what', () => {
  it("every control kind forged with s1's credentials is refused by the server or dropped by its receivers, and the run completes", async () => {
    const dir = tmp();
    // Its submissions span some 15 emulated hours, 5 s of wall at this speed-up: s1's forgeries,
    // sent as its clock starts, reach every receiver while the run goes on.
    const spec = smallSpec(dir, { sites: 3, jobs: 40, speedup: 10000 });
    const out = join(dir, 'out');
    const run = 'forge';
    const live = gridemuLive(['run', spec, '--out', out, '--run', run, '--timeout', '120']);
    const s1Log = join(out, 'logs', 's1.log');
    for (let i = 0; i < 600 && !(existsSync(s1Log) && readFileSync(s1Log, 'utf8').includes('clock started')); i++)
      await new Promise((r) => setTimeout(r, 50));
    // s1's own user and password, as a process on the machine could read them from the run's folder.
    const conf = JSON.parse(readFileSync(join(out, 'nats', 'nats-server.conf'), 'utf8')) as {
      listen: string;
      authorization: { users: { user: string; password: string }[] };
    };
    const s1 = conf.authorization.users.find((u) => u.user === 's1')!;
    const nc = await connect({ servers: `nats://${conf.listen}`, user: 's1', pass: s1.password });
    opened.push(nc);
    const refused: string[] = [];
    void (async () => {
      for await (const st of nc.status()) if (st.type === 'error') refused.push(String(st.error));
    })();
    const report = {
      pid: 1,
      rss_mb: 1,
      peak_rss_mb: 1,
      cpu_s: 1,
      messages: { all: {}, cross_site: {} },
      counters: {},
      latency: {},
      timer_lag: { count: 0, sum_ms: 0, min_ms: 0, max_ms: 0, buckets: {} },
    };
    // Every kind, the members' naming s2 (another member): nothing here is s1's to say.
    const forged: ControlMessage[] = [
      { kind: 'hello', member: 's2' },
      { kind: 'plan', experiment: { name: 'forged' } },
      { kind: 'ready', member: 's2', pid: 1, http: '127.0.0.1:1' },
      { kind: 'serving', member: 'driver', http: '127.0.0.1:1' },
      { kind: 'start', epoch_s: 0, wallEpoch_ms: 0, speedup: 1 },
      { kind: 'heartbeat', member: 's2', rss_mb: 1 },
      { kind: 'failed', member: 's2', error: 'forged by s1' },
      { kind: 'progress', finished: 0, total: 1, now_s: 0, wall_s: 0 },
      { kind: 'end' },
      { kind: 'abort', reason: 'forged by s1' },
      { kind: 'report', member: 's2', report },
      {
        kind: 'rejoined',
        member: 's2',
        rejoin: { incarnation: 9, down_from_s: 0, rejoined_s: 0, catch_up_wall_ms: 0, replayed_entries: 0 },
      },
      { kind: 'welcomed', member: 's1', incarnation: 9 },
      { kind: 'tally' },
      { kind: 'tallied', tally: { counters: {}, unplanned_restarts: {} } },
    ];
    for (const m of forged) {
      const bytes = encodeControl(run, m);
      // On the driver's subject, another member's, or the orchestrator's: the server refuses them.
      for (const sender of ['driver', 's2', 'gridemu-orchestrator'])
        nc.publish(`gridemu-ctl.${run}.${m.kind}.${sender}`, bytes);
      // On the subject of no sender at all (the old form): refused too.
      nc.publish(`gridemu-ctl.${run}.${m.kind}`, bytes);
      // On its own: the server lets it through, and every receiver drops and counts it.
      nc.publish(`gridemu-ctl.${run}.${m.kind}.s1`, bytes);
    }
    // The request inboxes: s1 may neither watch another's (to answer a hello before the driver
    // does) nor reply into one; its own it may hear.
    for (const subject of ['_INBOX.>', `_INBOX.${run}.>`, `_INBOX.${run}.s2.>`, `_INBOX.${run}.driver.>`])
      nc.subscribe(subject);
    nc.subscribe(`_INBOX.${run}.s1.>`);
    nc.publish(`_INBOX.${run}.s2.forged.1`, encodeControl(run, { kind: 'plan', experiment: { name: 'forged' } }));
    await nc.flush();
    const { code, err } = await live.done;
    expect(code, err).toBe(0);
    for (const m of forged)
      for (const subject of [`gridemu-ctl.${run}.${m.kind}.driver`, `gridemu-ctl.${run}.${m.kind}`])
        expect(refused.join('\n')).toContain(`Permissions Violation for Publish to "${subject}"`);
    for (const subject of ['_INBOX.>', `_INBOX.${run}.>`, `_INBOX.${run}.s2.>`, `_INBOX.${run}.driver.>`])
      expect(refused.join('\n')).toContain(`Permissions Violation for Subscription to "${subject}"`);
    expect(refused.join('\n')).not.toContain(`Subscription to "_INBOX.${run}.s1.>"`);
    expect(refused.join('\n')).toContain(`Permissions Violation for Publish to "_INBOX.${run}.s2.forged.1"`);
    const s = readSummary(out);
    expect(s.jobs.completed).toBe(s.jobs.submitted);
    expect(readCheck(out).ok).toBe(true);
    // Dropped where heard: the abort and end by each of the three sites, the members' kinds by the
    // driver, the start by everyone; all of it counted in summary.json.
    expect(s.counters['control.forged_sender']).toBeGreaterThanOrEqual(forged.length);
    expect(s.live.aborted).toBeUndefined();
  });
});

describe('TLS (issue 11)', () => {
  it("a server made with the run's certificates refuses a plain client and takes one that trusts the run's CA", async () => {
    const dir = tmp();
    const certs = makeRunCertificates(join(dir, 'tls'));
    tlsServer = await startLocalNatsServer({ tls: certs });
    await expect(
      connect({ servers: tlsServer.url, reconnect: false, timeout: 2000 }).then((nc) => nc.close()),
    ).rejects.toThrow();
    const nc = await connect({ servers: tlsServer.url, tls: { caFile: certs.caFile } });
    opened.push(nc);
    expect(nc.info?.tls_required).toBe(true);
  });

  it('gridemu run --tls runs every process over TLS with its own user', async () => {
    const dir = tmp();
    const spec = smallSpec(dir, { sites: 3, jobs: 20 });
    const out = join(dir, 'out');
    const { code, err } = await gridemuLive(['run', spec, '--out', out, '--tls', '--timeout', '90']).done;
    expect(code, err).toBe(0);
    expect(err).toContain('TLS only');
    const s = readSummary(out);
    expect(readCheck(out).ok).toBe(true);
    // Every process warmed up under its own user, in its own namespace.
    for (const [name, p] of Object.entries(
      s.live.processes as Record<string, { warm_up?: { jobs: number; finished: number } }>,
    )) {
      expect(p.warm_up?.jobs, name).toBeGreaterThan(0);
      // Its grid worked (under a wrong user none would finish); how many finish within the
      // warm-up's time budget depends on the machine's load, so that is not asserted.
      expect(p.warm_up?.finished, name).toBeGreaterThan(0);
      expect(p.warm_up?.finished, name).toBeLessThanOrEqual(p.warm_up!.jobs);
    }
  });
});
