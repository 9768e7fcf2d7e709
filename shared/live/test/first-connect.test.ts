import { createServer, connect as tcpConnect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '@gridemu/testkit';
import { connectFirst } from '../src/first-connect.js';

let nats: NatsServerHandle;
beforeAll(async () => {
  nats = await startNatsServer({ prefer: 'binary' });
});
afterAll(async () => {
  await nats?.stop();
});

/**
 * A listener in front of the server whose first `silent` connections are taken and never answered,
 * as a server that is stopping does; later ones are carried to the server.
 */
async function silentAtFirst(
  silent: number,
): Promise<{ url: string; accepted: () => number; close: () => Promise<void> }> {
  const target = new URL(nats.url.replace(/^nats:/, 'http:'));
  const sockets: Socket[] = [];
  let accepted = 0;
  const server = createServer((client) => {
    sockets.push(client);
    if (++accepted <= silent) return;
    const upstream = tcpConnect(Number(target.port), target.hostname);
    sockets.push(upstream);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no address');
  return {
    url: `nats://127.0.0.1:${address.port}`,
    accepted: () => accepted,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('a process\u2019s first connection to NATS', () => {
  it('gives up a try the server takes and never greets, and connects on the next', async () => {
    const front = await silentAtFirst(1);
    try {
      // Tries start for 10 s. Without a bound on the handshake the silent try lasts the client's
      // default of 20 s, no second try starts, and the connection fails.
      const first = await connectFirst({ servers: front.url, maxReconnectAttempts: -1 }, 10_000, 1000);
      if ('error' in first) throw new Error(first.error);
      expect(first.tries).toBeGreaterThanOrEqual(2);
      expect(front.accepted()).toBeGreaterThanOrEqual(2);
      await first.nc.close();
    } finally {
      await front.close();
    }
  });

  it('stops trying once its time is up, with the last try\u2019s error', async () => {
    const front = await silentAtFirst(Number.POSITIVE_INFINITY);
    try {
      const first = await connectFirst({ servers: front.url, maxReconnectAttempts: -1 }, 500, 200);
      expect('error' in first).toBe(true);
      expect(front.accepted()).toBeGreaterThanOrEqual(2);
    } finally {
      await front.close();
    }
  });
});
