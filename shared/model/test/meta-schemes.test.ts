import { describe, expect, it } from 'vitest';
import {
  fieldPath,
  parseSpecText,
  POSITIVE_INTEGER,
  SpecError,
  type MetaSchemes,
  type SourceKindReader,
} from '../src/index.js';

/** A made-up family's kind of source: chains of `length` jobs, `copies` times (a key of its own). */
const chain: SourceKindReader = {
  kind: 'chain',
  describe: 'chains of jobs',
  keys: ['copies'],
  read(o, r, path) {
    for (const k of ['jobs', 'skip'])
      if (o[k] !== undefined) r.fail(fieldPath(path, k), 'does not apply to a chain source');
    const c = r.object(o['chain'], fieldPath(path, 'chain'));
    if (!c) return undefined;
    r.onlyKeys(c, fieldPath(path, 'chain'), ['length']);
    return {
      chain: { length: r.number(c['length'], fieldPath(fieldPath(path, 'chain'), 'length'), POSITIVE_INTEGER, 3) },
      copies: r.number(o['copies'], fieldPath(path, 'copies'), POSITIVE_INTEGER, 1),
    };
  },
};

/** Two made-up families: the model must know neither, only the seam. */
const schemes: MetaSchemes = {
  names: ['alpha', 'beta'],
  defaultScheme: 'alpha',
  reservedLocations: ['hub'],
  faultTolerant: [],
  // beta runs chains, and synthetic jobs, but no trace.
  sourceKinds: (scheme) => (scheme === 'beta' ? ['synthetic', 'chain'] : ['swf', 'synthetic']),
  familySources: [chain],
  readMeta: (scheme, raw, r, context) => {
    const known = scheme === 'alpha' ? ['scheme', 'width'] : ['scheme', 'depth'];
    r.onlyKeys(raw, 'meta', known);
    const meta =
      scheme === 'alpha'
        ? { scheme, width: r.number(raw['width'], 'meta.width', POSITIVE_INTEGER, 1) }
        : { scheme, depth: 2 };
    return { meta, local: scheme === 'beta' ? { policy: 'fcfs' } : context.local };
  },
};

const spec = (meta: string, sites = '[{ id: s1, cpus: 4 }]', workload = '[{ site: s1, synthetic: { jobs: 3 } }]') =>
  `name: t\nsites: ${sites}\nworkload: ${workload}\n${meta}`;
const issues = (text: string) => {
  try {
    parseSpecText(text, 'e.yaml', schemes);
  } catch (err) {
    return (err as SpecError).issues.map((i) => `${i.line ?? '-'} ${i.path}: ${i.message}`);
  }
  return [];
};

describe('meta: is read by the module that owns the scheme', () => {
  it('defaults the scheme, and hands the rest of meta to its module, which may set the local policy', () => {
    expect(parseSpecText(spec(''), 'e.yaml', schemes).spec.meta).toEqual({ scheme: 'alpha', width: 1 });
    const beta = parseSpecText(spec('meta: { scheme: beta }\n'), 'e.yaml', schemes).spec;
    expect([beta.meta, beta.local]).toEqual([{ scheme: 'beta', depth: 2 }, { policy: 'fcfs' }]);
  });

  it("names an option of another module's scheme as an unknown field, with its line", () => {
    expect(issues(spec('meta: { scheme: beta, width: 3 }\n'))).toEqual([
      '4 meta.width: unknown field (expected one of: scheme, depth)',
    ]);
  });

  it('names an unknown scheme with the known ones, and reads no options for it', () => {
    expect(issues(spec('meta: { scheme: gamma, width: 3 }\n'))).toEqual([
      '4 meta.scheme: must be one of: alpha, beta (got "gamma")',
    ]);
  });

  it('takes each kind of source only under a scheme that runs it, naming those that do', () => {
    const chains = '[{ site: s1, chain: { length: 5 }, copies: 2 }]';
    expect(issues(spec('meta: { scheme: alpha }\n', undefined, chains))).toEqual([
      '3 workload[0]: scheme "alpha" does not take chain sources (those that do: beta)',
    ]);
    expect(issues(spec('meta: { scheme: beta }\n', undefined, '[{ site: s1, swf: t.swf }]'))).toEqual([
      '3 workload[0]: scheme "beta" does not take swf sources (those that do: alpha)',
    ]);
    const source = parseSpecText(spec('meta: { scheme: beta }\n', undefined, chains), 'e.yaml', schemes).spec
      .workload[0];
    expect(source).toMatchObject({ kind: 'chain', name: 's1', site: 's1', chain: { length: 5 }, copies: 2 });
  });

  it("lists the families' kinds of source, and refuses what a family's source does not take", () => {
    expect(issues(spec('meta: { scheme: beta }\n', undefined, '[{ site: s1, swf: t.swf, chain: {} }]'))).toEqual([
      '3 workload[0]: needs exactly one of swf, gwf or batsim (a trace file), synthetic (a workload model), chain (chains of jobs)',
    ]);
    expect(issues(spec('meta: { scheme: beta }\n', undefined, '[{ site: s1, chain: {}, jobs: 4 }]'))).toEqual([
      '3 workload[0].jobs: does not apply to a chain source',
    ]);
    expect(
      issues(spec('meta: { scheme: beta }\n', undefined, '[{ site: s1, chain: { length: 0 }, lenient: true }]')),
    ).toEqual([
      '3 workload[0].lenient: applies only to line-based traces (swf, gwf)',
      '3 workload[0].chain.length: must be a positive integer (got 0)',
    ]);
    expect(
      issues(spec('meta: { scheme: alpha }\n', undefined, '[{ site: s1, synthetic: { jobs: 3 }, copies: 2 }]')),
    ).toEqual(['3 workload[0].copies: applies only to a chain source']);
    expect(
      issues(spec('meta: { scheme: alpha }\n', undefined, '[{ site: s1, synthetic: { jobs: 3 }, links: 2 }]')),
    ).toEqual([
      '3 workload[0].links: unknown field (expected one of: name, site, sites, swf, gwf, batsim, synthetic, jobs, skip, shift_h, runtime_scale, exact_estimates, equal_width, lenient, vo, group, chain, copies)',
    ]);
  });

  it("keeps the modules' own locations, the driver and the topic subject token out of site ids", () => {
    expect(issues(spec('', '[{ id: hub, cpus: 4 }, { id: s1, cpus: 4 }]'))).toEqual([
      '2 sites[0].id: "hub" is reserved (topic, driver, hub); choose another id',
    ]);
  });
});
