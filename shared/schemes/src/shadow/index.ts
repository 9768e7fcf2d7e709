import { metaTimescales, type SchemeModule } from '../scheme-module.js';
import { SHADOW_MESSAGES } from './messages.js';
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
