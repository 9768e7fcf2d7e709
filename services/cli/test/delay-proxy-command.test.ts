import { connect } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRunCertificates, startLocalNatsServer, type LocalNatsServer } from '@gridemu/nats-server';
import { freePort, startNatsServer, type NatsServerHandle } from '@gridemu/testkit';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gridemuLive, smallSpec, tmp } from './live-helpers.js';

let nats: NatsServerHandle;
let tlsServer: LocalNatsServer | undefined;
beforeAll(async () => {
  nats = await startNatsServer();
});
afterAll(async () => {
  await nats?.stop();
  await tlsServer?.stop();
});

/** Starts `gridemu delay-proxy` with `args` and waits for it to say it is ready. */
async function startProxy(args: string[]) {
  const proxy = gridemuLive(['delay-proxy', ...args]);
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    proxy.child.stdout!.on('data', (d: Buffer) => (seen += d.toString()).includes('delay proxy ready') && resolve());
    void proxy.done.then((f) => reject(new Error(`delay-proxy exited ${f.code}: ${f.err}`)));
  });
  return proxy;
}

/** Wall milliseconds from a publish on `from` to its delivery on `to`, for `subject`. */
async function oneWay(
  from: Awaited<ReturnType<typeof connect>>,
  to: Awaited<ReturnType<typeof connect>>,
  subject: string,
): Promise<number> {
  const got = new Promise<number>((resolve) =>
    to.subscribe(subject, { max: 1, callback: (_e, m) => resolve(performance.now() - Number(m.string())) }),
  );
  await to.flush();
  from.publish(subject, String(performance.now()));
  return got;
}

/**
 * Through a proxy for s1 with 40 ms links: every publish to another site's actor waits the link's
 * latency, and publishes to the driver or of another run pass at once (the fastest of five, so a
 * busy machine does not fail it).
 */
async function expectDelays(
  viaProxy: Awaited<ReturnType<typeof connect>>,
  direct: Awaited<ReturnType<typeof connect>>,
) {
  const fastest = async (subject: string) => {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) times.push(await oneWay(viaProxy, direct, subject));
    return times;
  };
  // Subjects name the receiver, then the sender: s1 to s2's metascheduler waits 40 ms.
  for (const t of await fastest('gridemu.sidecar.s2.meta.s1')) expect(t).toBeGreaterThanOrEqual(39);
  expect(Math.min(...(await fastest('gridemu.sidecar.driver.s1')))).toBeLessThan(20);
  expect(Math.min(...(await fastest('gridemu.other.s2.meta.s1')))).toBeLessThan(20);
}

/** `gridemu delay-proxy` is the sidecar of deploy/compose/multi-host: the same proxy `gridemu run` makes, as a process. */
describe('gridemu delay-proxy', () => {
  it("holds a site's publishes to another site for the spec's link latency, passes the rest at once, and stops on SIGTERM", async () => {
    const spec = smallSpec(tmp(), { sites: 2, latency_ms: 40, jitter_ms: 0 });
    const port = await freePort();
    const proxy = await startProxy([
      spec,
      '--from',
      's1',
      '--listen',
      `127.0.0.1:${port}`,
      '--nats',
      nats.url,
      '--run',
      'sidecar',
    ]);
    try {
      const viaProxy = await connect({ servers: `nats://127.0.0.1:${port}` });
      const direct = await connect({ servers: nats.url });
      try {
        await expectDelays(viaProxy, direct);
      } finally {
        await Promise.all([viaProxy.close(), direct.close()]);
      }
    } finally {
      proxy.child.kill('SIGTERM');
    }
    const { code, out, err } = await proxy.done;
    expect(code, err).toBe(0);
    expect(out).toContain('delay proxy stopped');
  });

  it("in front of a server that takes TLS only: ends the site's TLS, delays its publishes as without TLS, and opens its own TLS to the server", async () => {
    const certs = makeRunCertificates(join(tmp(), 'tls'));
    tlsServer = await startLocalNatsServer({ tls: certs });
    const spec = smallSpec(tmp(), { sites: 2, latency_ms: 40, jitter_ms: 0 });
    const port = await freePort();
    const proxy = await startProxy([
      spec,
      '--from',
      's1',
      '--listen',
      `127.0.0.1:${port}`,
      '--nats',
      tlsServer.url,
      '--run',
      'sidecar',
      '--tls-cert',
      certs.certFile,
      '--tls-key',
      certs.keyFile,
      '--tls-ca',
      certs.caFile,
    ]);
    try {
      const tls = { caFile: certs.caFile };
      const viaProxy = await connect({ servers: `nats://127.0.0.1:${port}`, tls });
      const direct = await connect({ servers: tlsServer.url, tls });
      try {
        expect(viaProxy.info?.tls_required).toBe(true);
        await expectDelays(viaProxy, direct);
      } finally {
        await Promise.all([viaProxy.close(), direct.close()]);
      }
      // A client that does not trust the CA gets no connection through the proxy.
      await expect(
        connect({ servers: `nats://127.0.0.1:${port}`, reconnect: false, timeout: 2000 }).then((nc) => nc.close()),
      ).rejects.toThrow();
    } finally {
      proxy.child.kill('SIGTERM');
    }
    expect((await proxy.done).code).toBe(0);
    const half = await gridemuLive(['delay-proxy', spec, '--from', 's1', '--run', 'r1', '--tls-cert', certs.certFile])
      .done;
    expect(half.code).toBe(2);
    expect(half.err).toMatch(/--tls-cert, --tls-key and --tls-ca together/);
  });

  it('refuses a missing --from or a bad run id, naming it', async () => {
    const spec = smallSpec(tmp(), { sites: 2 });
    const noFrom = await gridemuLive(['delay-proxy', spec, '--run', 'r1']).done;
    expect(noFrom.code).toBe(2);
    expect(noFrom.err).toMatch(/needs --from LOCATION/);
    const badRun = await gridemuLive(['delay-proxy', spec, '--from', 's1', '--run', 'a.b']).done;
    expect(badRun.code).toBe(2);
    expect(badRun.err).toMatch(/--run: run id "a\.b"/);
  });

  it('refuses a location the spec does not have and a port past 65535, and names a port already taken in one line', async () => {
    const spec = smallSpec(tmp(), { sites: 2 });
    const args = [spec, '--run', 'r1', '--nats', nats.url];
    const stranger = await gridemuLive(['delay-proxy', ...args, '--from', 's9']).done;
    expect(stranger.code).toBe(2);
    expect(stranger.err).toContain(`--from s9: not a location of ${spec} (s1, s2)`);
    const past = await gridemuLive(['delay-proxy', ...args, '--from', 's1', '--listen', '127.0.0.1:99999']).done;
    expect(past.code).toBe(2);
    expect(past.err).toContain('a port up to 65535');
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const taken = `127.0.0.1:${(holder.address() as AddressInfo).port}`;
    try {
      const busy = await gridemuLive(['delay-proxy', ...args, '--from', 's1', '--listen', taken]).done;
      expect(busy.code).toBe(1);
      expect(busy.err.trim()).toBe(`gridemu: --listen ${taken}: listen EADDRINUSE: address already in use ${taken}`);
    } finally {
      holder.close();
    }
  });
});
