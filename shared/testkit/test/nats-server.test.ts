import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startNatsServer } from '../src/index.js';

/** Speaks enough of the NATS text protocol to prove a real server answers: INFO, then PING/PONG. */
function handshake(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const s = connect(Number(port), hostname);
    let got = '';
    s.on('data', (d) => {
      got += d.toString();
      if (got.startsWith('INFO ') && !got.includes('PONG')) s.write('CONNECT {"verbose":false}\r\nPING\r\n');
      if (got.includes('PONG')) {
        s.destroy();
        resolve(got);
      }
    });
    s.on('error', reject);
    setTimeout(() => reject(new Error(`no PONG from ${url}: ${got}`)), 5000);
  });
}

describe('the nats-server fixture', () => {
  it('starts a real server that answers the NATS protocol, and stops it', async () => {
    const nats = await startNatsServer();
    try {
      const reply = await handshake(nats.url);
      expect(reply).toMatch(/^INFO \{.*"server_id"/);
      expect(reply).toContain('PONG');
    } finally {
      await nats.stop();
    }
    await expect(handshake(nats.url)).rejects.toThrow();
  });

  it('gives each test its own server', async () => {
    const [a, b] = await Promise.all([startNatsServer(), startNatsServer()]);
    try {
      expect(a.url).not.toBe(b.url);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
