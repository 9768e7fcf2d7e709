import { describe, expect, it } from 'vitest';
import { parseSpecText, POSITIVE_INTEGER, SpecError, type MetaSchemes } from '../src/index.js';

/** Two made-up families: the model must know neither, only the seam. */
const schemes: MetaSchemes = {
  names: ['alpha', 'beta'],
  defaultScheme: 'alpha',
  reservedLocations: ['hub'],
  faultTolerant: [],
  readMeta: (scheme, raw, r, context) => {
    const known = scheme === 'alpha' ? ['scheme', 'width'] : ['scheme', 'depth'];
    r.onlyKeys(raw, 'meta', known);
    const meta = scheme === 'alpha' ? { scheme, width: r.number(raw['width'], 'meta.width', POSITIVE_INTEGER, 1) } : { scheme, depth: 2 };
    return { meta, local: scheme === 'beta' ? { policy: 'fcfs' } : context.local };
  },
};

const spec = (meta: string, sites = '[{ id: s1, cpus: 4 }]') => `name: t\nsites: ${sites}\nworkload: [{ site: s1, synthetic: { jobs: 3 } }]\n${meta}`;
const issues = (text: string) => {
  try {
    parseSpecText(text, 'e.yaml', schemes);
  } catch (err) {
    return (err as SpecError).issues.map((i) => `${i.line ?? '-'} ${i.path}: ${i.message}`);
  }
  return [];
};

describe('meta: is read by the module that owns the scheme', () => {
  it("defaults the scheme, and hands the rest of meta to its module, which may set the local policy", () => {
    expect(parseSpecText(spec(''), 'e.yaml', schemes).spec.meta).toEqual({ scheme: 'alpha', width: 1 });
    const beta = parseSpecText(spec('meta: { scheme: beta }\n'), 'e.yaml', schemes).spec;
    expect([beta.meta, beta.local]).toEqual([{ scheme: 'beta', depth: 2 }, { policy: 'fcfs' }]);
  });

  it("names an option of another module's scheme as an unknown field, with its line", () => {
    expect(issues(spec('meta: { scheme: beta, width: 3 }\n'))).toEqual(['4 meta.width: unknown field (expected one of: scheme, depth)']);
  });

  it('names an unknown scheme with the known ones, and reads no options for it', () => {
    expect(issues(spec('meta: { scheme: gamma, width: 3 }\n'))).toEqual(['4 meta.scheme: must be one of: alpha, beta (got "gamma")']);
  });

  it("keeps the modules' own locations, the driver and the topic subject token out of site ids", () => {
    expect(issues(spec('', '[{ id: hub, cpus: 4 }, { id: s1, cpus: 4 }]'))).toEqual(['2 sites[0].id: "hub" is reserved (topic, driver, hub); choose another id']);
  });
});
