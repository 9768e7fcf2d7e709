import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '@gridemu/testkit';
import { actorSubject, NatsTransport, topicSubject } from '../src/index.js';

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
  const deadline = Date.now() + 5000;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
};

describe('NATS transport', () => {
  it("maps actors and topics to run-scoped subjects", () => {
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
    a.subscribe({ actor: 's1/meta' }, (bytes, subject, sender) => got.push(`meta ${text(bytes)} ${subject} from ${sender}`));
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
});
