import type { ProtocolTraceRow } from '@gridemu/metrics';

/**
 * What a protocol trace says about the claim protocol (paper 001 §7), in figures that two runs of
 * the same experiment can be held against (where a live run and its simulation part
 * ways). All times are emulated seconds.
 */
export interface ClaimTraceSummary {
  /** Jobs with at least one step in the trace. */
  readonly jobs: number;
  /** Each event's count over the whole trace. */
  readonly events: Readonly<Record<string, number>>;
  /** A claim's round trip: from claim.sent at a site to its answer there (granted, denied or a late grant). */
  readonly claim_round_trip_s: Quantiles;
  /** From the origin's copies.sent to the claim.granted of the copy that won. */
  readonly time_to_grant_s: Quantiles;
  /**
   * What first ended a copy's first claim at a site: its grant, its denial, its time-out, or a
   * cancel that dropped the copy meanwhile. Where a replay times out more first claims than the
   * live run, its answers come later than live ones did.
   */
  readonly first_claim_ended_by: Readonly<Record<string, number>>;
  /** Per job, that time: the job-by-job comparison pairs these. */
  readonly grantDelayByJob: ReadonlyMap<string, number>;
}

export interface Quantiles {
  readonly n: number;
  readonly median: number | undefined;
  readonly p95: number | undefined;
  readonly mean: number | undefined;
}

const ANSWERS = new Set(['claim.granted', 'claim.denied', 'claim.late_grant']);
/** What can end a claim while it is waited for. */
const ENDINGS = new Set(['claim.granted', 'claim.denied', 'claim.timed_out', 'copy.cancelled']);

export function summarizeClaimTrace(rows: readonly ProtocolTraceRow[]): ClaimTraceSummary {
  const events: Record<string, number> = {};
  const jobs = new Set<string>();
  /** An open claim, by job, site and claim id: when it was sent. */
  const open = new Map<string, number>();
  const roundTrips: number[] = [];
  const copiesSent = new Map<string, number>();
  const grantDelayByJob = new Map<string, number>();
  /** Copies whose first claim is out, and those whose first claim has ended. */
  const firstOut = new Set<string>();
  const firstDone = new Set<string>();
  const firstEndedBy: Record<string, number> = {};
  for (const r of rows) {
    events[r.event] = (events[r.event] ?? 0) + 1;
    jobs.add(r.job_id);
    const copy = `${r.job_id}\u0000${r.location}`;
    if (r.event === 'claim.sent' && !firstDone.has(copy)) firstOut.add(copy);
    else if (ENDINGS.has(r.event) && firstOut.has(copy)) {
      firstOut.delete(copy);
      firstDone.add(copy);
      firstEndedBy[r.event] = (firstEndedBy[r.event] ?? 0) + 1;
    }
    if (r.event === 'copies.sent' && !copiesSent.has(r.job_id)) copiesSent.set(r.job_id, r.time_s);
    const claim = claimIdOf(r.detail);
    if (claim === undefined) continue;
    const key = `${r.job_id}\u0000${r.location}\u0000${claim}`;
    if (r.event === 'claim.sent') open.set(key, r.time_s);
    else if (ANSWERS.has(r.event)) {
      const sent = open.get(key);
      if (sent !== undefined) {
        roundTrips.push(r.time_s - sent);
        open.delete(key);
      }
      const from = copiesSent.get(r.job_id);
      if (r.event === 'claim.granted' && from !== undefined && !grantDelayByJob.has(r.job_id))
        grantDelayByJob.set(r.job_id, r.time_s - from);
    }
  }
  return {
    jobs: jobs.size,
    events,
    claim_round_trip_s: quantiles(roundTrips),
    time_to_grant_s: quantiles([...grantDelayByJob.values()]),
    first_claim_ended_by: firstEndedBy,
    grantDelayByJob,
  };
}

/** The `claim=N` word of a step's detail. */
function claimIdOf(detail: string): string | undefined {
  const m = /(?:^| )claim=(\d+)/.exec(detail);
  return m?.[1];
}

export function quantiles(xs: readonly number[]): Quantiles {
  if (xs.length === 0) return { n: 0, median: undefined, p95: undefined, mean: undefined };
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { n: s.length, median: at(0.5), p95: at(0.95), mean: s.reduce((a, b) => a + b, 0) / s.length };
}
