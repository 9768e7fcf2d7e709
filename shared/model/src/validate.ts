import { readFaults } from './faults.js';
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
import type { MetaSchemes } from './meta-schemes.js';
import {
  LOCAL_POLICIES,
  LUBLIN_DEFAULTS,
  TASK_STREAM_DEFAULTS,
  TORNADO_DEFAULTS,
  type BlastParams,
  type ExperimentSpec,
  type LublinClassParams,
  type LublinParams,
  type NetworkSpec,
  type SiteSpec,
  type SourceCommon,
  type TasksParams,
  type TornadoSpec,
  type ListedTask,
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
const SOURCE_KEYS = [
  'name',
  'site',
  'sites',
  'swf',
  'gwf',
  'batsim',
  'synthetic',
  'blast',
  'tasks',
  'tornado',
  'wfformat',
  'instances',
  'interarrival_s',
  'arrivals',
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
/** What a DAG source (tornado, wfformat) takes besides its own fields: the options of trace lines do not apply to tasks of a DAG. */
const DAG_SOURCE_KEYS = ['name', 'site', 'sites', 'tornado', 'wfformat', 'instances', 'interarrival_s', 'arrivals'];
const TORNADO_KEYS = ['jobs', 'parallel', 'variation', ...Object.keys(TORNADO_DEFAULTS)];
const BLAST_KEYS = [
  'submitters',
  'jobs',
  'vo',
  'groups',
  'runtime_s',
  'runtime_spread',
  'interval_s',
  'input_kb',
  'output_mb',
] as const;
const TASKS_KEYS = ['stream', 'list'] as const;
const LISTED_TASK_KEYS = ['submit_s', 'work_s', 'jobs'] as const;
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
  r.onlyKeys(top, '', TOP_KEYS);

  const name = r.string(top['name'], 'name');
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
    const source = readSource(r, w, join('workload', i), i, siteIds);
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
  r.onlyKeys(localRaw, 'local', ['policy']);
  const local = { policy: r.oneOf(localRaw['policy'], 'local.policy', LOCAL_POLICIES, 'easy') };

  const metaRaw = top['meta'] === undefined ? {} : (r.object(top['meta'], 'meta') ?? {});
  const before = r.issues.length;
  const scheme = r.oneOf(metaRaw['scheme'], 'meta.scheme', schemes.names, schemes.defaultScheme);
  const { meta, local: localSpec } =
    r.issues.length > before
      ? { meta: { scheme }, local }
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
  r.onlyKeys(liveRaw, 'live', ['speedup', 'journal', 'report_interval_ms', 'warm_up_jobs']);
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

  const faults = readFaults(r, top['faults'], siteIds, new Set([...siteIds, ...schemes.reservedLocations]));
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
): WorkloadSource | undefined {
  const o = r.object(raw, path);
  if (!o) return undefined;
  r.onlyKeys(o, path, SOURCE_KEYS);

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

  const kinds = (['swf', 'gwf', 'batsim', 'synthetic', 'blast', 'tasks', 'tornado', 'wfformat'] as const).filter(
    (k) => o[k] !== undefined,
  );
  if (kinds.length !== 1) {
    r.fail(
      path,
      'needs exactly one of swf, gwf or batsim (a trace file), synthetic (a workload model), blast (a bag of BLAST tasks), tasks (divisible tasks), tornado or wfformat (DAG jobs)',
    );
    return undefined;
  }
  const kind = kinds[0]!;
  for (const k of ['instances', 'interarrival_s', 'arrivals'] as const)
    if (o[k] !== undefined && kind !== 'wfformat') r.fail(join(path, k), 'applies only to a wfformat source');
  if (kind === 'tornado' || kind === 'wfformat') {
    for (const k of Object.keys(o))
      if (!DAG_SOURCE_KEYS.includes(k))
        r.fail(join(path, k), `does not apply to the tasks of DAG jobs (a ${kind} source)`);
    if (kind === 'tornado') {
      const tornado = readTornado(r, o['tornado'], join(path, 'tornado'));
      return tornado ? { ...common, kind: 'tornado', tornado } : undefined;
    }
    return {
      ...common,
      kind: 'wfformat',
      wfformat: r.string(o['wfformat'], join(path, 'wfformat')),
      instances: r.number(o['instances'], join(path, 'instances'), POSITIVE_INTEGER, 1),
      interarrival_s: r.number(o['interarrival_s'], join(path, 'interarrival_s'), NON_NEGATIVE, 0),
      arrivals: r.oneOf(o['arrivals'], join(path, 'arrivals'), ['fixed', 'poisson'] as const, 'fixed'),
    };
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
  const hasSwf = kind === 'swf';
  if (kinds[0] === 'tasks') {
    if (o['lenient'] !== undefined) r.fail(join(path, 'lenient'), 'applies only to line-based traces (swf, gwf)');
    const tasks = readTasks(r, o['tasks'], join(path, 'tasks'));
    return tasks ? { ...common, kind: 'tasks', tasks } : undefined;
  }
  if (kinds[0] === 'blast') {
    if (o['lenient'] !== undefined) r.fail(join(path, 'lenient'), 'applies only to line-based traces (swf, gwf)');
    for (const k of ['vo', 'group'] as const)
      if (o[k] !== undefined)
        r.fail(join(path, k), `a blast source names its VO and groups under blast (blast.vo, blast.groups)`);
    const blast = readBlast(r, o['blast'], join(path, 'blast'), common.name);
    return blast ? { ...common, kind: 'blast', blast } : undefined;
  }
  if (hasSwf) {
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

function readTornado(r: FieldReader, raw: unknown, path: string): TornadoSpec | undefined {
  const o = r.object(raw, path);
  if (!o) return undefined;
  r.onlyKeys(o, path, TORNADO_KEYS);
  const d = TORNADO_DEFAULTS;
  const t: TornadoSpec = {
    jobs: r.number(o['jobs'], join(path, 'jobs'), POSITIVE_INTEGER),
    parallel: r.number(o['parallel'], join(path, 'parallel'), POSITIVE_INTEGER),
    variation: r.oneOf(o['variation'], join(path, 'variation'), ['high', 'medium', 'low'] as const, 'high'),
    median_s: r.number(o['median_s'], join(path, 'median_s'), POSITIVE, d.median_s),
    batch_size: r.number(o['batch_size'], join(path, 'batch_size'), { min: 1 }, d.batch_size),
    batch_gap_h: r.number(o['batch_gap_h'], join(path, 'batch_gap_h'), POSITIVE, d.batch_gap_h),
    day_share: r.number(o['day_share'], join(path, 'day_share'), PROBABILITY, d.day_share),
  };
  return t;
}

function readTasks(r: FieldReader, raw: unknown, path: string): TasksParams | undefined {
  const o = r.object(raw, path);
  if (!o) return undefined;
  r.onlyKeys(o, path, TASKS_KEYS);
  if (o['stream'] === undefined && o['list'] === undefined) {
    r.fail(path, 'needs a stream (generated tasks), a list (tasks one by one), or both');
    return undefined;
  }
  let stream: TasksParams['stream'];
  if (o['stream'] !== undefined) {
    const sp = join(path, 'stream');
    const so = r.object(o['stream'], sp) ?? {};
    r.onlyKeys(so, sp, ['tasks', ...Object.keys(TASK_STREAM_DEFAULTS)]);
    const d = TASK_STREAM_DEFAULTS;
    const num = (k: keyof typeof d, rule = {}) => r.number(so[k], join(sp, k), rule, d[k]);
    stream = {
      tasks: r.number(so['tasks'], join(sp, 'tasks'), POSITIVE_INTEGER),
      short_share: num('short_share', PROBABILITY),
      short_min_s: num('short_min_s', POSITIVE),
      short_max_s: num('short_max_s', POSITIVE),
      medium_share: num('medium_share', PROBABILITY),
      medium_max_s: num('medium_max_s', POSITIVE),
      tail_shape: num('tail_shape', POSITIVE),
      tail_max_s: num('tail_max_s', POSITIVE),
      burst_gap_s: num('burst_gap_s', POSITIVE),
      burst_size: num('burst_size', { min: 1 }),
      within_burst_gap_s: num('within_burst_gap_s', NON_NEGATIVE),
    };
    if (stream.short_share + stream.medium_share > 1)
      r.fail(join(sp, 'medium_share'), 'short_share + medium_share must be at most 1');
    if (!(
      stream.short_min_s < stream.short_max_s &&
      stream.short_max_s < stream.medium_max_s &&
      stream.medium_max_s <= stream.tail_max_s
    )) {
      r.fail(sp, 'needs short_min_s < short_max_s < medium_max_s <= tail_max_s');
    }
  }
  const list: ListedTask[] = [];
  if (o['list'] !== undefined) {
    const lp = join(path, 'list');
    for (const [i, item] of (r.array(o['list'], lp) ?? []).entries()) {
      const ip = join(lp, i);
      const t = r.object(item, ip);
      if (!t) continue;
      r.onlyKeys(t, ip, LISTED_TASK_KEYS);
      const jobs = t['jobs'] === undefined ? undefined : r.number(t['jobs'], join(ip, 'jobs'), POSITIVE_INTEGER);
      list.push({
        submit_s: r.number(t['submit_s'], join(ip, 'submit_s'), NON_NEGATIVE, 0),
        work_s: r.number(t['work_s'], join(ip, 'work_s'), POSITIVE),
        ...(jobs !== undefined ? { jobs } : {}),
      });
    }
  }
  return { ...(stream ? { stream } : {}), list };
}

function readBlast(r: FieldReader, raw: unknown, path: string, sourceName: string): BlastParams | undefined {
  const o = r.object(raw, path);
  if (!o) return undefined;
  r.onlyKeys(o, path, BLAST_KEYS);
  const submitters = r.number(o['submitters'], join(path, 'submitters'), POSITIVE_INTEGER, 1);
  let groups = Array.from({ length: submitters }, (_, i) => `${sourceName}-${i + 1}`);
  if (o['groups'] !== undefined) {
    const list = r.array(o['groups'], join(path, 'groups')) ?? [];
    groups = list.map((g, i) => r.string(g, join(join(path, 'groups'), i)));
    if (list.length !== submitters)
      r.fail(join(path, 'groups'), `must name one group per submitter (${submitters}), got ${list.length}`);
    if (new Set(groups).size !== groups.length)
      r.fail(join(path, 'groups'), 'must not name a group twice: each submitter is its own group');
  }
  const range = (key: 'input_kb' | 'output_mb', fallback: [number, number]): [number, number] => {
    if (o[key] === undefined) return fallback;
    const list = r.array(o[key], join(path, key)) ?? [];
    if (list.length !== 2) {
      r.fail(join(path, key), 'must be [min, max]');
      return fallback;
    }
    const lo = r.number(list[0], join(join(path, key), 0), NON_NEGATIVE);
    const hi = r.number(list[1], join(join(path, key), 1), NON_NEGATIVE);
    if (hi < lo) r.fail(join(path, key), 'max must be at least min');
    return [lo, hi];
  };
  return {
    submitters,
    jobs: r.number(o['jobs'], join(path, 'jobs'), POSITIVE_INTEGER),
    vo: r.string(o['vo'], join(path, 'vo')),
    groups,
    runtime_s: r.number(o['runtime_s'], join(path, 'runtime_s'), POSITIVE, 2400),
    runtime_spread: r.number(o['runtime_spread'], join(path, 'runtime_spread'), { min: 0, max: 0.9 }, 0.1),
    interval_s: r.number(o['interval_s'], join(path, 'interval_s'), NON_NEGATIVE, 0),
    // §3.2: a BLAST job reads 10-33 kB and writes 0.7-1.5 MB.
    input_kb: range('input_kb', [10, 33]),
    output_mb: range('output_mb', [0.7, 1.5]),
  };
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
  r.onlyKeys(o, 'network', ['latency_ms', 'jitter_ms', 'matrix', 'transfer']);
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
