// Slow tests (npm run test:slow): TLS with the delay proxies in the way (npm test runs --tls
// without latency, in credentials.test.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gridemuLive, readCheck, readSummary, smallSpec, tmp } from '../test/live-helpers.js';

describe('TLS (issue 11)', () => {
  it("gridemu run --tls with link latency and faults: each delay proxy ends its process's TLS, delays and drops as without it, and the check passes", async () => {
    const dir = tmp();
    const spec = smallSpec(dir, { sites: 3, jobs: 20, latency_ms: 10, jitter_ms: 0, speedup: 5000 });
    writeFileSync(spec, readFileSync(spec, 'utf8') + 'faults:\n  drop: 0.05\n');
    const out = join(dir, 'out');
    const { code, err } = await gridemuLive(['run', spec, '--out', out, '--tls', '--timeout', '90']).done;
    expect(code, err).toBe(0);
    expect(err).toContain('TLS only');
    expect(err).toContain('through a delay proxy per process');
    expect(readCheck(out).ok, JSON.stringify(readCheck(out))).toBe(true);
    const s = readSummary(out);
    // A proxy never sends early: every cross-site message felt the link's 10 ms (less a millisecond
    // for reading two processes' clocks).
    expect(s.live.latency_ms.count).toBeGreaterThan(0);
    expect(s.live.latency_ms.min_ms).toBeGreaterThanOrEqual(9);
    // It read the messages through TLS: it could tell losable from durable ones and dropped some.
    expect(s.faults.messages_dropped).toBeGreaterThan(0);
    // The server itself still takes TLS only.
    const conf = readFileSync(join(out, 'nats', 'nats-server.conf'), 'utf8');
    expect(conf).toMatch(/tls/);
  });
});
