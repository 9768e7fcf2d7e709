import type { ProtocolTraceRow } from '@gridemu/metrics';
import type { TraceComparison } from '../scheme-module.js';
import { summarizeClaimTrace, type ClaimTraceSummary } from './claim-trace-summary.js';

/** The claim protocol of two runs side by side (gridemu compare, when both have a protocol-trace.csv). */
export interface ClaimTraceComparison extends TraceComparison {
  readonly json: {
    readonly jobs: { readonly a: number; readonly b: number };
    readonly a: Omit<ClaimTraceSummary, 'grantDelayByJob'>;
    readonly b: Omit<ClaimTraceSummary, 'grantDelayByJob'>;
    readonly grant_delay: {
      readonly compared: number;
      readonly median_abs_s: number | undefined;
      readonly largest: readonly { readonly job: string; readonly a: number; readonly b: number }[];
    };
  };
}

/** The steps whose count per job the table shows, in protocol order. */
const STEPS = [
  'copies.sent',
  'claim.sent',
  'claim.granted',
  'claim.denied',
  'claim.timed_out',
  'claim.late_grant',
  'copy.cancelled',
  'copy.withdrawn',
];

/** The share of first claims that `end` ended. */
function share(s: ClaimTraceSummary, end: string): number | undefined {
  const all = Object.values(s.first_claim_ended_by).reduce((a, b) => a + b, 0);
  return all === 0 ? undefined : (s.first_claim_ended_by[end] ?? 0) / all;
}

export function compareClaimTraces(
  a: readonly ProtocolTraceRow[],
  b: readonly ProtocolTraceRow[],
  largest = 8,
): ClaimTraceComparison {
  const [sa, sb] = [summarizeClaimTrace(a), summarizeClaimTrace(b)];
  const perJob = (s: ClaimTraceSummary, step: string) => (s.jobs === 0 ? undefined : (s.events[step] ?? 0) / s.jobs);
  const rows = [
    ...STEPS.map((step) => ({ label: `${step} per job`, a: perJob(sa, step), b: perJob(sb, step) })),
    ...['claim.granted', 'claim.denied', 'claim.timed_out', 'copy.cancelled'].map((end) => ({
      label: `first claims ended by ${end}, share`,
      a: share(sa, end),
      b: share(sb, end),
    })),
    { label: 'claim round trip, median', a: sa.claim_round_trip_s.median, b: sb.claim_round_trip_s.median },
    { label: 'claim round trip, p95', a: sa.claim_round_trip_s.p95, b: sb.claim_round_trip_s.p95 },
    { label: 'copies to grant, median', a: sa.time_to_grant_s.median, b: sb.time_to_grant_s.median },
    { label: 'copies to grant, p95', a: sa.time_to_grant_s.p95, b: sb.time_to_grant_s.p95 },
  ];
  const pairs: { job: string; a: number; b: number }[] = [];
  for (const [job, da] of sa.grantDelayByJob) {
    const db = sb.grantDelayByJob.get(job);
    if (db !== undefined) pairs.push({ job, a: da, b: db });
  }
  const gaps = pairs.map((p) => Math.abs(p.b - p.a)).sort((x, y) => x - y);
  const { grantDelayByJob: _a, ...restA } = sa;
  const { grantDelayByJob: _b, ...restB } = sb;
  const furthest = pairs
    .sort((x, y) => Math.abs(y.b - y.a) - Math.abs(x.b - x.a) || (x.job < y.job ? -1 : 1))
    .slice(0, largest);
  const median_abs_s = gaps.length > 0 ? gaps[Math.floor(gaps.length / 2)] : undefined;
  return {
    heading: `claim protocol (protocol-trace.csv): ${sa.jobs} jobs traced in A, ${sb.jobs} in B; times in emulated s`,
    rows,
    furthest: {
      heading: `time to grant, job by job: ${pairs.length} jobs granted in both; |B - A| median ${median_abs_s === undefined ? '-' : median_abs_s.toFixed(2)} s; furthest apart (gridemu compare A B --job ID shows one):`,
      jobs: furthest,
    },
    json: {
      jobs: { a: sa.jobs, b: sb.jobs },
      a: restA,
      b: restB,
      grant_delay: {
        compared: pairs.length,
        median_abs_s,
        largest: furthest,
      },
    },
  };
}
