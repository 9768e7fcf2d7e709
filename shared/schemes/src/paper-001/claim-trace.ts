import type { JobTracer } from '@gridemu/runtime';
import type { ClaimDecision, ClaimEvent } from './claim-protocol.js';

/**
 * What one step of the claim protocol says in `protocol-trace.csv` (per-job traces of the claim
 * protocol, in both modes): the event as the site met it, then what the site did about it. The
 * policy's own start is traced through the claim or run it leads to.
 */
export function traceClaimStep(trace: JobTracer, event: ClaimEvent, decisions: readonly ClaimDecision[]): void {
  const counted = (name: string): boolean => decisions.some((d) => d.kind === 'count' && d.name === name);
  switch (event.kind) {
    case 'arrived':
      trace(
        event.job.id,
        event.sent ? 'copy.arrived' : 'job.arrived',
        `queue=${event.queue}${event.claim ? ' claim=yes' : ''}${decisions.length > 0 && decisions.every((d) => d.kind === 'count') ? ' dropped=yes' : ''}`,
      );
      break;
    case 'grant':
      trace(
        event.jobId,
        counted('claims.late_grants') ? 'claim.late_grant' : 'claim.granted',
        `claim=${event.claimId}`,
      );
      break;
    case 'deny':
      trace(event.jobId, 'claim.denied', `claim=${event.claimId}`);
      break;
    case 'cancel':
      trace(
        event.jobId,
        'copy.cancelled',
        decisions.some((d) => d.kind === 'release' || d.kind === 'withdraw' || d.kind === 'kill')
          ? 'dropped=yes'
          : 'dropped=no',
      );
      break;
    case 'timeout':
      // A claim's timer fires whatever became of the claim; only one still waited for is a time-out.
      if (counted('claims.timed_out')) trace(event.jobId, 'claim.timed_out', `claim=${event.claimId}`);
      break;
    case 'finished':
      trace(event.jobId, 'finished');
      break;
    case 'lost':
      trace(event.jobId, 'lost');
      break;
    case 'policy-started':
      break;
  }
  for (const d of decisions) {
    switch (d.kind) {
      case 'claim':
        trace(d.jobId, 'claim.sent', `claim=${d.claimId} origin=${d.origin} timeout_s=${d.timeout_s}`);
        break;
      case 'run':
        trace(
          d.job.id,
          d.provisional ? 'run.provisional' : 'run',
          `copies=${d.trail.copies} migrations=${d.trail.migrations}`,
        );
        break;
      case 'withdraw':
        trace(d.jobId, 'copy.withdrawn');
        break;
      case 'kill':
        trace(d.jobId, 'copy.killed');
        break;
      case 'confirm':
        trace(d.jobId, 'run.confirmed');
        break;
      case 'reject':
        trace(d.jobId, 'rejected', `reason=${d.reason}`);
        break;
      case 'requeue':
        trace(d.job.id, 'requeued');
        break;
      default:
        break;
    }
  }
}
