import { metaTimescales, type SchemeModule } from '../scheme-module.js';
import { PAPER_001_DURABLE, PAPER_001_MESSAGES } from './messages.js';
import { readPaper001Meta } from './meta.js';
import {
  CENTRAL_LOCATION,
  FAULT_TOLERANT_SCHEMES,
  GOSSIPING_SCHEMES,
  LOAD_TOPIC,
  PAPER_001_SCHEMES,
  UNIFIED_SITE,
} from './names.js';
import { PAPER_001_FUZZ } from './fuzz.js';
import { planPaper001 } from './plan.js';
import { claimsSummary, PAPER_001_METRICS } from './summary.js';
import { compareClaimTraces } from './claim-trace-comparison.js';

/**
 * Paper 001 (Subramani et al., multiple simultaneous requests): independent, unified,
 * centralized, hierarchical, greedy distributed, K-distributed and K-dual.
 */
export const paper001: SchemeModule = {
  family: 'paper-001',
  schemes: PAPER_001_SCHEMES,
  locations: [CENTRAL_LOCATION, UNIFIED_SITE],
  faultTolerant: FAULT_TOLERANT_SCHEMES,
  fuzz: PAPER_001_FUZZ,
  readMeta: readPaper001Meta,
  plan: planPaper001,
  messages: PAPER_001_MESSAGES,
  durableMessages: PAPER_001_DURABLE,
  latestValueTopics: [LOAD_TOPIC],
  summary: claimsSummary,
  metrics: PAPER_001_METRICS,
  compareTraces: (a, b) => compareClaimTraces(a, b),
  // Only what the scheme's actors use: the claim's timeout and the load gossip's period for the
  // distributed schemes, the query round's timeout for hierarchical (plan.ts).
  timescales: (spec) => {
    const scheme = spec.meta.scheme;
    if (scheme === 'hierarchical') return metaTimescales(spec, ['query_timeout_s']);
    if (GOSSIPING_SCHEMES.has(scheme)) return metaTimescales(spec, ['claim_timeout_s', 'load_period_s']);
    return {};
  },
  // The distributed schemes' sites gossip their load on the load topic (LocalSchedulerActor).
  reportPeriods: (spec) => (GOSSIPING_SCHEMES.has(spec.meta.scheme) ? metaTimescales(spec, ['load_period_s']) : {}),
};

export { CENTRAL, CENTRAL_LOCATION, UNIFIED_SITE, PAPER_001_SCHEMES, type Paper001Scheme } from './names.js';
export { paper001Meta, type Paper001Meta } from './meta.js';
export { MetaschedulerActor, type MetaschedulerOptions, type DistributedScheme } from './metascheduler-actor.js';
export { CentralActor } from './central-actor.js';
export { HierarchicalActor } from './hierarchical-actor.js';
export { LOAD_TOPIC } from './names.js';
export { Paper001MessageType } from './messages.js';
