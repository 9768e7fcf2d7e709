import { describe, expect, it } from 'vitest';
import { parseSpecText, POSITIVE_INTEGER, SpecError, type MetaSchemes } from '../src/index.js';

/** Two made-up families: the model must know neither, only the seam. */
const schemes: MetaSchemes = {
  names: ['alpha', 'beta'],
  defaultScheme: 'alpha',
  reservedLocations: ['hub'],
  faultTolerant: [],
  // beta runs DAG jobs, and synthetic ones, but no trace.
  sourceKinds: (scheme) =>
    scheme === 'beta' ? ['synthetic', 'tornado', 'wfformat'] : ['swf', 'synthetic', 'blast', 'tasks'],
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
    const tornado = '[{ site: s1, tornado: { jobs: 2, parallel: 5 } }]';
    expect(issues(spec('meta: { scheme: alpha }\n', undefined, tornado))).toEqual([
      '3 workload[0]: scheme "alpha" does not take tornado sources (those that do: beta)',
    ]);
    expect(issues(spec('meta: { scheme: beta }\n', undefined, '[{ site: s1, swf: t.swf }]'))).toEqual([
      '3 workload[0]: scheme "beta" does not take swf sources (those that do: alpha)',
    ]);
    const dag = parseSpecText(spec('meta: { scheme: beta }\n', undefined, tornado), 'e.yaml', schemes).spec.workload[0];
    expect(dag).toMatchObject({
      kind: 'tornado',
      tornado: {
        jobs: 2,
        parallel: 5,
        variation: 'high',
        median_s: 1800,
        batch_size: 5,
        batch_gap_h: 1,
        day_share: 0.8,
      },
    });
    const wf = '[{ site: s1, wfformat: montage.json, instances: 3, interarrival_s: 600 }]';
    expect(
      parseSpecText(spec('meta: { scheme: beta }\n', undefined, wf), 'e.yaml', schemes).spec.workload[0],
    ).toMatchObject({ kind: 'wfformat', wfformat: 'montage.json', instances: 3, interarrival_s: 600 });
  });

  it('names what a DAG source cannot take', () => {
    expect(
      issues(
        spec(
          'meta: { scheme: beta }\n',
          undefined,
          '[{ site: s1, wfformat: m.json, jobs: 4, tornado: { jobs: 1, parallel: 2 } }]',
        ),
      ),
    ).toEqual([
      '3 workload[0]: needs exactly one of swf, gwf or batsim (a trace file), synthetic (a workload model), blast (a bag of BLAST tasks), tasks (divisible tasks), tornado or wfformat (DAG jobs)',
    ]);
    expect(issues(spec('meta: { scheme: beta }\n', undefined, '[{ site: s1, wfformat: m.json, jobs: 4 }]'))).toEqual([
      '3 workload[0].jobs: does not apply to the tasks of DAG jobs (a wfformat source)',
    ]);
    expect(
      issues(
        spec(
          'meta: { scheme: beta }\n',
          undefined,
          '[{ site: s1, tornado: { jobs: 1, parallel: 2, variation: wild } }]',
        ),
      ),
    ).toEqual(['3 workload[0].tornado.variation: must be one of: high, medium, low (got "wild")']);
    expect(
      issues(spec('meta: { scheme: alpha }\n', undefined, '[{ site: s1, synthetic: { jobs: 3 }, instances: 2 }]')),
    ).toEqual(['3 workload[0].instances: applies only to a wfformat source']);
  });

  it("keeps the modules' own locations, the driver and the topic subject token out of site ids", () => {
    expect(issues(spec('', '[{ id: hub, cpus: 4 }, { id: s1, cpus: 4 }]'))).toEqual([
      '2 sites[0].id: "hub" is reserved (topic, driver, hub); choose another id',
    ]);
  });
});
