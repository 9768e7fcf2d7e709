import { metaTimescales, type SchemeModule } from '../scheme-module.js';
import { GRUBER_DURABLE, GRUBER_MESSAGES } from './messages.js';
import { gruberMeta, readGruberMeta } from './meta.js';
import { ENGINE_LOCATIONS, GRUBER_SCHEMES, SUBMIT_LOCATION } from './names.js';
import { planGruber } from './plan.js';
import { GRUBER_METRICS, gruberSummary } from './summary.js';
import { GRUBER_FUZZ } from './fuzz.js';
import { BLAST_SOURCE } from './blast-source.js';

/** Paper 002 (Dumitrescu, Raicu, Foster: usage SLA-based scheduling in Grids): GRUBER and its site selectors. */
export const gruber: SchemeModule = {
  family: 'paper-002',
  fuzz: GRUBER_FUZZ,
  schemes: GRUBER_SCHEMES,
  // A site's queue, the engines' views and the submit hosts' plans are durable state; a crashed
  // site's running attempts fail there (site-actor.ts), and their submit hosts plan them again.
  faultTolerant: GRUBER_SCHEMES,
  durableMessages: GRUBER_DURABLE,
  locations: [...ENGINE_LOCATIONS, SUBMIT_LOCATION],
  readMeta: readGruberMeta,
  plan: planGruber,
  messages: GRUBER_MESSAGES,
  sources: [BLAST_SOURCE],
  summary: gruberSummary,
  metrics: GRUBER_METRICS,
  timescales: (spec) => metaTimescales(spec, ['monitor_period_s', 'query_timeout_s', 'retry_wait_s']),
  // A misbehaving manager starts no grid job for an episode (misbehaviour.ts).
  meanOutage_s: (spec) => gruberMeta(spec).misbehaving?.mean_episode_s,
};

export {
  gruberMeta,
  groupCap,
  voAggregate,
  burstCap,
  cpusOf,
  type GruberMeta,
  type VoSitePolicy,
  type VoPolicy,
  type FailureSpec,
} from './meta.js';
export { SELECTORS, type SelectorName, lrmAddress, monitorAddress, engineAddress, submitHostAddress } from './names.js';
export { SiteSelector } from './selector.js';
export { availableSites, type SiteView, type Candidate } from './availability.js';
export { SiteQueue } from './site-queue.js';
export { attemptFate, FAILURE_CATEGORIES, TABLE_XI_SHARES, TABLE_XII_SHARES } from './failures.js';
export { paperMetrics, type PaperMetrics } from './summary.js';
export { generateBlast, isBlastSource, type BlastJob, type BlastParams, type BlastSource } from './blast-source.js';
export { managerCycle, MANAGERS, DEFAULT_MANAGER_CYCLE_S, type ManagerKind } from './manager.js';
export { misbehaviourOf, proneSites, type MisbehaviourSpec } from './misbehaviour.js';
