import { roundNumber } from '@gridemu/metrics';
import type { SchemeMetric } from '../scheme-module.js';

/** The K-copy protocol's cost (paper 001 §4, §7): claims and what holding processors for them cost. */
export function claimsSummary(counters: Readonly<Record<string, number>>): Record<string, unknown> {
  const c = (name: string) => counters[name] ?? 0;
  return {
    claims: {
      sent: c('claims.sent'),
      granted: c('claims.granted'),
      regranted: c('claims.regranted'),
      denied: c('claims.denied'),
      timed_out: c('claims.timed_out'),
      late_grants: c('claims.late_grants'),
      held_processor_s: roundNumber(c('claims.held_processor_s')),
      copies_sent: c('copies.sent'),
      copies_cancelled: c('copies.cancels_sent'),
      // `meta.claim: optimistic` only: copies killed after starting, and the processor-seconds they ran for nothing.
      optimistic_killed: c('optimistic.killed'),
      optimistic_wasted_processor_s: roundNumber(c('optimistic.wasted_processor_s')),
    },
  };
}

export const PAPER_001_METRICS: readonly SchemeMetric[] = [
  { path: 'claims.granted', column: 'claims_granted' },
  { path: 'claims.denied', column: 'claims_denied', compared: true },
  { path: 'claims.timed_out', column: 'claims_timed_out' },
  { path: 'claims.held_processor_s', column: 'claims_held_processor_s' },
];
