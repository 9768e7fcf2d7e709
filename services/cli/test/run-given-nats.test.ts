import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { freePort, natsServerBinary, startLocalNatsServer, type LocalNatsServer } from '@gridemu/nats-server';
import { gridemuLive, readJobs, readSummary, smallSpec, tmp } from './live-helpers.js';

// A server of the user's own (`gridemu run --nats`): one that only its users may use, where the run
// must get its processes in with the credentials the user gives and show them nowhere; one without
// JetStream, which a run keeping its journals there must refuse before it starts anything.
const PASSWORD = 'p@ss:w0rd-7Qx';
let server: LocalNatsServer;
beforeAll(async () => {
  server = await startLocalNatsServer({
    users: [{ user: 'alice', password: PASSWORD, publish: ['>'], subscribe: ['>'] }],
  });
});
afterAll(async () => {
  await server?.stop();
});

const withUser = (password: string) => server.url.replace('nats://', `nats://alice:${encodeURIComponent(password)}@`);

/** Every file the run wrote, as text (the logs, the results): none may hold the password. */
function filesOf(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n');
}

describe('gridemu run --nats on a server that asks for credentials', () => {
  it("connects every process with the URL's user and password, through the delay proxies too, and prints neither", async () => {
    const dir = tmp();
    const spec = smallSpec(dir, { sites: 3, jobs: 20, latency_ms: 1, speedup: 20000 });
    const out = join(dir, 'out');
    const {
      code,
      err,
      out: stdout,
    } = await gridemuLive(['run', spec, '--out', out, '--nats', withUser(PASSWORD)]).done;
    expect(code, err).toBe(0);
    expect(err).toContain(`using NATS at ${server.url}, as user alice (from the URL)`);
    expect(err).toContain('through a delay proxy per process');
    const s = readSummary(out);
    expect(s.jobs.completed).toBe(s.jobs.submitted);
    expect(readJobs(out)).toHaveLength(60);
    for (const text of [err, stdout, filesOf(out)]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(encodeURIComponent(PASSWORD));
    }
  });

  it('refuses a wrong password as bad input (exit 2), naming the server and user but not the password', async () => {
    const dir = tmp();
    const spec = smallSpec(dir, { sites: 2, jobs: 5 });
    const { code, err } = await gridemuLive(['run', spec, '--out', join(dir, 'out'), '--nats', withUser('wrong-one')])
      .done;
    expect(code, err).toBe(2);
    expect(err).toContain(
      `--nats ${server.url}, as user alice (from the URL): cannot connect to it (Authorization Violation)`,
    );
    expect(err).not.toContain('wrong-one');
    // NATS_USER and NATS_PASSWORD, which every process of the run inherits, come before the URL's.
    const fromEnv = await gridemuLive(['run', spec, '--out', join(dir, 'out2'), '--nats', withUser(PASSWORD)], false, {
      ...process.env,
      NATS_USER: 'alice',
      NATS_PASSWORD: 'wrong-two',
    }).done;
    expect(fromEnv.code, fromEnv.err).toBe(2);
    expect(fromEnv.err).toContain(`--nats ${server.url}, as user alice (from NATS_USER): cannot connect to it`);
  });
});

describe('gridemu run --nats --journal-store jetstream on a server without JetStream', () => {
  it('refuses at once as bad input (exit 2), saying what to do, and starts no process', async () => {
    const port = await freePort();
    const plain = spawn(natsServerBinary()!, ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
    try {
      const url = `nats://127.0.0.1:${port}`;
      const dir = tmp();
      const spec = smallSpec(dir, { sites: 2, jobs: 5 });
      const out = join(dir, 'out');
      let r = await gridemuLive(['run', spec, '--out', out, '--nats', url]).done;
      for (let i = 0; i < 50 && r.code === 2 && r.err.includes('cannot connect'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100)); // the server was still starting
        r = await gridemuLive(['run', spec, '--out', out, '--nats', url]).done;
      }
      // Without journals the store is never used: the run goes ahead.
      expect(r.code, r.err).toBe(0);
      const journaled = await gridemuLive([
        'run',
        spec,
        '--out',
        join(dir, 'out2'),
        '--nats',
        url,
        '--journal-store',
        'jetstream',
        '--set',
        'live.journal=true',
      ]).done;
      expect(journaled.code, journaled.err).toBe(2);
      expect(journaled.err).toContain(
        `--journal-store jetstream: the server at ${url} runs without JetStream, where this run's processes would keep their journals (start it with -js, or give --journal-store file)`,
      );
      expect(journaled.err).not.toContain('logs in');
    } finally {
      plain.kill('SIGTERM');
    }
  });
});
