import { metaTimescales, type SchemeModule } from '../scheme-module.js';
import { PAPER_001_DURABLE } from '../paper-001/messages.js';
import { EXTERNAL_DURABLE, EXTERNAL_MESSAGES } from './messages.js';
import { CENTRAL_LOCATION, LOAD_TOPIC } from '../paper-001/names.js';
import { EXTERNAL_FUZZ } from './fuzz.js';
import { externalMeta, readExternalMeta } from './meta.js';
import { planExternal } from './plan.js';

/**
 * A metascheduler whose choices a user's program makes, in any language, speaking JSON lines
 * (docs/external.md). The rest of the grid is paper 001's distributed set-up.
 */
export const external: SchemeModule = {
  family: 'external',
  schemes: ['external'],
  locations: [CENTRAL_LOCATION],
  // Paper 001's actors, and a metascheduler whose restart replays its journal through a new policy
  // process: the policy is asked again what it was asked before (docs/external.md, "Crashes").
  faultTolerant: ['external'],
  fuzz: EXTERNAL_FUZZ,
  noWarmUp: "a warm-up would start the user's policies and ask them about jobs that are not the run's",
  // A site's process sends nothing while it waits for its policy (policy-process.ts).
  longestSilence_s: (spec) => {
    const meta = externalMeta(spec);
    return Math.max(meta.answer_timeout_s, meta.startup_timeout_s);
  },
  readMeta: readExternalMeta,
  plan: planExternal,
  messages: EXTERNAL_MESSAGES,
  durableMessages: [...PAPER_001_DURABLE, ...EXTERNAL_DURABLE],
  latestValueTopics: [LOAD_TOPIC],
  timescales: (spec) => metaTimescales(spec, ['claim_timeout_s', 'load_period_s']),
  reportPeriods: (spec) => metaTimescales(spec, ['load_period_s']),
};

export { PROTOCOL_VERSION, readAnswer, type PolicyAction, type PolicyRequest } from './policy-protocol.js';
