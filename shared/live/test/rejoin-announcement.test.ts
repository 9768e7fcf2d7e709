import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '@gridemu/testkit';
import type { Rejoin } from '@gridemu/protocol';
import { silentLogger } from '@gridemu/runtime';
import { ControlBus } from '../src/control-bus.js';
import { answerRejoins, RejoinAnnouncement, RejoinsHeard } from '../src/rejoin-announcement.js';

const rejoin: Rejoin = {
  incarnation: 3,
  down_from_s: 100,
  rejoined_s: 900,
  catch_up_wall_ms: 400,
  replayed_entries: 7,
};

async function until(what: string, holds: () => boolean, limit_ms = 20_000): Promise<void> {
  const deadline = Date.now() + limit_ms;
  while (!holds()) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('RejoinsHeard', () => {
  it('is new once per process and incarnation, and never for an older incarnation', () => {
    const heard = new RejoinsHeard();
    expect(heard.isNew('s2', 1)).toBe(true);
    expect(heard.isNew('s2', 1)).toBe(false);
    expect(heard.isNew('s1', 1)).toBe(true);
    expect(heard.isNew('s2', 2)).toBe(true);
    expect(heard.isNew('s2', 1)).toBe(false);
  });
});

describe('a rejoin said until the driver answers, against a real nats-server', () => {
  let nats: NatsServerHandle;
  const opened: NatsConnection[] = [];
  const buses: ControlBus[] = [];
  const announcements: RejoinAnnouncement[] = [];
  beforeAll(async () => {
    nats = await startNatsServer({ prefer: 'binary' });
  });
  afterAll(async () => {
    for (const a of announcements) a.stop();
    for (const b of buses) b.close();
    for (const nc of opened) await nc.close();
    await nats?.stop();
  });
  async function bus(run: string, self: string): Promise<ControlBus> {
    const nc = await connect({ servers: nats.url });
    opened.push(nc);
    const b = new ControlBus(nc, run, silentLogger, self);
    buses.push(b);
    return b;
  }

  it('reaches a driver that was not listening when it was first said, and stops once welcomed', async () => {
    const member = await bus('lost-first', 's2');
    const driver = await bus('lost-first', 'driver');
    const announcement = new RejoinAnnouncement(member, 's2', rejoin, 50);
    announcements.push(announcement);
    member.on('welcomed', (m) => announcement.welcomed(m.member, m.incarnation));
    await member.nc.flush();
    announcement.start();
    await member.nc.flush();
    // The first copy reached the server with nobody subscribed to it: it is gone, as a copy sent
    // while the client reconnects is. Only a later copy can tell the driver.
    const heard: string[] = [];
    answerRejoins(driver, ['s1', 's2'], (who, r) => heard.push(`${who}#${r.incarnation}`));
    await until('the driver welcomes the rejoin', () => announcement.isWelcomed);
    expect(announcement.sent).toBeGreaterThanOrEqual(2);
    expect(heard).toEqual(['s2#3']);
    // Welcomed: no more copies, however long we wait.
    const sent = announcement.sent;
    await new Promise((r) => setTimeout(r, 300));
    expect(announcement.sent).toBe(sent);
    expect(heard).toEqual(['s2#3']);
  });

  it('answers every copy, counts one, and ignores a welcome for another incarnation', async () => {
    const member = await bus('lost-answer', 's2');
    const driver = await bus('lost-answer', 'driver');
    const heard: string[] = [];
    answerRejoins(driver, ['s2'], (who, r) => heard.push(`${who}#${r.incarnation}`));
    const welcomes: number[] = [];
    // The member does not hear the first answers (as if they were lost): it says the rejoin again.
    const announcement = new RejoinAnnouncement(member, 's2', rejoin, 50);
    announcements.push(announcement);
    const other = await bus('lost-answer', 'observer');
    other.on('welcomed', (m) => welcomes.push(m.incarnation));
    await other.nc.flush();
    await driver.nc.flush();
    announcement.start();
    await until('three copies answered', () => welcomes.length >= 3);
    expect(heard).toEqual(['s2#3']);
    announcement.welcomed('s2', 2);
    announcement.welcomed('s1', 3);
    expect(announcement.isWelcomed).toBe(false);
    member.on('welcomed', (m) => announcement.welcomed(m.member, m.incarnation));
    await until('the member hears an answer', () => announcement.isWelcomed);
    expect(heard).toEqual(['s2#3']);
  });

  it('leaves a process that is not part of the run unanswered', async () => {
    const member = await bus('stranger', 'x9');
    const driver = await bus('stranger', 'driver');
    const heard: string[] = [];
    answerRejoins(driver, ['s1'], (who) => heard.push(who));
    const observer = await bus('stranger', 'observer');
    let welcomes = 0;
    observer.on('welcomed', () => welcomes++);
    let copies = 0;
    driver.on('rejoined', () => copies++);
    await observer.nc.flush();
    await driver.nc.flush();
    const announcement = new RejoinAnnouncement(member, 'x9', rejoin, 50);
    announcements.push(announcement);
    announcement.start();
    await until('the driver has had three copies', () => copies >= 3);
    // Any answer the driver gave has reached the server, and then the observer.
    await driver.nc.flush();
    await observer.nc.flush();
    expect(welcomes).toBe(0);
    expect(heard).toEqual([]);
    expect(announcement.isWelcomed).toBe(false);
  });
});
