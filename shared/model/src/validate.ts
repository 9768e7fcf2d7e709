import { FAULT_KINDS, readFaults } from './faults.js';
import {
  FieldReader,
  join,
  NON_NEGATIVE,
  NON_NEGATIVE_INTEGER,
  POSITIVE,
  POSITIVE_INTEGER,
  PROBABILITY,
} from './field-reader.js';
import type { SpecIssue } from './spec-error.js';
import type { MetaSchemes, SourceKindReader } from './meta-schemes.js';
import {
  LOCAL_POLICIES,
  LUBLIN_DEFAULTS,
  type ExperimentSpec,
  type LublinClassParams,
  type LublinParams,
  type NetworkSpec,
  type SiteSpec,
  type SourceCommon,
  type TransferSpec,
  type WorkloadSource,
} from './spec.js';

const TOP_KEYS = [
  'name',
  'seed',
  'sites',
  'workload',
  'local',
  'meta',
  'network',
  'live',
  'faults',
  'protocol_trace',
  'description',
] as const;
const LOCAL_KEYS = ['policy'];
const LIVE_KEYS = ['speedup', 'journal', 'report_interval_ms', 'warm_up_jobs'];
const NETWORK_KEYS = ['latency_ms', 'jitter_ms', 'matrix', 'transfer'];
/** Where a section's field belongs, named in the error for one written at the top of the file. */
const SECTION_FIELDS: Readonly<Record<string, string>> = Object.fromEntries([
  ['scheme', 'meta.scheme'],
  ...LOCAL_KEYS.map((k) => [k, `local.${k}`]),
  ...LIVE_KEYS.map((k) => [k, `live.${k}`]),
  ...NETWORK_KEYS.map((k) => [k, `network.${k}`]),
  ...FAULT_KINDS.map((k) => [k, `faults.${k}`]),
]);
/** The keys of a source every kind shares, and those of the trace files and models gridemu reads itself. */
const SOURCE_KEYS = [
  'name',
  'site',
  'sites',
  'swf',
  'gwf',
  'batsim',
  'synthetic',
  'jobs',
  'skip',
  'shift_h',
  'runtime_scale',
  'exact_estimates',
  'equal_width',
  'lenient',
  'vo',
  'group',
] as const;
const LUBLIN_KEYS = [
  'model',
  'jobs',
  'uhi',
  'arrival_scale',
  'estimate_factor',
  'start_hour',
  'classes',
  'batch',
  'interactive',
] as const;
const CLASS_KEYS = Object.keys(LUBLIN_DEFAULTS.batch);

/** The kinds of source gridemu reads itself (a trace file in one of three formats, a workload model). */
const CORE_KINDS = ['swf', 'gwf', 'batsim', 'synthetic'];

/** Ids a site may not take: bus subject tokens and the run-wide driver (the schemes add their own). */
const RESERVED_SITE_IDS = ['topic', 'driver'];

/**
 * Checks a parsed experiment file and fills in defaults; `meta:` is read by the scheme module that
 * owns its scheme. Never throws: every problem becomes an issue.
 */
export function validateSpec(
  raw: unknown,
  schemes: MetaSchemes,
): { spec: ExperimentSpec | undefined; issues: SpecIssue[] } {
  const reserved = [...RESERVED_SITE_IDS, ...schemes.reservedLocations];
  const r = new FieldReader();
  const top = r.object(raw, '');
  if (!top) return { spec: undefined, issues: r.issues };
  r.onlyKeys(top, '', TOP_KEYS, SECTION_FIELDS);

  const name = r.string(top['name'], 'name');
  // The default results folder is results/<name>: a name must not climb out of it or name it.
  if (/[/\\]/.test(name) || name === '.' || name === '..')
    r.fail('name', `must be a name, not a path: no / or \\, not . or .. (got ${JSON.stringify(name)})`);
  const seed = r.number(top['seed'], 'seed', NON_NEGATIVE_INTEGER, 1);

  const sites: SiteSpec[] = [];
  const siteList = r.array(top['sites'], 'sites') ?? [];
  if (siteList.length === 0 && Array.isArray(top['sites'])) r.fail('sites', 'must list at least one site');
  siteList.forEach((s, i) => {
    const path = join('sites', i);
    const o = r.object(s, path);
    if (!o) return;
    r.onlyKeys(o, path, ['id', 'cpus', 'speed', 'disk_gb']);
    const id = r.string(o['id'], join(path, 'id'));
    const cpus = r.number(o['cpus'], join(path, 'cpus'), POSITIVE_INTEGER);
    const extra = {
      ...(o['speed'] !== undefined ? { speed: r.number(o['speed'], join(path, 'speed'), POSITIVE) } : {}),
      ...(o['disk_gb'] !== undefined ? { disk_gb: r.number(o['disk_gb'], join(path, 'disk_gb'), NON_NEGATIVE) } : {}),
    };
    // Site ids name actors and, in live runs, NATS subject tokens: no dots, slashes or wildcards.
    if (id && !/^[A-Za-z0-9_-]+$/.test(id))
      r.fail(join(path, 'id'), `must use only letters, digits, "_" and "-" (got "${id}")`);
    // Reserved ids name other things on the bus and in results (`topic`, `driver`, the schemes' own locations).
    if (reserved.includes(id))
      r.fail(join(path, 'id'), `"${id}" is reserved (${reserved.join(', ')}); choose another id`);
    if (sites.some((x) => x.id === id)) r.fail(join(path, 'id'), `duplicate site id "${id}"`);
    sites.push({ id, cpus, ...extra });
  });
  const siteIds = new Set(sites.map((s) => s.id));

  const workload: WorkloadSource[] = [];
  const sourceList = r.array(top['workload'], 'workload') ?? [];
  if (sourceList.length === 0 && Array.isArray(top['workload'])) r.fail('workload', 'must list at least one source');
  sourceList.forEach((w, i) => {
    const source = readSource(r, w, join('workload', i), i, siteIds, schemes.familySources);
    if (!source) return;
    if (workload.some((x) => x.name === source.name)) {
      r.fail(
        join(join('workload', i), 'name'),
        `duplicate source name "${source.name}" (job ids would clash; give each source its own name)`,
      );
    }
    workload.push(source);
  });

  const localRaw = top['local'] === undefined ? {} : (r.object(top['local'], 'local') ?? {});
  r.onlyKeys(localRaw, 'local', LOCAL_KEYS);
  const local = { policy: r.oneOf(localRaw['policy'], 'local.policy', LOCAL_POLICIES, 'easy') };

  const metaRaw = top['meta'] === undefined ? {} : (r.object(top['meta'], 'meta') ?? {});
  const before = r.issues.length;
  const scheme = r.oneOf(metaRaw['scheme'], 'meta.scheme', schemes.names, schemes.defaultScheme);
  const {
    meta,
    local: localSpec,
    processes,
  } = r.issues.length > before
    ? { meta: { scheme }, local, processes: undefined }
    : schemes.readMeta(scheme, metaRaw, r, { sites, local, workload });

  const network = readNetwork(r, top['network'], siteIds);
  workload.forEach((source, i) => {
    if (schemes.sourceKinds(meta.scheme).includes(source.kind)) return;
    const takers = schemes.names.filter((n) => schemes.sourceKinds(n).includes(source.kind));
    r.fail(
      join('workload', i),
      `scheme "${meta.scheme}" does not take ${source.kind} sources (${takers.length > 0 ? `those that do: ${takers.join(', ')}` : 'no scheme does'})`,
    );
  });

  const liveRaw = top['live'] === undefined ? {} : (r.object(top['live'], 'live') ?? {});
  r.onlyKeys(liveRaw, 'live', LIVE_KEYS);
  const journal = r.boolean(liveRaw['journal'], 'live.journal', false);
  const reportInterval =
    liveRaw['report_interval_ms'] === undefined
      ? undefined
      : r.number(liveRaw['report_interval_ms'], 'live.report_interval_ms', NON_NEGATIVE);
  const warmUpJobs =
    liveRaw['warm_up_jobs'] === undefined
      ? undefined
      : r.number(liveRaw['warm_up_jobs'], 'live.warm_up_jobs', { integer: true, min: 0, max: 10_000 });
  const live = {
    speedup: r.number(liveRaw['speedup'], 'live.speedup', POSITIVE, 1000),
    ...(journal ? { journal } : {}),
    ...(reportInterval !== undefined ? { report_interval_ms: reportInterval } : {}),
    ...(warmUpJobs !== undefined ? { warm_up_jobs: warmUpJobs } : {}),
  };

  const faults = readFaults(
    r,
    top['faults'],
    siteIds,
    new Set([...siteIds, ...(processes ?? schemes.reservedLocations)]),
  );
  if (top['faults'] !== undefined && !schemes.faultTolerant.includes(meta.scheme)) {
    r.fail(
      'faults',
      `scheme "${meta.scheme}" does not recover from faults yet (those that do: ${schemes.faultTolerant.join(', ')})`,
    );
  }
  if (journal && !schemes.faultTolerant.includes(meta.scheme)) {
    r.fail(
      'live.journal',
      `scheme "${meta.scheme}" does not recover from a restart yet (those that do: ${schemes.faultTolerant.join(', ')})`,
    );
  }

  const protocolTrace = r.boolean(top['protocol_trace'], 'protocol_trace', false);

  if (r.issues.length > 0) return { spec: undefined, issues: r.issues };
  return {
    spec: {
      name,
      seed,
      sites,
      workload,
      local: localSpec,
      meta,
      network,
      live,
      faults,
      ...(protocolTrace ? { protocol_trace: true } : {}),
    },
    issues: [],
  };
}

function readSource(
  r: FieldReader,
  raw: unknown,
  path: string,
  index: number,
  siteIds: Set<string>,
  familySources: readonly SourceKindReader[],
): WorkloadSource | undefined {
  const o = r.object(raw, path);
  if (!o) return undefined;
  r.onlyKeys(o, path, [...SOURCE_KEYS, ...familySources.flatMap((f) => [f.kind, ...(f.keys ?? [])])]);

  let site: string | undefined;
  let split_sites: string[] | undefined;
  if (o['site'] !== undefined && o['sites'] !== undefined) r.fail(path, 'give either site or sites, not both');
  if (o['site'] !== undefined) {
    site = r.string(o['site'], join(path, 'site'));
    if (site && !siteIds.has(site))
      r.fail(join(path, 'site'), `no site with id "${site}" (sites: ${[...siteIds].join(', ')})`);
  } else if (o['sites'] !== undefined) {
    const list = r.array(o['sites'], join(path, 'sites')) ?? [];
    split_sites = list.map((s, j) => r.string(s, join(join(path, 'sites'), j)));
    split_sites.forEach((s, j) => {
      if (!siteIds.has(s)) r.fail(join(join(path, 'sites'), j), `no site with id "${s}"`);
    });
    if (list.length === 0) r.fail(join(path, 'sites'), 'must list at least one site');
  } else if (siteIds.size === 1) {
    site = [...siteIds][0];
  } else {
    split_sites = [...siteIds];
  }

  const common: SourceCommon = {
    name: r.string(o['name'], join(path, 'name'), site ?? `w${index}`),
    ...(site !== undefined ? { site } : {}),
    ...(split_sites !== undefined ? { split_sites } : {}),
    ...(o['jobs'] !== undefined ? { jobs: r.number(o['jobs'], join(path, 'jobs'), POSITIVE_INTEGER) } : {}),
    skip: r.number(o['skip'], join(path, 'skip'), NON_NEGATIVE_INTEGER, 0),
    shift_h: r.number(o['shift_h'], join(path, 'shift_h'), NON_NEGATIVE, 0),
    runtime_scale: r.number(o['runtime_scale'], join(path, 'runtime_scale'), POSITIVE, 1),
    exact_estimates: r.boolean(o['exact_estimates'], join(path, 'exact_estimates'), false),
    equal_width: r.boolean(o['equal_width'], join(path, 'equal_width'), false),
    ...(o['vo'] !== undefined ? { vo: r.string(o['vo'], join(path, 'vo')) } : {}),
    ...(o['group'] !== undefined ? { group: r.string(o['group'], join(path, 'group')) } : {}),
  };
  if (common.name.includes('!'))
    r.fail(join(path, 'name'), 'must not contain "!" (it separates the source from the job number in job ids)');

  const kinds = [...CORE_KINDS, ...familySources.map((f) => f.kind)].filter((k) => o[k] !== undefined);
  if (kinds.length !== 1) {
    r.fail(
      path,
      `needs exactly one of swf, gwf or batsim (a trace file), synthetic (a workload model)${familySources
        .map((f) => `, ${f.kind} (${f.describe})`)
        .join('')}`,
    );
    return undefined;
  }
  const kind = kinds[0]!;
  for (const family of familySources) {
    if (family.kind === kind) continue;
    for (const k of family.keys ?? [])
      if (o[k] !== undefined) r.fail(join(path, k), `applies only to a ${family.kind} source`);
  }
  const family = familySources.find((f) => f.kind === kind);
  if (family) {
    if (o['lenient'] !== undefined) r.fail(join(path, 'lenient'), 'applies only to line-based traces (swf, gwf)');
    const own = family.read(o, r, path, common);
    if (own === undefined) return undefined;
    for (const k of Object.keys(own))
      if (k === 'kind' || k in common)
        throw new Error(`assertion: a ${kind} source's reader sets the common field "${k}"`);
    return { ...common, kind, ...own };
  }
  if (kind === 'gwf' || kind === 'batsim') {
    if (kind === 'batsim' && o['lenient'] !== undefined)
      r.fail(join(path, 'lenient'), 'applies only to line-based traces (swf, gwf)');
    return {
      ...common,
      kind: 'swf',
      format: kind,
      swf: r.string(o[kind], join(path, kind)),
      lenient: kind === 'gwf' && r.boolean(o['lenient'], join(path, 'lenient'), false),
    };
  }
  if (kind === 'swf') {
    return {
      ...common,
      kind: 'swf',
      format: 'swf',
      swf: r.string(o['swf'], join(path, 'swf')),
      lenient: r.boolean(o['lenient'], join(path, 'lenient'), false),
    };
  }
  if (o['lenient'] !== undefined) r.fail(join(path, 'lenient'), 'applies only to line-based traces (swf, gwf)');
  const synthetic = readLublin(r, o['synthetic'], join(path, 'synthetic'));
  return synthetic ? { ...common, kind: 'synthetic', synthetic } : undefined;
}

function readLublin(r: FieldReader, raw: unknown, path: string): LublinParams | undefined {
  const o = r.object(raw, path);
  if (!o) return undefined;
  r.onlyKeys(o, path, LUBLIN_KEYS);
  r.oneOf(o['model'], join(path, 'model'), ['lublin99'], 'lublin99');
  const readClass = (key: 'batch' | 'interactive'): LublinClassParams => {
    const p = join(path, key);
    const c = o[key] === undefined ? {} : (r.object(o[key], p) ?? {});
    r.onlyKeys(c, p, CLASS_KEYS);
    const d = LUBLIN_DEFAULTS[key];
    const num = (name: keyof LublinClassParams, rule = {}) => r.number(c[name], join(p, name), rule, d[name]);
    return {
      serial_prob: num('serial_prob', PROBABILITY),
      pow2_prob: num('pow2_prob', PROBABILITY),
      ulow: num('ulow', NON_NEGATIVE),
      umed: num('umed', NON_NEGATIVE),
      uprob: num('uprob', PROBABILITY),
      a1: num('a1', POSITIVE),
      b1: num('b1', POSITIVE),
      a2: num('a2', POSITIVE),
      b2: num('b2', POSITIVE),
      pa: num('pa'),
      pb: num('pb'),
      aarr: num('aarr', POSITIVE),
      barr: num('barr', POSITIVE),
      anum: num('anum', POSITIVE),
      bnum: num('bnum', POSITIVE),
      arar: num('arar', POSITIVE),
    };
  };
  return {
    model: 'lublin99',
    jobs: r.number(o['jobs'], join(path, 'jobs'), POSITIVE_INTEGER),
    ...(o['uhi'] !== undefined ? { uhi: r.number(o['uhi'], join(path, 'uhi'), POSITIVE) } : {}),
    arrival_scale: r.number(o['arrival_scale'], join(path, 'arrival_scale'), POSITIVE, 1),
    estimate_factor: r.number(o['estimate_factor'], join(path, 'estimate_factor'), { min: 1 }, 1),
    start_hour: r.number(o['start_hour'], join(path, 'start_hour'), { integer: true, min: 0, max: 23 }, 0),
    classes: r.oneOf(o['classes'], join(path, 'classes'), ['both', 'batch', 'interactive'] as const, 'both'),
    batch: readClass('batch'),
    interactive: readClass('interactive'),
  };
}

function readNetwork(r: FieldReader, raw: unknown, siteIds: Set<string>): NetworkSpec {
  const o = raw === undefined ? {} : (r.object(raw, 'network') ?? {});
  r.onlyKeys(o, 'network', NETWORK_KEYS);
  const latency_ms = r.number(o['latency_ms'], 'network.latency_ms', NON_NEGATIVE, 0);
  const jitter_ms = r.number(o['jitter_ms'], 'network.jitter_ms', NON_NEGATIVE, 0);
  let transfer: TransferSpec | undefined;
  if (o['transfer'] !== undefined) {
    const t = r.object(o['transfer'], 'network.transfer') ?? {};
    r.onlyKeys(t, 'network.transfer', ['bandwidth_mbps', 'memory_mb_min', 'memory_mb_max']);
    transfer = {
      bandwidth_mbps: r.number(t['bandwidth_mbps'], 'network.transfer.bandwidth_mbps', POSITIVE),
      memory_mb_min: r.number(t['memory_mb_min'], 'network.transfer.memory_mb_min', NON_NEGATIVE, 100),
      memory_mb_max: r.number(t['memory_mb_max'], 'network.transfer.memory_mb_max', NON_NEGATIVE, 1000),
    };
    if (transfer.memory_mb_max < transfer.memory_mb_min)
      r.fail('network.transfer.memory_mb_max', 'must be at least memory_mb_min');
  }
  if (o['matrix'] === undefined) return { latency_ms, jitter_ms, ...(transfer ? { transfer } : {}) };
  const matrix: Record<string, Record<string, number>> = {};
  const m = r.object(o['matrix'], 'network.matrix') ?? {};
  for (const [from, row] of Object.entries(m)) {
    const p = join('network.matrix', from);
    if (!siteIds.has(from)) r.fail(p, `no site with id "${from}"`);
    const rowObj = r.object(row, p) ?? {};
    matrix[from] = {};
    for (const [to, v] of Object.entries(rowObj)) {
      if (!siteIds.has(to)) r.fail(join(p, to), `no site with id "${to}"`);
      matrix[from]![to] = r.number(v, join(p, to), NON_NEGATIVE);
    }
  }
  return { latency_ms, jitter_ms, matrix, ...(transfer ? { transfer } : {}) };
}
