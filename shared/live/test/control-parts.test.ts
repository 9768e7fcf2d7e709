import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '@gridemu/testkit';
import type { MemberReport } from '@gridemu/protocol';
import { silentLogger } from '@gridemu/runtime';
import { ControlBus } from '../src/control-bus.js';
import { PartJoiner, partBytes, splitIntoParts } from '../src/control-parts.js';

const bytes = (...values: number[]) => new Uint8Array(values);

describe('a control message in parts', () => {
  it('is cut into parts no larger than the server takes, with room for the headers', () => {
    const parts = splitIntoParts(new Uint8Array(10), 4);
    expect(parts.map((p) => p.length)).toEqual([4, 4, 2]);
    expect(splitIntoParts(new Uint8Array(0), 4)).toHaveLength(1);
    expect(partBytes(1024 * 1024)).toBe(1024 * 1024 - 16 * 1024);
    expect(partBytes(undefined)).toBe(1024 * 1024 - 16 * 1024);
  });

  it('is joined once every part is in, whatever their order, a part said twice counted once', () => {
    const joiner = new PartJoiner();
    expect(joiner.add('m1', '2/3', bytes(3, 4))).toBeUndefined();
    expect(joiner.add('m1', '2/3', bytes(3, 4))).toBeUndefined();
    expect(joiner.add('m1', '1/3', bytes(1, 2))).toBeUndefined();
    expect(joiner.add('m1', '3/3', bytes(5))).toEqual(bytes(1, 2, 3, 4, 5));
    expect(joiner.dropped).toBe(0);
  });

  it('drops a part that makes no sense, and a message whose parts stopped coming once too many are open', () => {
    const joiner = new PartJoiner();
    expect(joiner.add('m', '0/2', bytes(1))).toBeUndefined();
    expect(joiner.add('m', '3/2', bytes(1))).toBeUndefined();
    expect(joiner.add('m', 'one', bytes(1))).toBeUndefined();
    expect(joiner.dropped).toBe(3);
    // A sender cut off after its first part: the message stays open until 16 newer ones are.
    joiner.add('lost', '1/2', bytes(9));
    for (let i = 0; i < 16; i++) joiner.add(`open${i}`, '1/2', bytes(i));
    expect(joiner.dropped).toBe(4);
    expect(joiner.add('lost', '2/2', bytes(9))).toBeUndefined();
    expect(joiner.add('open15', '2/2', bytes(0))).toEqual(bytes(15, 0));
  });
});

describe('a report larger than one NATS message, against a real nats-server', () => {
  let nats: NatsServerHandle;
  const opened: NatsConnection[] = [];
  beforeAll(async () => {
    nats = await startNatsServer({ prefer: 'binary' });
  });
  afterAll(async () => {
    for (const nc of opened) await nc.close();
    await nats?.stop();
  });

  it('reaches the driver whole: a GRUBER engine died publishing one over the 1 MB the server takes', async () => {
    const [memberNc, driverNc] = [await connect({ servers: nats.url }), await connect({ servers: nats.url })];
    opened.push(memberNc, driverNc);
    expect(memberNc.info?.max_payload).toBe(1024 * 1024);
    const member = new ControlBus(memberNc, 'big', silentLogger, 's1');
    const driver = new ControlBus(driverNc, 'big', silentLogger, 'driver');
    const heard: MemberReport[] = [];
    driver.on('report', (m) => heard.push(m.report));
    await driverNc.flush();
    // 60,000 counters of 40-character names: about 3 MB.
    const counters = Object.fromEntries(
      Array.from({ length: 60_000 }, (_, i) => [`gruber.engine.site-${i}.`.padEnd(40, 'x'), i]),
    );
    const report: MemberReport = {
      pid: 1,
      rss_mb: 1,
      peak_rss_mb: 1,
      cpu_s: 1,
      messages: { all: {}, cross_site: {} },
      counters,
      latency: {},
      timer_lag: { count: 0, sum_ms: 0, min_ms: 0, max_ms: 0, buckets: {} },
    };
    member.publish({ kind: 'report', member: 's1', report });
    member.publish({ kind: 'report', member: 's1', report: { ...report, counters: { small: 1 } } });
    await memberNc.flush();
    const deadline = Date.now() + 30_000;
    while (heard.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(heard.map((r) => Object.keys(r.counters).length)).toEqual([60_000, 1]);
    expect(heard[0]!.counters).toEqual(counters);
    expect(driver.malformed).toBe(0);
  });
});
