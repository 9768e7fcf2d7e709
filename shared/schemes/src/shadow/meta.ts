import {
  NON_NEGATIVE,
  POSITIVE,
  fieldPath as join,
  type ExperimentSpec,
  type FieldReader,
  type LocalSpec,
  type MetaContext,
  type MetaSpec,
} from '@gridemu/model';
import { Rng } from '@gridemu/runtime';
import type { ErrorModel } from './estimates.js';
import { ROUTER_LOCATION, SHADOW_SCHEMES, type RouterScheme } from './names.js';

export interface ShadowMeta extends MetaSpec {
  readonly scheme: RouterScheme;
  /** η of Figure 1. */
  readonly eta: number;
  readonly errors: ErrorModel;
  /** Each site's true execution rate μ, in site order, or the range they are drawn from with the seed. */
  readonly speeds: readonly number[] | { readonly uniform: readonly [number, number] };
  /** The scheduler's links to the resources (§4: 10 Mbps), which its messages share in turn. */
  readonly link_mbps: number;
  /** Size of one state query or answer on that link. */
  readonly state_message_bytes: number;
  /** Mean size of a task's input, sent with it to its resource. */
  readonly task_bytes: number;
  /** Mean size of a task's output, sent back to the scheduler when it ends (resource's link, then the scheduler's). */
  readonly task_output_bytes: number;
  /** Each task's sizes are the means × a uniform factor in [1 − spread, 1 + spread] (task-data.ts). */
  readonly task_size_spread: number;
  /** MCT and JSQ* decide with the answers they have after this long. */
  readonly query_timeout_s: number;
  /**
   * Periods a resource is away from the grid, [leave, join) in emulated seconds: the scheduler
   * sends it nothing then (it finishes what it holds). By site id; sorted, not overlapping.
   */
  readonly away: Readonly<Record<string, readonly (readonly [number, number])[]>>;
  /**
   * `shadow-classes` only (and required there): the task classes' lengths, in seconds at rate 1,
   * ascending. The class-based algorithm assumes the classes are known in advance (§3.2).
   */
  readonly class_lengths_s: readonly number[];
}

const OPTIONS = [
  'scheme',
  'eta',
  'errors',
  'speeds',
  'link_mbps',
  'state_message_bytes',
  'task_bytes',
  'task_output_bytes',
  'task_size_spread',
  'query_timeout_s',
  'away',
  'class_lengths_s',
];

/**
 * `speeds:` is a list with one rate per site, or a distribution drawn from the spec's seed:
 * `{ uniform: [lo, hi] }`; without it each site's own `speed` (1 when absent).
 */
export function readShadowMeta(
  scheme: string,
  raw: Readonly<Record<string, unknown>>,
  r: FieldReader,
  context: MetaContext,
): { meta: ShadowMeta; local: LocalSpec; processes: readonly string[] } {
  r.onlyKeys(raw, 'meta', OPTIONS);
  const e = raw['errors'] === undefined ? {} : (r.object(raw['errors'], 'meta.errors') ?? {});
  r.onlyKeys(e, 'meta.errors', ['model', 'I', 'apply']);
  const meta: ShadowMeta = {
    scheme: scheme as RouterScheme,
    eta: r.number(raw['eta'], 'meta.eta', POSITIVE, 1 / 300),
    errors: {
      model: r.oneOf(e['model'], 'meta.errors.model', ['over-under', 'over'], 'over-under'),
      I: r.number(e['I'], 'meta.errors.I', { min: 0, max: 0.99 }, 0),
      apply: r.oneOf(e['apply'], 'meta.errors.apply', ['lengths', 'both'], 'lengths'),
    },
    speeds: readSpeeds(r, raw['speeds'], context),
    link_mbps: r.number(raw['link_mbps'], 'meta.link_mbps', POSITIVE, 10),
    state_message_bytes: r.number(raw['state_message_bytes'], 'meta.state_message_bytes', NON_NEGATIVE, 1000),
    task_bytes: r.number(raw['task_bytes'], 'meta.task_bytes', NON_NEGATIVE, 0),
    task_output_bytes: r.number(raw['task_output_bytes'], 'meta.task_output_bytes', NON_NEGATIVE, 0),
    task_size_spread: r.number(raw['task_size_spread'], 'meta.task_size_spread', { min: 0, max: 0.99 }, 0),
    query_timeout_s: r.number(raw['query_timeout_s'], 'meta.query_timeout_s', POSITIVE, 60),
    away: readAway(r, raw['away'], context),
    class_lengths_s: readClassLengths(r, raw['class_lengths_s'], scheme),
  };
  return { meta, local: context.local, processes: [ROUTER_LOCATION] };
}

function readClassLengths(r: FieldReader, raw: unknown, scheme: string): number[] {
  const path = 'meta.class_lengths_s';
  if (raw === undefined) {
    if (scheme === 'shadow-classes')
      r.fail(path, 'is required by shadow-classes: one length per task class, ascending');
    return [];
  }
  if (scheme !== 'shadow-classes') r.fail(path, `is for shadow-classes only (scheme is ${scheme})`);
  const list = (r.array(raw, path) ?? []).map((v, i) => r.number(v, join(path, i), POSITIVE, 1));
  if (list.length === 0) r.fail(path, 'must name at least one class length');
  list.forEach((l, i) => {
    if (i > 0 && l <= list[i - 1]!) r.fail(join(path, i), `must be longer than the class before it (${list[i - 1]})`);
  });
  return list;
}

function readAway(r: FieldReader, raw: unknown, context: MetaContext): ShadowMeta['away'] {
  if (raw === undefined) return {};
  const o = r.object(raw, 'meta.away') ?? {};
  const ids = new Set(context.sites.map((s) => s.id));
  const out: Record<string, [number, number][]> = {};
  for (const [site, v] of Object.entries(o)) {
    const path = join('meta.away', site);
    if (!ids.has(site)) r.fail(path, `no site with id "${site}"`);
    const list = r.array(v, path) ?? [];
    const periods: [number, number][] = [];
    list.forEach((p, i) => {
      const pp = join(path, i);
      const pair = r.array(p, pp) ?? [];
      if (pair.length !== 2) {
        r.fail(pp, 'must be [leave_s, join_s]');
        return;
      }
      const leave = r.number(pair[0], join(pp, 0), NON_NEGATIVE);
      const back = r.number(pair[1], join(pp, 1), NON_NEGATIVE);
      if (back <= leave) r.fail(pp, `joins (${back}) before it leaves (${leave})`);
      const last = periods.at(-1);
      if (last && leave < last[1])
        r.fail(pp, `starts before the period before it ends (${last[1]}): sort them, without overlaps`);
      periods.push([leave, back]);
    });
    out[site] = periods;
  }
  return out;
}

function readSpeeds(r: FieldReader, raw: unknown, context: MetaContext): ShadowMeta['speeds'] {
  const sites = context.sites;
  if (raw === undefined) return sites.map((s) => s.speed ?? 1);
  if (Array.isArray(raw)) {
    const list = raw.map((v, i) => r.number(v, join('meta.speeds', i), POSITIVE, 1));
    if (list.length !== sites.length)
      r.fail('meta.speeds', `gives ${list.length} speeds for ${sites.length} sites: one per site, in order`);
    return sites.map((_, i) => list[i] ?? 1);
  }
  const o = r.object(raw, 'meta.speeds') ?? {};
  r.onlyKeys(o, 'meta.speeds', ['uniform']);
  const range = r.array(o['uniform'], 'meta.speeds.uniform') ?? [];
  if (range.length !== 2) {
    r.fail('meta.speeds.uniform', 'must be [lowest, highest]');
    return sites.map(() => 1);
  }
  const lo = r.number(range[0], 'meta.speeds.uniform[0]', POSITIVE, 1);
  const hi = r.number(range[1], 'meta.speeds.uniform[1]', POSITIVE, 1);
  if (hi < lo) r.fail('meta.speeds.uniform', 'highest must be at least lowest');
  return { uniform: [lo, hi] };
}

/** The sites' true rates μ: as listed, or drawn per site from the range with the spec's seed. */
export function speedsOf(spec: ExperimentSpec): number[] {
  const s = shadowMeta(spec).speeds;
  if (Array.isArray(s)) return [...(s as readonly number[])];
  const [lo, hi] = (s as { readonly uniform: readonly [number, number] }).uniform;
  return spec.sites.map((site) => Math.round(new Rng(spec.seed, `speed/${site.id}`).uniform(lo, hi) * 1000) / 1000);
}

export function shadowMeta(spec: ExperimentSpec): ShadowMeta {
  if (!(SHADOW_SCHEMES as readonly string[]).includes(spec.meta.scheme))
    throw new Error(`assertion: scheme ${spec.meta.scheme} is not paper 004's`);
  return spec.meta as ShadowMeta;
}
