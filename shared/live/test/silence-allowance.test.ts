import { describe, expect, it } from 'vitest';
import { parseExperiment } from '@gridemu/schemes';
import { silenceAllowance_s } from '../src/leader.js';

const grid = (meta: string, live = '') =>
  parseExperiment(
    [
      'name: s',
      'sites: [{ id: s1, cpus: 8 }, { id: s2, cpus: 8 }]',
      'workload: [{ site: s1, synthetic: { jobs: 5 } }]',
      `meta: ${meta}`,
      live,
    ].join('\n') + '\n',
    's.yaml',
  ).spec;

describe("the driver's allowance for a silent process", () => {
  it('is 10 s, or 60 s with a journal, for a scheme that never blocks a process', () => {
    expect(silenceAllowance_s(grid('{ scheme: k-distributed, k: 2 }'))).toBe(10);
    expect(silenceAllowance_s(grid('{ scheme: k-distributed, k: 2 }', 'live: { journal: true }'))).toBe(60);
  });

  it("is 5 s past the external policy's longer limit, its start-up's by default", () => {
    const external = (limits: string) => grid(`{ scheme: external, command: [python3, p.py]${limits} }`);
    expect(silenceAllowance_s(external(''))).toBe(35);
    expect(silenceAllowance_s(external(', answer_timeout_s: 50'))).toBe(55);
    expect(silenceAllowance_s(external(', answer_timeout_s: 1, startup_timeout_s: 2'))).toBe(10);
  });
});
