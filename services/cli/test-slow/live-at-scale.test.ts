// Slow tests (npm run test:slow): live runs that are long on two cores, many processes or long links.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkExactlyOnce, checkProtocolTrace } from '../test/live-checks.js';
import { gridemuLive, readSummary, smallSpec, tmp } from '../test/live-helpers.js';

describe('gridemu run: races under real latency', () => {
  it('K = 4 over 20 ms links: claims are really denied, and still no job runs twice', async () => {
    const dir = tmp();
    // 20 ms one-way is 100 emulated seconds at this speed-up; the claim timeout covers a round trip.
    const spec = smallSpec(dir, {
      sites: 4,
      jobs: 40,
      scheme: 'k-distributed',
      k: 4,
      latency_ms: 20,
      jitter_ms: 2,
      speedup: 5000,
    });
    const out = join(dir, 'out');
    const { code, err } = await gridemuLive([
      'run',
      spec,
      '--out',
      out,
      '--set',
      'meta.claim_timeout_s=400',
      '--set',
      'protocol_trace=true',
      '--timeout',
      '150',
    ]).done;
    expect(code, err).toBe(0);
    checkExactlyOnce(out);
    const s = readSummary(out);
    checkProtocolTrace(out, s);
    console.log(
      `K=4, 20 ms: ${s.claims.sent} claims, ${s.claims.granted} granted, ${s.claims.denied} denied, ${s.claims.timed_out} timed out; latency seen ${s.live.latency_ms.mean_ms} ms mean`,
    );
    expect(s.claims.denied).toBeGreaterThan(0);
    expect(s.live.latency_ms.mean_ms).toBeGreaterThan(19);
    expect(s.live.latency_ms.links['s1->s2'].min_ms).toBeGreaterThanOrEqual(17.9);
  });
});

describe('gridemu run at scale', () => {
  it('sixteen site processes run a K = 4 experiment to the end on this machine', async () => {
    const dir = tmp();
    const spec = smallSpec(dir, { sites: 16, jobs: 12, scheme: 'k-distributed', k: 4, latency_ms: 1, speedup: 20000 });
    const out = join(dir, 'out');
    const { code, err } = await gridemuLive([
      'run',
      spec,
      '--out',
      out,
      '--set',
      'meta.claim_timeout_s=200',
      '--timeout',
      '150',
    ]).done;
    expect(code, err).toBe(0);
    const jobs = checkExactlyOnce(out);
    expect(jobs).toHaveLength(16 * 12);
    const s = readSummary(out);
    expect(Object.keys(s.live.processes)).toHaveLength(17);
    expect(s.claims.granted).toBeGreaterThan(0);
  });
});
