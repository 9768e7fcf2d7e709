import { describe, expect, it } from 'vitest';
import type { Job } from '@gridemu/model';
import { ClaimProtocol, type ClaimEvent } from '../src/paper-001/claim-protocol.js';
import { traceClaimStep } from '../src/paper-001/claim-trace.js';

const job: Job = { id: 'a!1', workload: 'a', origin: 'a', submit_s: 0, run_s: 100, estimate_s: 100, procs: 4 };
const trail = { copies: 2, migrations: 0, replans: 0 };

/** Runs events through a real ClaimProtocol at site b and returns what the trace says of each. */
function traced(events: [number, ClaimEvent][]): string[] {
  const protocol = new ClaimProtocol({ site: 'b', cpus: 8, claimTimeout_s: 5, mode: 'hold' });
  const lines: string[] = [];
  for (const [now, e] of events) {
    traceClaimStep(
      (jobId, event, detail = '') => lines.push(`${now} ${jobId} ${event} ${detail}`.trim()),
      e,
      protocol.handle(now, e),
    );
  }
  return lines;
}

describe('the claim protocol in protocol-trace.csv (issue 15)', () => {
  it('a copy that claims, times out, claims again with twice the timeout, and runs on the first grant, which came late', () => {
    expect(
      traced([
        [0, { kind: 'arrived', job, queue: 'local', claim: true, trail, sent: true }],
        [0, { kind: 'policy-started', jobId: job.id }],
        [5, { kind: 'timeout', jobId: job.id, claimId: 1 }],
        [5, { kind: 'policy-started', jobId: job.id }],
        [6, { kind: 'grant', jobId: job.id, claimId: 1, by: 'a' }],
        [7, { kind: 'grant', jobId: job.id, claimId: 2, by: 'a' }],
        [15, { kind: 'timeout', jobId: job.id, claimId: 2 }],
        [107, { kind: 'finished', jobId: job.id }],
      ]),
    ).toEqual([
      '0 a!1 copy.arrived queue=local claim=yes',
      '0 a!1 claim.sent claim=1 origin=a timeout_s=5',
      '5 a!1 claim.timed_out claim=1',
      '5 a!1 claim.sent claim=2 origin=a timeout_s=10',
      // The semaphore is b's: the copy runs on the processors its second claim holds.
      '6 a!1 claim.late_grant claim=1',
      '6 a!1 run copies=2 migrations=1',
      '7 a!1 claim.late_grant claim=2',
      // The second claim's timer fires after the run: nothing happened, nothing is traced.
      '107 a!1 finished',
    ]);
  });

  it('a denial, a cancel that drops a queued copy, and one that overtook its copy', () => {
    expect(
      traced([
        [0, { kind: 'arrived', job, queue: 'local', claim: true, trail, sent: true }],
        [0, { kind: 'policy-started', jobId: job.id }],
        [1, { kind: 'deny', jobId: job.id, claimId: 1, by: 'a' }],
        [2, { kind: 'cancel', jobId: 'a!2', by: 'a' }],
        [3, { kind: 'arrived', job: { ...job, id: 'a!2' }, queue: 'local', claim: true, trail, sent: true }],
        [4, { kind: 'arrived', job: { ...job, id: 'a!3' }, queue: 'remote', claim: true, trail, sent: true }],
        [5, { kind: 'cancel', jobId: 'a!3', by: 'a' }],
      ]),
    ).toEqual([
      '0 a!1 copy.arrived queue=local claim=yes',
      '0 a!1 claim.sent claim=1 origin=a timeout_s=5',
      '1 a!1 claim.denied claim=1',
      '2 a!2 copy.cancelled dropped=no',
      '3 a!2 copy.arrived queue=local claim=yes dropped=yes',
      '4 a!3 copy.arrived queue=remote claim=yes',
      '5 a!3 copy.cancelled dropped=yes',
      '5 a!3 copy.withdrawn',
    ]);
  });
});
