import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCoreSource, parseOverride, parseOverrides, SpecError } from '@gridemu/model';
import { loadExperiment, parseExperiment as parseSpecText } from '../src/index.js';

const GOOD = `name: t
seed: 3
sites:
  - { id: s1, cpus: 10 }
  - { id: s2, cpus: 20 }
workload:
  - { site: s1, swf: trace.swf, jobs: 100 }
  - { sites: [s1, s2], synthetic: { jobs: 50 } }
local: { policy: easy }
meta: { scheme: independent }
`;

function issuesOf(text: string, sets: string[] = []) {
  try {
    parseSpecText(text, 'exp.yaml', parseOverrides(sets));
  } catch (e) {
    if (e instanceof SpecError) return e;
    throw e;
  }
  throw new Error('expected a SpecError');
}

describe('experiment file validation', () => {
  it('accepts a good file and fills in defaults', () => {
    const { spec } = parseSpecText(GOOD, 'exp.yaml');
    expect(spec.seed).toBe(3);
    expect(spec.network).toEqual({ latency_ms: 0, jitter_ms: 0 });
    expect(spec.workload[0]).toMatchObject({
      kind: 'swf',
      name: 's1',
      site: 's1',
      jobs: 100,
      skip: 0,
      shift_h: 0,
      runtime_scale: 1,
    });
    expect(spec.workload[1]).toMatchObject({ kind: 'synthetic', name: 'w1', split_sites: ['s1', 's2'] });
    const synthetic = spec.workload[1]!;
    if (isCoreSource(synthetic) && synthetic.kind === 'synthetic') expect(synthetic.synthetic.batch.a2).toBe(639.1);
    else expect.unreachable('a synthetic source');
  });

  it('names the field, the reason and the line', () => {
    const bad = GOOD.replace('{ id: s2, cpus: 20 }', '{ id: s2, cpus: -4 }');
    const e = issuesOf(bad);
    expect(e.issues).toEqual([{ path: 'sites[1].cpus', message: 'must be a positive integer (got -4)', line: 5 }]);
    expect(e.message).toContain('exp.yaml:5: sites[1].cpus: must be a positive integer (got -4)');
  });

  it("says where a section's field belongs when it is written at the top, and which key or value a typo meant", () => {
    const messages = (text: string, sets: string[] = []) =>
      issuesOf(text, sets).issues.map((i) => `${i.path}: ${i.message.replace(/ \(expected one of: [^)]*\)/, '')}`);
    expect(messages(`${GOOD}latency_ms: 10\nspeedup: 500\n`)).toEqual([
      'latency_ms: unknown field; did you mean network.latency_ms?',
      'speedup: unknown field; did you mean live.speedup?',
    ]);
    // The key a sweep's user tried for the number of copies: the scheme's section is named.
    expect(messages(GOOD, ['scheme.k=2'])).toEqual([
      'scheme: unknown field; did you mean meta.scheme? (from --set scheme.k=2)',
    ]);
    expect(messages(`${GOOD}live: { speed_up: 500 }\nnetwork: { latency: 10 }\n`)).toEqual([
      'network.latency: unknown field; did you mean latency_ms?',
      'live.speed_up: unknown field; did you mean speedup?',
    ]);
    // Nothing close: no guess.
    expect(messages(`${GOOD}network: { hops: 3 }\n`)).toEqual(['network.hops: unknown field']);
    // A value misspelt, among those a field takes.
    const scheme = issuesOf(GOOD.replace('scheme: independent', 'scheme: k-distibuted')).issues;
    expect(scheme.map((i) => `${i.path}: ${i.message}`)).toEqual([
      expect.stringMatching(/^meta\.scheme: must be one of: .* \(got "k-distibuted"\); did you mean k-distributed\?$/),
    ]);
  });

  it('takes protocol_trace: true or false, keeps it only when true, and names a value that is neither (issue 15)', () => {
    expect(parseSpecText(GOOD, 'exp.yaml').spec.protocol_trace).toBeUndefined();
    expect(parseSpecText(`${GOOD}protocol_trace: true\n`, 'exp.yaml').spec.protocol_trace).toBe(true);
    expect(parseSpecText(`${GOOD}protocol_trace: false\n`, 'exp.yaml').spec.protocol_trace).toBeUndefined();
    const e = issuesOf(`${GOOD}protocol_trace: yes please\n`);
    expect(e.issues.map((i) => i.path)).toEqual(['protocol_trace']);
  });

  it('takes live.report_interval_ms in wall ms, 0 or more, and keeps it only when given (issue 15)', () => {
    expect(parseSpecText(GOOD, 'exp.yaml').spec.live).toEqual({ speedup: 1000 });
    expect(parseSpecText(`${GOOD}live: { speedup: 500, report_interval_ms: 0 }\n`, 'exp.yaml').spec.live).toEqual({
      speedup: 500,
      report_interval_ms: 0,
    });
    const e = issuesOf(`${GOOD}live: { report_interval_ms: -5 }\n`);
    expect(e.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      'live.report_interval_ms: must be a non-negative number (got -5)',
    ]);
  });

  it('takes live.warm_up_jobs as a whole number of jobs, 0 to turn the warm-up off, and keeps it only when given', () => {
    expect(parseSpecText(`${GOOD}live: { warm_up_jobs: 0 }\n`, 'exp.yaml').spec.live).toEqual({
      speedup: 1000,
      warm_up_jobs: 0,
    });
    const e = issuesOf(`${GOOD}live: { warm_up_jobs: 2.5 }\n`);
    expect(e.issues.map((i) => i.path)).toEqual(['live.warm_up_jobs']);
    expect(issuesOf(`${GOOD}live: { warm_up_jobs: -1 }\n`).issues.map((i) => i.path)).toEqual(['live.warm_up_jobs']);
  });

  it('reports every problem at once: unknown fields, bad enums, dangling site ids, duplicates', () => {
    const bad = `name: t
sites:
  - { id: s1, cpus: 10 }
  - { id: s1, cpus: 2.5 }
workload:
  - { site: s9, swf: a.swf, jobz: 3 }
  - { site: s1 }
local: { policy: lifo }
meta: { scheme: independent, k: 5 }
`;
    const paths = issuesOf(bad).issues.map((i) => `${i.path}: ${i.message}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'sites[1].cpus: must be a positive integer (got 2.5)',
        'sites[1].id: duplicate site id "s1"',
        'workload[0].jobz: unknown field (expected one of: name, site, sites, swf, gwf, batsim, synthetic, jobs, skip, shift_h, runtime_scale, exact_estimates, equal_width, lenient, vo, group, blast, tasks, tornado, wfformat, instances, interarrival_s, arrivals); did you mean jobs?',
        'workload[0].site: no site with id "s9" (sites: s1)',
        'workload[1]: needs exactly one of swf, gwf or batsim (a trace file), synthetic (a workload model), blast (a bag of BLAST tasks), tasks (divisible tasks), tornado (generated DAG jobs), wfformat (a WfCommons workflow, replayed)',
        'local.policy: must be one of: fcfs, easy, dual-easy (got "lifo")',
        'meta.k: must be at most the number of sites (2)',
      ]),
    );
  });

  it('keeps site ids usable as actor names and NATS subject tokens', () => {
    const e = issuesOf(GOOD.replace('id: s2,', 'id: "s.2",').replace('[s1, s2]', '[s1]'));
    expect(e.issues).toEqual([
      { path: 'sites[1].id', message: 'must use only letters, digits, "_" and "-" (got "s.2")', line: 5 },
    ]);
  });

  it('says where YAML itself is broken', () => {
    const e = issuesOf('name: t\nsites: [\n');
    expect(e.issues[0]!.message).toMatch(/not valid YAML/);
    expect(e.issues[0]!.line).toBeGreaterThan(0);
  });

  it('points a missing field at its parent', () => {
    const e = issuesOf(GOOD.replace('name: t\n', ''));
    expect(e.issues).toEqual([{ path: 'name', message: 'is required', line: 1 }]);
  });
});

describe('scheme and policy together', () => {
  it('runs k-dual on dual-queue EASY, and refuses it on FCFS', () => {
    expect(
      parseSpecText(GOOD, 'e.yaml', [parseOverride('meta.scheme=k-dual'), parseOverride('meta.k=2')]).spec.local.policy,
    ).toBe('dual-easy');
    const e = issuesOf(GOOD, ['meta.scheme=k-dual', 'local.policy=fcfs']);
    expect(e.issues.map((i) => i.path)).toEqual(['local.policy']);
  });
});

describe('--set overrides', () => {
  it('changes any field, by dotted path or list index', () => {
    const { spec } = parseSpecText(
      GOOD,
      'exp.yaml',
      parseOverrides([
        'meta.k=2',
        'sites[1].cpus=64',
        'workload.0.shift_h=2.5',
        'network.latency_ms=15',
        'local.policy=fcfs',
      ]),
    );
    expect(spec.meta.k).toBe(2);
    expect(spec.sites[1]!.cpus).toBe(64);
    expect(spec.workload[0]!.shift_h).toBe(2.5);
    expect(spec.network.latency_ms).toBe(15);
    expect(spec.local.policy).toBe('fcfs');
  });

  it('says which --set made a field invalid', () => {
    const e = issuesOf(GOOD, ['sites[0].cpus=zero']);
    expect(e.issues[0]).toEqual({
      path: 'sites[0].cpus',
      message: 'must be a positive integer (got "zero") (from --set sites[0].cpus=zero)',
    });
    // A field only the override made is the override's, not the line of the file above it.
    const unknown = issuesOf(GOOD, ['metta.k=2']).issues[0]!;
    expect(unknown.path).toBe('metta');
    expect(unknown.message).toMatch(/^unknown field .* \(from --set metta\.k=2\)$/);
    expect(unknown.message).toContain('did you mean meta?');
    expect(unknown.line).toBeUndefined();
    // An issue at a field of the file stays the file's, whatever an override set under it.
    const inFile = issuesOf(GOOD.replace('{ scheme: independent }', '{ scheme: independent, kk: 1 }'), ['meta.k=2'])
      .issues[0]!;
    expect(inFile.path).toBe('meta.kk');
    expect(inFile.message).not.toContain('from --set');
    expect(inFile.line).toBe(10);
  });

  it('refuses a name that is a path, an integer past exact, and shows .nan and .inf as they are', () => {
    for (const name of ['../../etc', 'a/b', 'a\\b', '.', '..'])
      expect(issuesOf(GOOD, [`name=${name}`]).issues.map((i) => i.path)).toEqual(['name']);
    expect(parseSpecText(GOOD, 'exp.yaml', parseOverrides(['name=..hidden-ok'])).spec.name).toBe('..hidden-ok');
    expect(issuesOf(GOOD, ['seed=99999999999999999999']).issues[0]!.message).toBe(
      'must be a non-negative integer under 2^53 (got 100000000000000000000) (from --set seed=99999999999999999999)',
    );
    expect(issuesOf(GOOD, ['network.latency_ms=.nan']).issues[0]!.message).toMatch(/^must be .* \(got NaN\)/);
    expect(issuesOf(GOOD, ['network.latency_ms=.inf']).issues[0]!.message).toMatch(/\(got Infinity\)/);
  });

  it('rejects malformed overrides', () => {
    expect(() => parseOverride('meta.k')).toThrow(/expected path=value/);
    expect(() => parseOverride('a..b=1')).toThrow(/cannot read the path/);
    expect(() => parseSpecText(GOOD, 'exp.yaml', [parseOverride('sites[7].cpus=1')])).toThrow(/past the end of a list/);
  });

  it("names the option an override came from (a sweep's --vary)", () => {
    expect(() => parseOverride('a..b=1', '--vary')).toThrow(/^--vary: cannot read the path/);
    expect(() => parseSpecText(GOOD, 'exp.yaml', [parseOverride('sites[7].cpus=1', '--vary')])).toThrow(
      /^--vary sites\[7\]\.cpus=1: index 7 is past the end/,
    );
    expect(() => parseSpecText(GOOD, 'exp.yaml', [parseOverride('sites[0].cpus=zero', '--vary')])).toThrow(
      /sites\[0\]\.cpus: must be a positive integer \(got "zero"\) \(from --vary sites\[0\]\.cpus=zero\)/,
    );
  });
});

describe('an experiment file that cannot be read', () => {
  it('names a missing file and a folder, at the top level', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gridemu-spec-'));
    expect(() => loadExperiment(dir)).toThrow(
      `invalid experiment file ${dir}:\n  (top level): is a folder, not an experiment file`,
    );
    expect(() => loadExperiment(join(dir, 'none.yaml'))).toThrow('cannot read the file (ENOENT)');
  });
});
