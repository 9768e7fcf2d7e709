import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { join } from 'node:path';
import { encode } from '@msgpack/msgpack';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, controlSubject } from '@gridemu/protocol/wire';
import { startLocalNatsServer } from '@gridemu/nats-server';
import { startNatsServer, type NatsServerHandle } from '@gridemu/testkit';
import { removeRunJournals, runJournalStreams } from '@gridemu/transport-nats';
import { alive, gridemuLive, readJobs, readSummary, REPO, smallSpec, startsInLogs, tmp } from './live-helpers.js';

let nats: NatsServerHandle;
let nc: NatsConnection;
beforeAll(async () => {
  nats = await startNatsServer();
  nc = await connect({ servers: nats.url, name: 'gridemu-fault-test' });
});
afterAll(async () => {
  await nc?.drain();
  await nats?.stop();
});

/** Resolves at the first progress message of `run`: the clocks are running. */
function running(run: string): Promise<void> {
  return new Promise((resolve) => {
    const sub = nc.subscribe(controlSubject(run, 'progress', 'driver'), { max: 1, callback: () => resolve() });
    void sub;
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = netConnect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

describe('gridemu run under faults', () => {
  it("counts and drops malformed messages on every process's subjects; no process crashes", async () => {
    const dir = tmp();
    const run = 'fuzz-procs';
    const spec = smallSpec(dir, { sites: 3, jobs: 40, scheme: 'k-distributed', k: 2, speedup: 20000 });
    const out = join(dir, 'out');
    const live = gridemuLive(['run', spec, '--out', out, '--nats', nats.url, '--run', run, '--timeout', '90']);
    await running(run);
    const garbage: Uint8Array[] = [
      new Uint8Array([0xc1, 0xff, 0x00]), // not msgpack
      encode({ hello: 'world' }), // not an envelope
      encode({
        v: PROTOCOL_VERSION + 7,
        run,
        from: 'x',
        to: 's1/scheduler',
        msg: { type: 'job.finished', jobId: 'w!1' },
      }), // unknown version
      encode({ v: PROTOCOL_VERSION, run, from: 'x', to: 's1/scheduler', msg: { type: 'job.finished', jobId: 42 } }), // wrong type
      encode({ v: PROTOCOL_VERSION, run, from: 'x', to: 's1/scheduler', msg: { type: 'job.teleport' } }), // unknown message
      new Uint8Array(200 * 1024), // huge
    ];
    // Subjects name the receiver, then the sender (here `x`, as the envelopes claim).
    const targets = ['s1.scheduler', 's2.meta', 's3.executor', 'driver'].map((a) => `gridemu.${run}.${a}.x`);
    let actorGarbage = 0;
    for (const t of targets) {
      for (const g of garbage) {
        nc.publish(t, g);
        actorGarbage++;
      }
      for (let i = 0; i < 25; i++) {
        nc.publish(t, crypto.getRandomValues(new Uint8Array(1 + i * 3)));
        actorGarbage++;
      }
    }
    // The heartbeat subject is the driver's alone; start and progress reach every member.
    for (const g of garbage) nc.publish(controlSubject(run, 'heartbeat', 's1'), g);
    for (const g of garbage) nc.publish(controlSubject(run, 'start', 'driver'), g);
    await nc.flush();
    const { code, err } = await live.done;
    expect(code, err).toBe(0);
    const s = readSummary(out);
    expect(s.counters['messages.malformed']).toBe(actorGarbage);
    expect(s.counters['control.malformed']).toBe(garbage.length * 4); // the driver once, each of 3 members once
    expect(s.counters['actor.errors'] ?? 0).toBe(0);
    expect(s.jobs.unfinished).toBe(0);
    expect(readJobs(out).every((j) => j.state === 'COMPLETED_SUCCESSFULLY' || j.state === 'REJECTED')).toBe(true);
  });

  it('a site process that dies stops the run with a report naming it; nothing is left running', async () => {
    const dir = tmp();
    const run = 'kill-site';
    const spec = smallSpec(dir, { sites: 3, jobs: 200, scheme: 'k-distributed', k: 2, speedup: 500 });
    const out = join(dir, 'out');
    const live = gridemuLive(['run', spec, '--out', out, '--nats', nats.url, '--run', run]);
    await running(run);
    const pidOf = (name: string) =>
      Number(/"pid":(\d+)/.exec(readFileSync(join(out, 'logs', `${name}.log`), 'utf8'))![1]);
    const victim = pidOf('s2');
    const others = [pidOf('s1'), pidOf('s3')];
    process.kill(victim, 'SIGKILL');
    // It stops (how soon is the machine's business; a run that never stopped would time the test out).
    const { code, err } = await live.done;
    expect(code).toBe(1);
    expect(err).toContain('site process s2');
    expect(err).toContain('SIGKILL');
    const s = readSummary(out);
    expect(s.live.aborted).toContain('s2');
    // Nothing lost: every job still has its row, finished or not.
    expect(readJobs(out)).toHaveLength(600);
    for (const pid of others) expect(alive(pid), `process ${pid} outlived the run`).toBe(false);
  });

  it('on a server it did not start, a run that ended deletes its JetStream journals; one stopped keeps and names them', async () => {
    const journaled = (run: string, speedup: number, extra: string[]) => {
      const dir = tmp();
      const spec = smallSpec(dir, { sites: 3, jobs: 40, scheme: 'k-distributed', k: 2, speedup });
      const args = ['run', spec, '--out', join(dir, 'out'), '--nats', nats.url, '--run', run];
      return gridemuLive([...args, '--journal-store', 'jetstream', '--set', 'live.journal=true', ...extra]);
    };
    // Every process journals (live.journal), each in a stream of its own on the server.
    const ended = await journaled('journals-ended', 20000, ['--timeout', '90']).done;
    expect(ended.code, ended.err).toBe(0);
    expect(ended.out + ended.err).toMatch(
      new RegExp(`removed the run's [1-9]\\d* journal stream\\(s\\) from ${nats.url.replace(/[.]/g, '\\.')}`),
    );
    expect(await runJournalStreams(nc, 'journals-ended')).toEqual([]);
    // Stopped (Ctrl-C) long before its end: its journals stay, named, for a look.
    const stopped = journaled('journals-stopped', 500, ['--timeout', '600']);
    await running('journals-stopped');
    stopped.child.kill('SIGINT');
    const { code, out, err } = await stopped.done;
    expect(code).toBe(1);
    const kept = await runJournalStreams(nc, 'journals-stopped');
    expect(kept.length).toBeGreaterThan(0);
    expect(out + err).toContain(
      `the run's journals stay on ${nats.url} for a look at what they stored: stream(s) ${kept.join(', ')}`,
    );
    await removeRunJournals(nc, 'journals-stopped');
  });

  it('a site process started while its server is down keeps trying, and joins once the server is there', async () => {
    // A free port: a server started and stopped at once leaves it unused for a moment.
    const probe = await startLocalNatsServer();
    const port = probe.port;
    await probe.stop();
    const child = spawn(
      process.execPath,
      [join(REPO, 'services/site/dist/main.js'), '--site', 's1', '--run', 'late-server', '--http-port', '0'],
      { env: { ...process.env, NATS_URL: `nats://127.0.0.1:${port}` } },
    );
    let log = '';
    child.stdout.on('data', (d: Buffer) => (log += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    let server: Awaited<ReturnType<typeof startLocalNatsServer>> | undefined;
    try {
      await new Promise((r) => setTimeout(r, 1500)); // the site tries, and finds nothing there
      expect(child.exitCode, log).toBeNull();
      server = await startLocalNatsServer({ port });
      // Connected, it asks for the plan (no driver here): its hello reaches the server.
      const watcher = await connect({ servers: server.url });
      const hello = await new Promise<string>((resolve) =>
        watcher.subscribe('gridemu-ctl.late-server.hello.s1', { max: 1, callback: (_e, m) => resolve(m.subject) }),
      );
      expect(hello).toBe('gridemu-ctl.late-server.hello.s1');
      await watcher.close();
      child.kill('SIGTERM');
      await exited;
      expect(log).not.toContain('cannot connect to NATS');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await server?.stop();
    }
  });

  it('a site process serves /healthz and /metrics, and exits cleanly on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [join(REPO, 'services/site/dist/main.js'), '--site', 's1', '--run', 'health-check', '--http-port', '0'],
      {
        env: { ...process.env, NATS_URL: nats.url },
      },
    );
    let log = '';
    child.stdout.on('data', (d: Buffer) => (log += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    try {
      await healthAndTerm();
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); // a failed check leaves nothing behind
    }

    async function healthAndTerm() {
      const deadline = Date.now() + 60_000;
      while (!/"http":"([^"]+)"/.test(log) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const http = /"http":"([^"]+)"/.exec(log)![1];
      const health = await fetch(`http://${http}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok', phase: 'joining', site: 's1', run: 'health-check' });
      const metrics = await (await fetch(`http://${http}/metrics`)).text();
      expect(metrics).toContain('process_cpu_user_seconds_total');
      expect(metrics).toContain('nodejs_eventloop_lag_seconds');
      expect(metrics).toContain('gridemu_emulated_time_seconds');
      // It drains and exits 0 (how fast is the machine's business: a hang would time the test out).
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(log).toContain('draining and exiting');
    }
  });
});

describe('gridemu run without a server', () => {
  it('starts its own nats-server and stops it at the end', async () => {
    const dir = tmp();
    const spec = smallSpec(dir, { sites: 2, jobs: 10, scheme: 'distributed', speedup: 50000 });
    const out = join(dir, 'out');
    const { code, err } = await gridemuLive(['run', spec, '--out', out]).done;
    expect(code, err).toBe(0);
    const port = /nats-server started on nats:\/\/127\.0\.0\.1:(\d+)/.exec(err)?.[1];
    expect(port).toBeDefined();
    expect(existsSync(join(out, 'jobs.csv'))).toBe(true);
    expect(startsInLogs(join(out, 'logs')).size).toBe(
      readJobs(out).filter((j) => j.state === 'COMPLETED_SUCCESSFULLY').length,
    );
    expect(await accepts(Number(port)), 'the nats-server is still listening').toBe(false);
  });

  it('killed outright (SIGKILL), it takes its nats-server with it, and the driver stops the run saying why', async () => {
    const dir = tmp();
    const spec = smallSpec(dir, { sites: 2, jobs: 400, scheme: 'k-distributed', k: 2, speedup: 200 });
    const out = join(dir, 'out');
    const live = gridemuLive(['run', spec, '--out', out]);
    const driverLog = join(out, 'logs', 'driver.log');
    await until(() => existsSync(driverLog) && readFileSync(driverLog, 'utf8').includes('"run started"'));
    // Its server's configuration says where it listens.
    const config = JSON.parse(readFileSync(join(out, 'nats', 'nats-server.conf'), 'utf8')) as { listen: string };
    const port = Number(config.listen.split(':')[1]);
    expect(port).toBeGreaterThan(0);
    live.child.kill('SIGKILL');
    await live.done;
    // The kernel stops the server (setpriv --pdeathsig; util-linux, on every Debian); the driver
    // reads the end of its standard input, stops the run and writes what it has.
    await until(async () => !(await accepts(port)));
    await until(() => existsSync(join(out, 'summary.json')));
    expect(readSummary(out).live.aborted).toContain('gridemu run, which started the driver, is gone');
    // The sites go too, sent SIGTERM by the kernel as the server is (the driver's abort cannot reach
    // them without it), not after their 15 s of the driver's silence.
    const processes = readSummary(out).live.processes as Record<string, { pid: number }>;
    for (const site of ['s1', 's2']) {
      await until(() => !runs(processes[site]!.pid));
      const log = readFileSync(join(out, 'logs', `${site}.log`), 'utf8');
      expect(log, site).toMatch(/"signal":"SIGTERM","msg":"draining and exiting"/);
      expect(log, site).not.toContain('the driver has been silent');
    }
    await until(() => processesOf(out).length === 0);
  });
});

/** Waits until `done` holds, asking every 100 ms (a test that never sees it times out). */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((r) => setTimeout(r, 100));
}

/** Whether the process `pid` runs (is there and not a zombie its new parent has yet to reap). */
function runs(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

/** The pids of the processes whose command line names `dir`: the driver and the servers (a site names no folder). */
function processesOf(dir: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(dir) && runs(Number(p));
      } catch {
        return false;
      }
    })
    .map(Number);
}
