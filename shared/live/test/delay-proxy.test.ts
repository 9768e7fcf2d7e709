import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '@gridemu/testkit';
import { DelayProxy } from '../src/index.js';

let nats: NatsServerHandle;
beforeAll(async () => {
  nats = await startNatsServer();
});
afterAll(async () => {
  await nats?.stop();
});

/** Publishes `n` messages carrying their send time, and collects their one-way latencies. */
async function oneWay(from: NatsConnection, to: NatsConnection, subject: string, n: number): Promise<number[]> {
  const seen: number[] = [];
  const order: number[] = [];
  const done = new Promise<void>((resolve) => {
    to.subscribe(subject, {
      callback: (_e, m) => {
        const [i, sent] = JSON.parse(m.string()) as [number, number];
        order.push(i);
        seen.push(performance.timeOrigin + performance.now() - sent);
        if (seen.length === n) resolve();
      },
    });
  });
  await to.flush();
  for (let i = 0; i < n; i++) {
    from.publish(subject, JSON.stringify([i, performance.timeOrigin + performance.now()]));
    await new Promise((r) => setTimeout(r, 2));
  }
  await done;
  expect(order).toEqual([...order].sort((x, y) => x - y)); // a link never reorders
  return seen;
}

describe('DelayProxy', () => {
  it("delays each publish by its own link's latency (matrix and jitter), and nothing else", async () => {
    const { hostname, port } = new URL(nats.url.replace('nats:', 'http:'));
    const network = { latency_ms: 5, jitter_ms: 3, matrix: { a: { b: 40 } } };
    const proxies = ['a', 'b'].map((from) => new DelayProxy({ from, run: 'r1', network, target: { host: hostname, port: Number(port) }, seed: 1 }));
    const [ua, ub] = await Promise.all(proxies.map((p) => p.listen()));
    const a = await connect({ servers: ua });
    const b = await connect({ servers: ub });
    const direct = await connect({ servers: nats.url });
    try {
      const ab = await oneWay(a, b, 'gridemu.r1.b.meta', 40);
      const ba = await oneWay(b, a, 'gridemu.r1.a.meta', 40);
      const toDriver = await oneWay(a, direct, 'gridemu.r1.driver', 20);
      const sameSite = await oneWay(a, a, 'gridemu.r1.a.scheduler', 20);
      const otherRun = await oneWay(a, direct, 'gridemu.r2.b.meta', 20);
      const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
      expect(Math.min(...ab)).toBeGreaterThanOrEqual(37); // 40 - 3 ms jitter
      expect(mean(ab)).toBeGreaterThan(39);
      expect(mean(ab)).toBeLessThan(46);
      expect(Math.min(...ba)).toBeGreaterThanOrEqual(2); // 5 - 3
      expect(Math.max(...ba)).toBeLessThan(20);
      for (const fast of [toDriver, sameSite, otherRun]) expect(mean(fast)).toBeLessThan(2);
    } finally {
      await Promise.all([a.close(), b.close(), direct.close()]);
      await Promise.all(proxies.map((p) => p.close()));
    }
  });
});
