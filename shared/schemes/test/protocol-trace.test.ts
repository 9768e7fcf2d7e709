import { describe, expect, it } from 'vitest';
import type { Job } from '@gridemu/model';
import { simulate } from '../src/index.js';
import { specOf } from './helpers.js';

const jobs: Job[] = [
  { id: 'w!J', workload: 'w', origin: 'a', submit_s: 10, run_s: 30, estimate_s: 60, procs: 2 },
  { id: 'w!K', workload: 'w', origin: 'b', submit_s: 12, run_s: 30, estimate_s: 60, procs: 4 },
];
const spec = specOf({
  sites: [
    { id: 'a', cpus: 4 },
    { id: 'b', cpus: 4 },
  ],
  meta: { scheme: 'k-distributed', k: 2, load_period_s: 600, claim_timeout_s: 5, claim: 'hold' },
  network: { latency_ms: 10, jitter_ms: 0 },
});

describe('protocol_trace in the simulator (issue 15)', () => {
  it('records every claim step of a K = 2 race where it happened, 10 ms apart per hop', () => {
    const r = simulate({ ...spec, protocol_trace: true }, jobs);
    const lines = r.trace
      .filter((t) => t.job_id === 'w!J')
      .map((t) => `${t.time_s.toFixed(2)} ${t.location} ${t.event} ${t.detail}`.trim());
    // J's origin a sends copies to both sites; a's own copy claims at once and wins. The copy at b
    // lands a hop later and claims (b is free until K comes at 12 s); the cancel and b's claim
    // cross on the wire, so b drops its copy when the cancel lands and is then denied the claim.
    expect(lines).toEqual([
      '10.00 a copies.sent to=a b heard=a:0@-,b:0@-',
      '10.00 a copy.arrived queue=local claim=yes',
      '10.00 a claim.sent claim=1 origin=a timeout_s=5',
      '10.00 a origin.grant site=a claim=1',
      '10.00 a origin.cancel site=b',
      '10.00 a claim.granted claim=1',
      '10.00 a run copies=2 migrations=0',
      '10.01 b copy.arrived queue=local claim=yes',
      '10.01 b claim.sent claim=1 origin=a timeout_s=5',
      '10.01 b copy.cancelled dropped=yes',
      '10.02 a origin.deny site=b claim=1',
      '10.03 b claim.denied claim=1',
      '40.00 a finished',
    ]);
  });

  it("adds up with the run's counters, is the same twice, and is empty unless asked for", () => {
    const r = simulate({ ...spec, protocol_trace: true }, jobs);
    const count = (event: string) => r.trace.filter((t) => t.event === event).length;
    expect(count('claim.sent')).toBe(r.counters['claims.sent']);
    expect(count('origin.grant')).toBe(r.counters['claims.granted']);
    expect(count('origin.deny')).toBe(r.counters['claims.denied']);
    // K (4 CPUs) finds a half taken by J: its copy there waits, and its cancel, a hop behind it
    // on the same link, withdraws it at once.
    expect(
      r.trace.filter((t) => t.job_id === 'w!K' && t.location === 'a').map((t) => `${t.time_s} ${t.event}`),
    ).toEqual(['12.01 copy.arrived', '12.01 copy.cancelled', '12.01 copy.withdrawn']);
    expect(count('run')).toBe(jobs.length);
    expect(simulate({ ...spec, protocol_trace: true }, jobs).trace).toEqual(r.trace);
    expect(simulate(spec, jobs).trace).toEqual([]);
    // The trace changes nothing of the schedule.
    expect(simulate(spec, jobs).records).toEqual(r.records);
  });
});
