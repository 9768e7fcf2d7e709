import { metaTimescales, type SchemeModule } from '../scheme-module.js';
import { SHADOW_DURABLE, SHADOW_MESSAGES } from './messages.js';
import { readShadowMeta } from './meta.js';
import { ROUTER_LOCATION, SHADOW_SCHEMES } from './names.js';
import { planShadow } from './plan.js';
import { SHADOW_METRICS, shadowSummary } from './summary.js';
import { SHADOW_FUZZ } from './fuzz.js';

/** Paper 004 (Rasooli and Down: state independent resource management for distributed grids). */
export const shadow: SchemeModule = {
  family: 'paper-004',
  fuzz: SHADOW_FUZZ,
  schemes: SHADOW_SCHEMES,
  // A resource's queue and the router's state are durable: a crashed resource loses only its runs
  // (resource-actor.ts); the router's rounds time out on answers lost while it or a resource was down.
  faultTolerant: SHADOW_SCHEMES,
  durableMessages: SHADOW_DURABLE,
  locations: [ROUTER_LOCATION],
  readMeta: readShadowMeta,
  plan: planShadow,
  messages: SHADOW_MESSAGES,
  summary: shadowSummary,
  metrics: SHADOW_METRICS,
  timescales: (spec) => metaTimescales(spec, ['query_timeout_s']),
};

export { ShadowRouting } from './shadow-routing.js';
export { estimatedLength, estimatedRate, type ErrorModel } from './estimates.js';
export { shadowMeta, speedsOf, type ShadowMeta } from './meta.js';
export { ROUTER, resourceAddress } from './names.js';
