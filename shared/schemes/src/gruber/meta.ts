import {
  NON_NEGATIVE,
  POSITIVE,
  POSITIVE_INTEGER,
  PROBABILITY,
  fieldPath as join,
  type ExperimentSpec,
  type FieldReader,
  type LocalSpec,
  type MetaContext,
  type MetaSpec,
  type SiteSpec,
} from '@gridemu/model';
import { isBlastSource } from './blast-source.js';
import { FAILURE_CATEGORIES, TABLE_XII_SHARES, type FailureCategory } from './failures.js';
import { DEFAULT_MANAGER_CYCLE_S, MANAGERS, type ManagerKind } from './manager.js';
import type { SiteChoice } from './drawn-sites.js';
import type { MisbehaviourSpec } from './misbehaviour.js';
import {
  engineLocation,
  GRUBER_SCHEMES,
  MAX_DECISION_POINTS,
  SELECTORS,
  SUBMIT_LOCATION,
  type SelectorName,
} from './names.js';

/** A VO's usage SLA at one site (§1.2.2 site policy statement; §2.2's EP, BP and IP), in % of the site. */
export interface VoSitePolicy {
  /** Burst allocation BP: the CPUs the VO may hold at once. */
  readonly cpu: number;
  /** Epoch allocation EP: its share of the site's CPU-time over an epoch. */
  readonly epoch: number;
  /** Instantaneous disk allocation IP. */
  readonly disk: number;
  /**
   * What the site's resource manager lets it reach when others leave CPUs idle; above `cpu`
   * the allocation is extensible (§2.2: "extensible BP_i").
   */
  readonly burst: number;
}

/** A VO policy statement (§1.2.2): each group's share of the VO's aggregate, in %. */
export interface VoPolicy {
  readonly groups: Readonly<Record<string, number>>;
  /** The share of any group not listed. */
  readonly group_share: number;
  /**
   * The VO's aggregate, in CPUs, where its VO policy states one (§3.2: iVDGL "allows a maximum of
   * 600 CPUs"); otherwise the sum of its CPU shares over the sites.
   */
  readonly aggregate_cpus?: number;
}

export interface FailureSpec {
  /** Chance that an attempt at a site fails for a transient reason (Tables XI, XII). */
  readonly rate: number;
  /** Per-site rates that replace `rate`. */
  readonly site_rates: Readonly<Record<string, number>>;
  /** Relative weights of the transient categories. */
  readonly categories: Readonly<Record<FailureCategory, number>>;
  /** Sites without the application's environment, named or a share drawn per seed: every grid job fails there at once (§4.2.3). */
  readonly misconfigured: SiteChoice;
}

/** `meta:` under `gruber`. */
export interface GruberMeta extends MetaSpec {
  readonly scheme: 'gruber';
  readonly selector: SelectorName;
  /** How often each site monitor publishes its per-VO usage. */
  readonly monitor_period_s: number;
  /** Length of the epoch over which EA and EP are measured. */
  readonly epoch_s: number;
  /** A job not started this long after it was sent to a site is withdrawn and planned again (§3.2: 20 min). */
  readonly starvation_timeout_s: number;
  /** Unsuccessful submissions after which a job is failed (§3.2: 10; 5 for the large workloads). */
  readonly retries: number;
  /** When no site is available, how long a submit host waits before asking again. */
  readonly retry_wait_s: number;
  /** How long a submit host waits for the engine's answer before asking again. */
  readonly query_timeout_s: number;
  /**
   * §4.2.4's reconciliation of what the engine sent a site with what its monitor reports: a VO's
   * use of a site is taken as at least the CPUs sent there within the last starvation_timeout_s.
   */
  readonly reconcile: boolean;
  /** DI-GRUBER: engines that share the submit hosts and tell each other what they dispatch. */
  readonly decision_points: number;
  readonly vos: Readonly<Record<string, VoPolicy>>;
  /** Per site, each VO's usage SLA. */
  readonly site_policy: Readonly<Record<string, Readonly<Record<string, VoSitePolicy>>>>;
  readonly failures: FailureSpec;
  /** Sites whose manager, at times, starts no grid job (§4.2.1); none when absent. */
  readonly misbehaving?: MisbehaviourSpec;
  /**
   * What a site does with a grid job its VO can never run there (wider than the VO's burst share
   * of the site, a share of 0 included): `refuse` it at once, a failed attempt (`too_wide`), or
   * `queue` it, where it never starts and the submit host's 20-minute re-plan takes it away.
   * Tables XI and XII have no refusal among their errors; a job that cannot start shows there as a
   * "remote local scheduling timeout". Default `refuse`.
   */
  readonly cannot_run: CannotRun;
  /** Each site's resource manager; a site not named starts what fits at once. */
  readonly managers: Readonly<Record<string, ManagerKind>>;
  /** Each kind of manager's scheduling cycle. */
  readonly manager_cycle_s: Readonly<Record<ManagerKind, number>>;
}

const OPTIONS = [
  'scheme',
  'selector',
  'monitor_period_s',
  'epoch_s',
  'starvation_timeout_s',
  'retries',
  'retry_wait_s',
  'query_timeout_s',
  'reconcile',
  'decision_points',
  'vos',
  'site_policy',
  'failures',
  'misbehaving',
  'cannot_run',
  'managers',
  'manager_cycle_s',
];
const NAME = /^[A-Za-z0-9_-]+$/;
export const CANNOT_RUN = ['refuse', 'queue'] as const;
export type CannotRun = (typeof CANNOT_RUN)[number];
const PERCENT = { min: 0, max: 100 };

export function readGruberMeta(
  _scheme: string,
  raw: Readonly<Record<string, unknown>>,
  r: FieldReader,
  context: MetaContext,
): { meta: GruberMeta; local: LocalSpec; processes: readonly string[] } {
  r.onlyKeys(raw, 'meta', OPTIONS);
  const vos = readVos(r, raw['vos']);
  const site_policy = readSitePolicy(r, raw['site_policy'], context.sites, vos);
  const meta: GruberMeta = {
    scheme: 'gruber',
    selector: r.oneOf(raw['selector'], 'meta.selector', SELECTORS, 'G-LU'),
    monitor_period_s: r.number(raw['monitor_period_s'], 'meta.monitor_period_s', POSITIVE, 60),
    epoch_s: r.number(raw['epoch_s'], 'meta.epoch_s', POSITIVE, 86_400),
    starvation_timeout_s: r.number(raw['starvation_timeout_s'], 'meta.starvation_timeout_s', POSITIVE, 1200),
    retries: r.number(raw['retries'], 'meta.retries', POSITIVE_INTEGER, 10),
    retry_wait_s: r.number(raw['retry_wait_s'], 'meta.retry_wait_s', POSITIVE, 60),
    query_timeout_s: r.number(raw['query_timeout_s'], 'meta.query_timeout_s', POSITIVE, 30),
    reconcile: r.boolean(raw['reconcile'], 'meta.reconcile', false),
    decision_points: r.number(
      raw['decision_points'],
      'meta.decision_points',
      { integer: true, min: 1, max: MAX_DECISION_POINTS },
      1,
    ),
    vos,
    site_policy,
    failures: readFailures(r, raw['failures'], context.sites),
    ...readMisbehaving(r, raw['misbehaving'], context.sites),
    cannot_run: r.oneOf(raw['cannot_run'], 'meta.cannot_run', CANNOT_RUN, 'refuse'),
    managers: readManagers(r, raw['managers'], context.sites),
    manager_cycle_s: readManagerCycles(r, raw['manager_cycle_s']),
  };
  checkMembership(r, context, meta);
  // Its processes beside the sites (plan.ts): the decision points, and the submit hosts' if any source is brokered.
  const processes = [
    ...Array.from({ length: meta.decision_points }, (_, i) => engineLocation(i + 1)),
    ...(context.workload.some(isBlastSource) ? [SUBMIT_LOCATION] : []),
  ];
  return { meta, local: context.local, processes };
}

function readVos(r: FieldReader, raw: unknown): Record<string, VoPolicy> {
  const vos: Record<string, VoPolicy> = {};
  if (raw === undefined) {
    r.fail('meta.vos', 'is required: the VOs and their groups (e.g. vos: { ivdgl: { group_share: 25 } })');
    return vos;
  }
  const o = r.object(raw, 'meta.vos') ?? {};
  const owner = new Map<string, string>();
  for (const [vo, v] of Object.entries(o)) {
    const path = join('meta.vos', vo);
    if (!NAME.test(vo)) r.fail(path, 'a VO name uses only letters, digits, "_" and "-"');
    const p = v === null || v === undefined ? {} : (r.object(v, path) ?? {});
    r.onlyKeys(p, path, ['groups', 'group_share', 'aggregate_cpus']);
    const groups: Record<string, number> = {};
    const g = p['groups'] === undefined ? {} : (r.object(p['groups'], join(path, 'groups')) ?? {});
    let total = 0;
    for (const [name, share] of Object.entries(g)) {
      const gp = join(join(path, 'groups'), name);
      if (!NAME.test(name)) r.fail(gp, 'a group name uses only letters, digits, "_" and "-"');
      const other = owner.get(name);
      if (other !== undefined)
        r.fail(gp, `group "${name}" is already a group of VO "${other}": a group belongs to one VO`);
      owner.set(name, vo);
      groups[name] = r.number(share, gp, PERCENT);
      total += groups[name];
    }
    if (total > 100 + 1e-9)
      r.fail(join(path, 'groups'), `group shares add up to ${total}%, over 100% of the VO's aggregate`);
    vos[vo] = {
      groups,
      group_share: r.number(p['group_share'], join(path, 'group_share'), PERCENT, 100),
      ...(p['aggregate_cpus'] === undefined
        ? {}
        : { aggregate_cpus: r.number(p['aggregate_cpus'], join(path, 'aggregate_cpus'), POSITIVE_INTEGER) }),
    };
  }
  if (Object.keys(vos).length === 0) r.fail('meta.vos', 'must name at least one VO');
  return vos;
}

function readSitePolicy(
  r: FieldReader,
  raw: unknown,
  sites: readonly SiteSpec[],
  vos: Record<string, VoPolicy>,
): Record<string, Record<string, VoSitePolicy>> {
  const out: Record<string, Record<string, VoSitePolicy>> = {};
  if (raw === undefined) {
    r.fail('meta.site_policy', 'is required: each VO\'s share of each site (use "*" for every site)');
    return out;
  }
  const o = r.object(raw, 'meta.site_policy') ?? {};
  const ids = new Set(sites.map((s) => s.id));
  const read = (entry: unknown, path: string): Record<string, VoSitePolicy> => {
    const m = r.object(entry, path) ?? {};
    const policy: Record<string, VoSitePolicy> = {};
    let cpu = 0;
    let disk = 0;
    for (const [vo, v] of Object.entries(m)) {
      const p = join(path, vo);
      if (!(vo in vos)) r.fail(p, `no VO "${vo}" in meta.vos (VOs: ${Object.keys(vos).join(', ')})`);
      const x = r.object(v, p) ?? {};
      r.onlyKeys(x, p, ['cpu', 'epoch', 'disk', 'burst']);
      const c = r.number(x['cpu'], join(p, 'cpu'), PERCENT);
      const b = r.number(x['burst'], join(p, 'burst'), PERCENT, c);
      if (b < c)
        r.fail(join(p, 'burst'), `must be at least cpu (${c}%): burst is how far an extensible allocation may stretch`);
      policy[vo] = {
        cpu: c,
        epoch: r.number(x['epoch'], join(p, 'epoch'), PERCENT, c),
        disk: r.number(x['disk'], join(p, 'disk'), PERCENT, c),
        burst: b,
      };
      cpu += c;
      disk += policy[vo].disk;
    }
    if (cpu > 100 + 1e-9) r.fail(path, `CPU shares add up to ${cpu}%, over 100% of the site`);
    if (disk > 100 + 1e-9) r.fail(path, `disk shares add up to ${disk}%, over 100% of the site`);
    return policy;
  };
  const fallback = o['*'] === undefined ? undefined : read(o['*'], join('meta.site_policy', '*'));
  for (const key of Object.keys(o)) {
    if (key !== '*' && !ids.has(key))
      r.fail(join('meta.site_policy', key), `no site with id "${key}" (sites: ${[...ids].join(', ')})`);
  }
  for (const s of sites) {
    const own = o[s.id] === undefined ? fallback : read(o[s.id], join('meta.site_policy', s.id));
    if (own === undefined)
      r.fail('meta.site_policy', `says nothing about site "${s.id}": give it an entry, or a "*" entry for every site`);
    out[s.id] = own ?? {};
  }
  return out;
}

function readFailures(r: FieldReader, raw: unknown, sites: readonly SiteSpec[]): FailureSpec {
  const o = raw === undefined ? {} : (r.object(raw, 'meta.failures') ?? {});
  r.onlyKeys(o, 'meta.failures', ['rate', 'site_rates', 'categories', 'misconfigured']);
  const ids = new Set(sites.map((s) => s.id));
  const site_rates: Record<string, number> = {};
  const sr = o['site_rates'] === undefined ? {} : (r.object(o['site_rates'], 'meta.failures.site_rates') ?? {});
  for (const [site, v] of Object.entries(sr)) {
    const p = join('meta.failures.site_rates', site);
    if (!ids.has(site)) r.fail(p, `no site with id "${site}"`);
    site_rates[site] = r.number(v, p, PROBABILITY);
  }
  let categories: Record<FailureCategory, number> = { ...TABLE_XII_SHARES };
  if (o['categories'] !== undefined) {
    const c = r.object(o['categories'], 'meta.failures.categories') ?? {};
    r.onlyKeys(c, 'meta.failures.categories', FAILURE_CATEGORIES);
    categories = Object.fromEntries(
      FAILURE_CATEGORIES.map((k) => [k, r.number(c[k], join('meta.failures.categories', k), NON_NEGATIVE, 0)]),
    ) as Record<FailureCategory, number>;
    if (Object.values(categories).every((w) => w === 0))
      r.fail('meta.failures.categories', 'must give at least one category a positive weight');
  }
  const misconfigured = readSiteChoice(r, o['misconfigured'] ?? [], 'meta.failures.misconfigured', ids);
  return { rate: r.number(o['rate'], 'meta.failures.rate', PROBABILITY, 0), site_rates, categories, misconfigured };
}

/** A list of site ids, or the share of the sites (0 to 1) drawn per seed. */
function readSiteChoice(r: FieldReader, raw: unknown, path: string, ids: ReadonlySet<string>): SiteChoice {
  if (typeof raw === 'number') return r.number(raw, path, PROBABILITY);
  if (!Array.isArray(raw)) {
    r.fail(
      path,
      `must be a list of site ids, or the share of the sites (0 to 1) drawn per seed (got ${JSON.stringify(raw)})`,
    );
    return [];
  }
  return raw.map((s, i) => {
    const id = r.string(s, join(path, i));
    if (!ids.has(id)) r.fail(join(path, i), `no site with id "${id}"`);
    return id;
  });
}

function readMisbehaving(r: FieldReader, raw: unknown, sites: readonly SiteSpec[]): { misbehaving?: MisbehaviourSpec } {
  if (raw === undefined) return {};
  const path = 'meta.misbehaving';
  const o = r.object(raw, path) ?? {};
  r.onlyKeys(o, path, ['sites', 'mean_episode_s', 'mean_between_s']);
  const ids = new Set(sites.map((s) => s.id));
  let prone: SiteChoice = 0;
  if (o['sites'] === undefined)
    r.fail(join(path, 'sites'), 'is required: a list of site ids, or the share of the sites (0 to 1) drawn per seed');
  else prone = readSiteChoice(r, o['sites'], join(path, 'sites'), ids);
  return {
    misbehaving: {
      sites: prone,
      mean_episode_s: r.number(o['mean_episode_s'], join(path, 'mean_episode_s'), POSITIVE),
      mean_between_s: r.number(o['mean_between_s'], join(path, 'mean_between_s'), POSITIVE),
    },
  };
}

function readManagers(r: FieldReader, raw: unknown, sites: readonly SiteSpec[]): Record<string, ManagerKind> {
  if (raw === undefined) return {};
  const path = 'meta.managers';
  const o = r.object(raw, path) ?? {};
  const ids = new Set(sites.map((s) => s.id));
  const named: Record<string, ManagerKind> = {};
  for (const [key, v] of Object.entries(o)) {
    if (key !== '*' && !ids.has(key)) r.fail(join(path, key), `no site with id "${key}" (or "*" for every other site)`);
    named[key] = r.oneOf(v, join(path, key), MANAGERS);
  }
  const out: Record<string, ManagerKind> = {};
  for (const s of sites) {
    const m = named[s.id] ?? named['*'];
    if (m !== undefined) out[s.id] = m;
  }
  return out;
}

function readManagerCycles(r: FieldReader, raw: unknown): Record<ManagerKind, number> {
  const path = 'meta.manager_cycle_s';
  const o = raw === undefined ? {} : (r.object(raw, path) ?? {});
  r.onlyKeys(o, path, MANAGERS);
  return Object.fromEntries(
    MANAGERS.map((m) => [m, r.number(o[m], join(path, m), NON_NEGATIVE, DEFAULT_MANAGER_CYCLE_S[m])]),
  ) as Record<ManagerKind, number>;
}

/** Every source names a known VO, and each group it names belongs to that VO. */
function checkMembership(r: FieldReader, context: MetaContext, meta: GruberMeta): void {
  const groupVo = new Map<string, string>();
  for (const [vo, p] of Object.entries(meta.vos)) for (const g of Object.keys(p.groups)) groupVo.set(g, vo);
  context.workload.forEach((source, i) => {
    const path = join('workload', i);
    const [vo, voPath, groups, groupPath] = isBlastSource(source)
      ? [source.blast.vo, join(join(path, 'blast'), 'vo'), source.blast.groups, join(join(path, 'blast'), 'groups')]
      : [source.vo, join(path, 'vo'), source.group === undefined ? [] : [source.group], join(path, 'group')];
    if (vo === undefined) {
      r.fail(voPath, 'under gruber every source names its VO (vo: ...)');
      return;
    }
    if (!(vo in meta.vos)) {
      r.fail(voPath, `no VO "${vo}" in meta.vos (VOs: ${Object.keys(meta.vos).join(', ')})`);
      return;
    }
    for (const g of groups) {
      const owner = groupVo.get(g);
      if (owner !== undefined && owner !== vo) r.fail(groupPath, `group "${g}" belongs to VO "${owner}", not "${vo}"`);
    }
    // Local load runs where its users are: its VO needs a share there.
    if (!isBlastSource(source)) {
      const local = source.site !== undefined ? [source.site] : (source.split_sites ?? []);
      for (const s of local) {
        if (!(vo in (meta.site_policy[s] ?? {})))
          r.fail(
            voPath,
            `VO "${vo}" has no share at site "${s}" (meta.site_policy), so its local jobs could never run there`,
          );
      }
    }
  });
}

/** The spec's meta as the gruber module read it. */
export function gruberMeta(spec: ExperimentSpec): GruberMeta {
  if (!(GRUBER_SCHEMES as readonly string[]).includes(spec.meta.scheme))
    throw new Error(`assertion: scheme ${spec.meta.scheme} is not GRUBER's`);
  return spec.meta as GruberMeta;
}

/** Whole CPUs of a percentage of a site (a share of 0.62% of 76 CPUs is no CPU at all). */
export function cpusOf(percent: number, cpus: number): number {
  return Math.floor((percent * cpus) / 100 + 1e-9);
}

/**
 * The CPUs a site lets a VO hold at once: its burst share in whole CPUs, and at least one where the
 * share is positive. §2.2's case 2 offers a site whenever the VO's allocation there is extensible,
 * so a positive share that rounded down to no CPU (Table II: iVDGL's 25% of hamptonu's one CPU,
 * extensible to half) made a site the engine offers and that refuses every job sent to it.
 */
export function burstCap(burstPercent: number, cpus: number): number {
  return burstPercent > 0 ? Math.max(1, cpusOf(burstPercent, cpus)) : 0;
}

/**
 * A VO's aggregate (§1.2.2): what its VO policy states, or else the CPUs its allocations add up
 * to over every site.
 */
export function voAggregate(meta: GruberMeta, sites: readonly SiteSpec[], vo: string): number {
  return (
    meta.vos[vo]?.aggregate_cpus ??
    sites.reduce((n, s) => n + cpusOf(meta.site_policy[s.id]?.[vo]?.cpu ?? 0, s.cpus), 0)
  );
}

/** The CPUs a group may hold at once across the grid: its share of its VO's aggregate. */
export function groupCap(meta: GruberMeta, sites: readonly SiteSpec[], vo: string, group: string): number {
  const policy = meta.vos[vo];
  if (!policy) return 0;
  return cpusOf(policy.groups[group] ?? policy.group_share, voAggregate(meta, sites, vo));
}
