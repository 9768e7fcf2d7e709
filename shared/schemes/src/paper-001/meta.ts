import {
  POSITIVE,
  POSITIVE_INTEGER,
  type ExperimentSpec,
  type FieldReader,
  type LocalSpec,
  type MetaContext,
  type MetaSpec,
} from '@gridemu/model';
import { CLAIM_MODES, type ClaimMode } from './claim-protocol.js';
import { CENTRAL_LOCATION, PAPER_001_SCHEMES, type Paper001Scheme } from './names.js';

/** `meta:` under paper 001's schemes. One set of options for the family, so a sweep over its schemes shares a spec; a scheme ignores those it does not use. */
export interface Paper001Meta extends MetaSpec {
  readonly scheme: Paper001Scheme;
  /** Copies per job under k-distributed and k-dual (§4). */
  readonly k: number;
  /** How often each site publishes its load (load gossip): distributed, k-distributed, k-dual. */
  readonly load_period_s: number;
  /** How long a site holds processors waiting for the origin's answer to a claim before it gives up and retries. */
  readonly claim_timeout_s: number;
  /**
   * `hold`: a copy holds its processors and starts only once the origin grants the claim.
   * `optimistic`: it starts at once and tells the origin, which kills every later starter.
   */
  readonly claim: ClaimMode;
  /** Hierarchical: how long the central metascheduler waits for every site's start estimate. */
  readonly query_timeout_s: number;
}

const OPTIONS = ['scheme', 'k', 'load_period_s', 'claim_timeout_s', 'claim', 'query_timeout_s'];

/**
 * The load gossip's period and the claim's timeout, as paper 001's sites use them: read here for
 * every scheme that runs those sites (the external policies' too), so their defaults are one.
 */
export function readSiteTimings(
  raw: Readonly<Record<string, unknown>>,
  r: FieldReader,
): Pick<Paper001Meta, 'load_period_s' | 'claim_timeout_s'> {
  return {
    load_period_s: r.number(raw['load_period_s'], 'meta.load_period_s', POSITIVE, 60),
    claim_timeout_s: r.number(raw['claim_timeout_s'], 'meta.claim_timeout_s', POSITIVE, 5),
  };
}

export function readPaper001Meta(
  scheme: string,
  raw: Readonly<Record<string, unknown>>,
  r: FieldReader,
  context: MetaContext,
): { meta: Paper001Meta; local: LocalSpec; processes: readonly string[] } {
  r.onlyKeys(raw, 'meta', OPTIONS);
  const meta: Paper001Meta = {
    scheme: scheme as Paper001Scheme,
    k: r.number(raw['k'], 'meta.k', POSITIVE_INTEGER, 1),
    ...readSiteTimings(raw, r),
    claim: r.oneOf(raw['claim'], 'meta.claim', CLAIM_MODES, 'hold'),
    query_timeout_s: r.number(raw['query_timeout_s'], 'meta.query_timeout_s', POSITIVE, 60),
  };
  if (meta.k > Math.max(1, context.sites.length))
    r.fail('meta.k', `must be at most the number of sites (${context.sites.length})`);
  // K-dual is defined on dual-queue EASY (§4.2): an EASY site takes it as dual-easy (the normalized
  // spec, and so summary.json, says so); FCFS has no remote queue to offer.
  let local = context.local;
  if (scheme === 'k-dual') {
    if (local.policy === 'easy') local = { policy: 'dual-easy' };
    else if (local.policy === 'fcfs')
      r.fail('local.policy', 'k-dual needs dual-queue EASY: set local.policy to easy or dual-easy');
  }
  // Its process beside the sites: the central metascheduler of centralized and hierarchical (plan.ts).
  const processes = scheme === 'centralized' || scheme === 'hierarchical' ? [CENTRAL_LOCATION] : [];
  return { meta, local, processes };
}

/** The spec's meta as paper 001's module read it. */
export function paper001Meta(spec: ExperimentSpec): Paper001Meta {
  if (!(PAPER_001_SCHEMES as readonly string[]).includes(spec.meta.scheme))
    throw new Error(`assertion: scheme ${spec.meta.scheme} is not one of paper 001's`);
  return spec.meta as Paper001Meta;
}
