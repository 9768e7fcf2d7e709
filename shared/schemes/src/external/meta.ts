import {
  POSITIVE,
  fieldPath as join,
  type ExperimentSpec,
  type FieldReader,
  type LocalSpec,
  type MetaContext,
  type MetaSpec,
} from '@gridemu/model';
import { readSiteTimings } from '../paper-001/meta.js';
import { CENTRAL_LOCATION } from '../paper-001/names.js';

/** `meta:` under the `external` scheme (docs/external.md). */
export interface ExternalMeta extends MetaSpec {
  readonly scheme: 'external';
  /** The policy's program and its arguments, run from the directory gridemu was started in. */
  readonly command: readonly string[];
  /**
   * `per-site`: one policy process beside each site's metascheduler, seeing what that site sees.
   * `central`: one beside a central metascheduler (its own process, `central`), which every job
   * is submitted to.
   */
  readonly locations: 'per-site' | 'central';
  /** How long, in wall seconds, a policy may take to answer one request before the run stops. */
  readonly answer_timeout_s: number;
  /** The same for its first answer (the hello), which includes the program's start-up. */
  readonly startup_timeout_s: number;
  /** How often each site publishes its load, as paper 001's distributed schemes do. */
  readonly load_period_s: number;
  /** How long a site holds processors for a copy's claim before it gives up and retries. */
  readonly claim_timeout_s: number;
  /**
   * Who answers a copy's claim: `origin`, gridemu's semaphore at the job's origin (the first claim
   * wins, paper 001 §7); `policy`, the origin's policy (a claim request), within the semaphore's
   * guarantees.
   */
  readonly claims: 'origin' | 'policy';
}

const OPTIONS = [
  'scheme',
  'command',
  'locations',
  'answer_timeout_s',
  'startup_timeout_s',
  'load_period_s',
  'claim_timeout_s',
  'claims',
];

export function readExternalMeta(
  _scheme: string,
  raw: Readonly<Record<string, unknown>>,
  r: FieldReader,
  context: MetaContext,
): { meta: ExternalMeta; local: LocalSpec; processes: readonly string[] } {
  r.onlyKeys(raw, 'meta', OPTIONS);
  const command = (r.array(raw['command'], 'meta.command') ?? []).map((part, i) =>
    r.string(part, join('meta.command', i)),
  );
  if (raw['command'] === undefined)
    r.fail(
      'meta.command',
      'is required: the policy program and its arguments, e.g. [python3, policies/least_loaded.py]',
    );
  else if (command.length === 0 || command[0] === '') r.fail('meta.command', 'must name a program');
  const locations = r.oneOf(raw['locations'], 'meta.locations', ['per-site', 'central'], 'per-site');
  const meta: ExternalMeta = {
    scheme: 'external',
    command,
    locations,
    answer_timeout_s: r.number(raw['answer_timeout_s'], 'meta.answer_timeout_s', POSITIVE, 10),
    startup_timeout_s: r.number(raw['startup_timeout_s'], 'meta.startup_timeout_s', POSITIVE, 30),
    ...readSiteTimings(raw, r),
    claims: r.oneOf(raw['claims'], 'meta.claims', ['origin', 'policy'], 'origin'),
  };
  // Its process beside the sites: the one central policy's, with `locations: central` (plan.ts).
  return { meta, local: context.local, processes: meta.locations === 'central' ? [CENTRAL_LOCATION] : [] };
}

export function externalMeta(spec: ExperimentSpec): ExternalMeta {
  if (spec.meta.scheme !== 'external') throw new Error(`assertion: scheme ${spec.meta.scheme} is not external`);
  return spec.meta as ExternalMeta;
}
