import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { freePort, natsServerBinary, stopProcess } from '@gridemu/nats-server';
import { slowConsumerNote, slowConsumersOf } from '../src/live/slow-consumers.js';

describe("the processes nats-server cut off as slow consumers, from a run's server log", () => {
  it('names a client that stopped reading, as a real nats-server logs it, and no other run’s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gridemu-slow-'));
    const port = await freePort();
    // The server's write deadline shortened from its 10 s, so that the cut comes within a second.
    const config = join(dir, 'nats-server.conf');
    writeFileSync(config, JSON.stringify({ listen: `127.0.0.1:${port}`, write_deadline: '1s' }));
    const log = join(dir, 'nats-server.log');
    const fd = openSync(log, 'a');
    const server = spawn(natsServerBinary()!, ['-c', config], { stdio: ['ignore', fd, fd] });
    closeSync(fd);
    let site: Socket | undefined;
    try {
      for (let i = 0; i < 200 && !readFileSync(log, 'utf8').includes('Server is ready'); i++)
        await new Promise((r) => setTimeout(r, 50));
      site = netConnect(port, '127.0.0.1');
      site.on('error', () => undefined);
      await new Promise<void>((r) => site!.once('connect', () => r()));
      site.write('CONNECT {"verbose":false,"name":"gridemu-r1-s3","lang":"nats.js","version":"3.0.0"}\r\n');
      site.write('SUB flood 1\r\n');
      site.pause();
      const driver = await connect({ servers: `127.0.0.1:${port}`, name: 'gridemu-r1-driver' });
      const chunk = new Uint8Array(512 * 1024);
      // Until the server has cut it off; a generous bound, not a timing.
      for (let i = 0; i < 2000 && !readFileSync(log, 'utf8').includes('Slow Consumer Detected'); i++) {
        driver.publish('flood', chunk);
        if (i % 16 === 0) await driver.flush();
      }
      await driver.close();
      for (let i = 0; i < 200 && !readFileSync(log, 'utf8').includes('Slow Consumer Detected'); i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(slowConsumersOf(readFileSync(log, 'utf8'), 'r1')).toEqual(new Map([['s3', 1]]));
      expect(slowConsumersOf(readFileSync(log, 'utf8'), 'r2').size).toBe(0);
      const note = slowConsumerNote(log, 'r1', false);
      expect(note).toContain('nats-server closed the connection of s3 as too slow');
      expect(note).toContain('was lost, with any job it carried');
      expect(slowConsumerNote(log, 'r1', true)).toContain('sent again (live.journal), late');
    } finally {
      site?.destroy();
      await stopProcess(server, 2000);
    }
  });

  it('counts each process of the run by its name, and says nothing without a log or a line', () => {
    const line = (name: string) =>
      `[9] 2026/12/08 01:34:23.411588 [INF] 127.0.0.1:39502 - cid:4 - "v3.0.0:nats.js:${name}" - Slow Consumer Detected: WriteDeadline of 10s exceeded with 33 chunks of 2160612 total bytes.`;
    const text = [
      line('gridemu-live-test-4cea7a-s1'),
      '[9] 2026/12/08 01:34:23.5 [INF] 127.0.0.1:39503 - cid:5 - Client connection closed: Slow Consumer (Write Deadline)',
      line('gridemu-live-test-4cea7a-s1'),
      line('gridemu-live-test-4cea7a-proxy-s2'),
      line('gridemu-other-run-s1'),
    ].join('\n');
    expect(slowConsumersOf(text, 'live-test-4cea7a')).toEqual(
      new Map([
        ['s1', 2],
        ['proxy-s2', 1],
      ]),
    );
    expect(slowConsumerNote(join(tmpdir(), 'no-such-gridemu-log'), 'r1', false)).toBeUndefined();
  });
});
