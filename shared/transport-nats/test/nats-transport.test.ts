import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalNatsServer, startNatsServer, type NatsServerHandle } from '@gridemu/testkit';
import fc from 'fast-check';
import { actorSubject, encodeBatch, NatsTransport, splitBatch, topicSubject } from '../src/index.js';

let nats: NatsServerHandle;
let nc: NatsConnection;
beforeAll(async () => {
  nats = await startNatsServer({ prefer: 'binary' });
  nc = await connect({ servers: nats.url });
});
afterAll(async () => {
  await nc?.drain();
  await nats?.stop();
});

const until = async (done: () => boolean) => {
  const deadline = Date.now() + 30_000; // a bound for a broken run; a working one is done in well under a second
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
};

describe('NATS transport', () => {
  it('maps actors and topics to run-scoped subjects', () => {
    // Receiver first, then the sender's location (or a run-wide actor's name).
    expect(actorSubject('r1', 's1/scheduler', 's2/meta')).toBe('gridemu.r1.s1.scheduler.s2');
    expect(actorSubject('r1', 'driver', 's1/executor')).toBe('gridemu.r1.driver.s1');
    expect(actorSubject('r1', 's1/meta', 'driver')).toBe('gridemu.r1.s1.meta.driver');
    expect(topicSubject('r1', 'load', 's3/scheduler')).toBe('gridemu.r1.topic.load.s3');
    expect(() => new NatsTransport(nc, 'bad.run')).toThrow(/run id/);
  });

  it('moves bytes to one actor, to every subscriber of a topic, and never across runs', async () => {
    const a = new NatsTransport(nc, 'ta');
    const b = new NatsTransport(nc, 'tb');
    const got: string[] = [];
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    a.subscribe({ actor: 's1/meta' }, (bytes, subject, sender) =>
      got.push(`meta ${text(bytes)} ${subject} from ${sender}`),
    );
    a.subscribe({ topic: 'load' }, (bytes) => got.push(`load-1 ${text(bytes)}`));
    a.subscribe({ topic: 'load' }, (bytes) => got.push(`load-2 ${text(bytes)}`));
    const other = b.subscribe({ actor: 's1/meta' }, (bytes) => got.push(`other run ${text(bytes)}`));
    await a.flush();
    a.publish({ actor: 's1/meta' }, 'driver', new TextEncoder().encode('x'));
    a.publish({ topic: 'load' }, 's2/scheduler', new TextEncoder().encode('y'));
    await until(() => got.length >= 3);
    await new Promise((r) => setTimeout(r, 50));
    other.unsubscribe();
    expect(got.sort()).toEqual(['load-1 y', 'load-2 y', 'meta x gridemu.ta.s1.meta.driver from driver']);
  });

  it('sends what one turn publishes to a subject as one NATS message, and hands the payloads over one by one, in order', async () => {
    const t = new NatsTransport(nc, 'tc');
    const got: string[] = [];
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    t.subscribe({ actor: 's1/meta' }, (bytes, _subject, sender) => got.push(`meta ${text(bytes)} from ${sender}`));
    t.subscribe({ actor: 's2/meta' }, (bytes) => got.push(`s2 ${text(bytes)}`));
    // What crosses the server: one message per subject for the turn.
    const raw: number[] = [];
    const tap = nc.subscribe('gridemu.tc.>', { callback: (_e, m) => void raw.push(m.data.length) });
    await t.flush();
    const enc = (x: string) => new TextEncoder().encode(x);
    for (const x of ['a', 'b', 'c']) t.publish({ actor: 's1/meta' }, 's3/scheduler', enc(x));
    t.publish({ actor: 's2/meta' }, 's3/scheduler', enc('z'));
    t.publish({ actor: 's1/meta' }, 's3/scheduler', enc('d'));
    // A lone payload that starts like a frame still arrives as it was sent.
    t.publish({ actor: 's2/meta' }, 's4/scheduler', Uint8Array.of(0xc1, 0x41));
    await until(() => got.length >= 6);
    tap.unsubscribe();
    expect(got.filter((g) => g.startsWith('meta'))).toEqual([
      'meta a from s3',
      'meta b from s3',
      'meta c from s3',
      'meta d from s3',
    ]);
    expect(got.filter((g) => g.startsWith('s2'))).toEqual(['s2 z', `s2 ${text(Uint8Array.of(0xc1, 0x41))}`]);
    expect(raw.length).toBe(3);
  });

  it('hands a frame cut short up whole, for the receiver to count as malformed', async () => {
    const t = new NatsTransport(nc, 'td');
    const got: Uint8Array[] = [];
    t.subscribe({ actor: 's1/meta' }, (bytes) => got.push(bytes));
    await t.flush();
    const frame = encodeBatch([Uint8Array.of(1, 2, 3), Uint8Array.of(4)]);
    nc.publish('gridemu.td.s1.meta.s2', frame.subarray(0, frame.length - 1));
    await until(() => got.length >= 1);
    expect(got.map((b) => [...b])).toEqual([[...frame.subarray(0, frame.length - 1)]]);
  });
});

describe('batch frames', () => {
  it('give back exactly the payloads put in, and refuse any cut of them (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 40 }), { minLength: 1, maxLength: 8 }), (payloads) => {
        const frame = encodeBatch(payloads);
        expect(splitBatch(frame)?.map((p) => [...p])).toEqual(payloads.map((p) => [...p]));
        for (let cut = 1; cut < frame.length; cut++) {
          const parts = splitBatch(frame.subarray(0, cut));
          // A cut at a payload's end is a shorter frame of whole payloads; anywhere else it is refused.
          if (parts !== undefined)
            expect(parts.map((p) => [...p])).toEqual(payloads.slice(0, parts.length).map((p) => [...p]));
        }
      }),
    );
  });
});

describe('NATS transport across a restart of the server', () => {
  it('a flush asked while the server restarts is answered once the client is back and subscribed again, not refused', async () => {
    const server = await startLocalNatsServer();
    const conn = await connect({ servers: server.url, reconnectTimeWait: 50, maxReconnectAttempts: -1 });
    try {
      const transport = new NatsTransport(conn, 'tf');
      const got: string[] = [];
      transport.subscribe({ actor: 's1/meta' }, (bytes) => got.push(new TextDecoder().decode(bytes)));
      await transport.flush();
      await server.stop();
      // Asked while the server is down: the client rejects it at its next dial, and again at each.
      let flushed = false;
      let refused: unknown;
      const flushing = transport.flush().then(
        () => (flushed = true),
        (err: unknown) => (refused = err),
      );
      // Several of the client's dials (50 ms apart) while the server is down: it cannot be answered.
      await new Promise((r) => setTimeout(r, 300));
      expect(flushed).toBe(false);
      const again = await startLocalNatsServer({ port: server.port });
      try {
        await flushing;
        expect(refused).toBeUndefined();
        expect(flushed).toBe(true);
        expect(new Map(transport.counts()).get('bus.flush_retries')).toBeGreaterThan(0);
        // Answered means the subscription is on the new server: a message now reaches it.
        transport.publish({ actor: 's1/meta' }, 'driver', new TextEncoder().encode('after'));
        await until(() => got.includes('after'));
        expect(got).toContain('after');
      } finally {
        await conn.close();
        await again.stop();
      }
    } finally {
      if (!conn.isClosed()) await conn.close();
    }
  });

  it('a flush waiting for the server gives up once the connection is closed for good', async () => {
    const server = await startLocalNatsServer();
    const conn = await connect({ servers: server.url, reconnectTimeWait: 50, maxReconnectAttempts: -1 });
    const transport = new NatsTransport(conn, 'tg');
    await server.stop();
    const flushing = transport.flush();
    await new Promise((r) => setTimeout(r, 200));
    await conn.close();
    await expect(flushing).rejects.toThrow();
  });

  it('tells its listeners when the connection is lost and when it is back after the server restarted', async () => {
    const server = await startLocalNatsServer();
    const conn = await connect({ servers: server.url, reconnectTimeWait: 50, maxReconnectAttempts: -1 });
    try {
      const transport = new NatsTransport(conn, 'tr');
      const events: string[] = [];
      transport.onReconnect(() => events.push('reconnect'));
      transport.onDisconnect(() => events.push('disconnect'));
      // A listener stopped before the restart (a warm-up's runtime, over) hears nothing of it.
      const stopped: string[] = [];
      transport.onReconnect(() => stopped.push('reconnect'))();
      transport.onDisconnect(() => stopped.push('disconnect'))();
      await server.stop();
      await until(() => events.length > 0);
      expect(events).toEqual(['disconnect']);
      const again = await startLocalNatsServer({ port: server.port });
      try {
        await until(() => events.length > 1);
        expect(events).toEqual(['disconnect', 'reconnect']);
        expect(stopped).toEqual([]);
      } finally {
        await conn.close();
        await again.stop();
      }
    } finally {
      if (!conn.isClosed()) await conn.close();
    }
  });
});
