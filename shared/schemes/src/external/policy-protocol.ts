/**
 * The JSON-lines protocol between a site's metascheduler and an external policy (docs/external.md,
 * its JSON Schemas in docs/external/). One request, one answer; both carry the version.
 */
export const PROTOCOL_VERSION = 1;

/** What the location knows of one site's load: the last report heard, and how old it is. */
export interface HeardLoad {
  readonly site: string;
  /** Expected seconds to drain the site's running and queued work (its scheduler's report). */
  readonly load: number;
  /** Its free processors and queued jobs when it measured the load. */
  readonly free: number;
  readonly queued: number;
  readonly age_s: number;
}

export interface PolicyJob {
  readonly id: string;
  readonly procs: number;
  /** The user's estimate of its run time, seconds (what a scheduler may know). */
  readonly requested_s: number;
  readonly submit_s: number;
}

export type PolicyRequest =
  | {
      readonly v: number;
      readonly type: 'hello';
      readonly time: number;
      readonly location: string;
      readonly sites: readonly { readonly id: string; readonly cpus: number }[];
    }
  | {
      readonly v: number;
      readonly type: 'submit';
      readonly time: number;
      readonly location: string;
      readonly job: PolicyJob;
      readonly loads: readonly HeardLoad[];
    }
  | {
      readonly v: number;
      readonly type: 'offer';
      readonly time: number;
      readonly location: string;
      readonly job: PolicyJob;
      /** The site whose policy offered it. */
      readonly from: string;
      readonly loads: readonly HeardLoad[];
    }
  | {
      readonly v: number;
      readonly type: 'claim';
      readonly time: number;
      readonly location: string;
      /** With `claims: policy`: the copy of `job` at `site` is ready to start; grant or deny it. */
      readonly job: string;
      readonly site: string;
      /** The sites whose copies may still claim it, this one included. */
      readonly copies: readonly string[];
    }
  | {
      readonly v: number;
      readonly type: 'claimed';
      readonly time: number;
      readonly location: string;
      /** A job this site sent as copies, the site whose copy claimed it, and gridemu's answer. */
      readonly job: string;
      readonly site: string;
      readonly verdict: 'grant' | 'regrant' | 'deny';
    }
  | {
      readonly v: number;
      readonly type: 'timer';
      readonly time: number;
      readonly location: string;
      readonly name: string;
      readonly loads: readonly HeardLoad[];
    };

/** What a policy may do in an answer. */
export type PolicyAction =
  | { readonly do: 'send'; readonly job: string; readonly to: string }
  | { readonly do: 'copies'; readonly job: string; readonly to: readonly string[] }
  | { readonly do: 'offer'; readonly job: string; readonly to: string }
  | { readonly do: 'cancel'; readonly job: string; readonly at: string }
  | { readonly do: 'grant' | 'deny'; readonly job: string; readonly site: string }
  | { readonly do: 'reject'; readonly job: string; readonly reason: string }
  | { readonly do: 'timer'; readonly after_s: number; readonly name: string };

/** What the answer is checked against: the grid's sites, and the job the request asked about (if any). */
export interface AnswerContext {
  readonly sites: ReadonlyMap<string, number>;
  readonly job?: PolicyJob;
  /** The job was offered by another site: copies are its origin's to send (claims go there). */
  readonly offered?: boolean;
  /** The site answering, which may not offer a job to itself. */
  readonly location?: string;
  /** The one central policy: no site has a policy to offer to, nor a semaphore for copies. */
  readonly central?: boolean;
  /** A claim request: the answer must grant or deny this copy, once. */
  readonly claim?: { readonly job: string; readonly site: string };
}

const ACTION_FIELDS: Readonly<Record<PolicyAction['do'], readonly string[]>> = {
  send: ['do', 'job', 'to'],
  copies: ['do', 'job', 'to'],
  offer: ['do', 'job', 'to'],
  cancel: ['do', 'job', 'at'],
  grant: ['do', 'job', 'site'],
  deny: ['do', 'job', 'site'],
  reject: ['do', 'job', 'reason'],
  timer: ['do', 'after_s', 'name'],
};

/**
 * The actions of an answer, or the first thing wrong with it: an unknown or missing field, another
 * version, an action naming an unknown site or a job the request did not ask about, or a submitted
 * job left without exactly one decision. A job sent where it does not fit is the site's to refuse
 * (wider_than_site), as under the built-in schemes.
 */
export function readAnswer(answer: unknown, c: AnswerContext): { actions: PolicyAction[] } | { problem: string } {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer))
    return { problem: 'the answer is not a JSON object' };
  const a = answer as Record<string, unknown>;
  const extra = Object.keys(a).find((k) => k !== 'v' && k !== 'actions');
  if (extra !== undefined)
    return { problem: `the answer has an unknown field "${extra}" (an answer has v and actions)` };
  if (a['v'] !== PROTOCOL_VERSION)
    return { problem: `the answer has v ${JSON.stringify(a['v'])}: this gridemu speaks version ${PROTOCOL_VERSION}` };
  if (!Array.isArray(a['actions'])) return { problem: 'the answer has no actions list' };
  const actions: PolicyAction[] = [];
  let decisions = 0;
  let claimVerdicts = 0;
  for (const [i, raw] of (a['actions'] as unknown[]).entries()) {
    const where = `action ${i + 1}`;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { problem: `${where} is not an object` };
    const x = raw as Record<string, unknown>;
    const kind = x['do'];
    if (typeof kind !== 'string' || !(kind in ACTION_FIELDS))
      return {
        problem: `${where} has "do": ${JSON.stringify(kind)} (one of ${Object.keys(ACTION_FIELDS).join(', ')})`,
      };
    const fields = ACTION_FIELDS[kind as PolicyAction['do']];
    const unknown = Object.keys(x).find((k) => !fields.includes(k));
    if (unknown !== undefined) return { problem: `${where} (${kind}) has an unknown field "${unknown}"` };
    const missing = fields.find((k) => x[k] === undefined);
    if (missing !== undefined) return { problem: `${where} (${kind}) has no "${missing}"` };
    if (kind === 'grant' || kind === 'deny') {
      if (!c.claim || x['job'] !== c.claim.job || x['site'] !== c.claim.site)
        return {
          problem: `${where} (${kind}) answers the claim of job ${JSON.stringify(x['job'])} at ${JSON.stringify(x['site'])}, ${c.claim ? `but the request asked about job ${c.claim.job} at ${c.claim.site}` : 'but the request asked about no claim'}`,
        };
      claimVerdicts++;
      actions.push({ do: kind, job: c.claim.job, site: c.claim.site });
      continue;
    }
    if (kind === 'cancel') {
      // Any earlier job of this site's copies: the host checks that it has such a copy.
      if (typeof x['job'] !== 'string') return { problem: `${where} (cancel) has a job that is not a string` };
      if (typeof x['at'] !== 'string' || !c.sites.has(x['at']))
        return { problem: `${where} (cancel) names site ${JSON.stringify(x['at'])}, which the grid does not have` };
      actions.push({ do: 'cancel', job: x['job'], at: x['at'] });
      continue;
    }
    if (kind === 'timer') {
      if (typeof x['after_s'] !== 'number' || !(x['after_s'] >= 0) || !Number.isFinite(x['after_s']))
        return {
          problem: `${where} (timer) has after_s ${JSON.stringify(x['after_s'])}: a number of seconds, 0 or more`,
        };
      if (typeof x['name'] !== 'string') return { problem: `${where} (timer) has a name that is not a string` };
      actions.push({ do: 'timer', after_s: x['after_s'], name: x['name'] });
      continue;
    }
    if (x['job'] !== c.job?.id)
      return {
        problem: `${where} (${kind}) names job ${JSON.stringify(x['job'])}, ${c.job ? `but the request asked about ${c.job.id}` : 'but the request asked about no job'}`,
      };
    decisions++;
    const job = c.job!;
    if ((kind === 'copies' || kind === 'offer') && c.central)
      return { problem: `${where} (${kind}) is for per-site policies: a central one sends or rejects` };
    if (kind === 'copies' && c.offered)
      return {
        problem: `${where} (copies) sends copies of job ${job.id}, which was offered here: only its origin may (claims go there)`,
      };
    if (kind === 'reject') {
      if (typeof x['reason'] !== 'string') return { problem: `${where} (reject) has a reason that is not a string` };
      actions.push({ do: 'reject', job: job.id, reason: x['reason'] });
      continue;
    }
    const to = kind === 'copies' ? x['to'] : [x['to']];
    if (!Array.isArray(to) || to.length === 0)
      return { problem: `${where} (copies) has "to" that is not a list of sites` };
    const seen = new Set<string>();
    for (const site of to) {
      if (typeof site !== 'string' || !c.sites.has(site))
        return { problem: `${where} (${kind}) names site ${JSON.stringify(site)}, which the grid does not have` };
      if (seen.has(site)) return { problem: `${where} (copies) names site ${site} twice` };
      seen.add(site);
    }
    if (kind === 'offer' && to[0] === c.location)
      return { problem: `${where} (offer) offers job ${job.id} to its own site` };
    actions.push(
      kind === 'copies'
        ? { do: 'copies', job: job.id, to: to as string[] }
        : { do: kind as 'send' | 'offer', job: job.id, to: to[0] as string },
    );
  }
  if (c.claim && claimVerdicts !== 1)
    return {
      problem: `the answer ${claimVerdicts === 0 ? 'neither grants nor denies' : 'answers more than once'} the claim of job ${c.claim.job} at ${c.claim.site} (once: grant or deny)`,
    };
  if (c.job && decisions !== 1)
    return {
      problem:
        decisions === 0
          ? `the answer leaves job ${c.job.id} without a decision (send, copies, offer or reject)`
          : `the answer decides job ${c.job.id} ${decisions} times (once: send, copies, offer or reject)`,
    };
  return { actions };
}
