import { describe, expect, it } from 'vitest';
import { Rng } from '@gridemu/runtime';
import { parseExperiment, SCHEME_MODULES, type FuzzDraw } from '../src/index.js';

/** Every family is fuzzed, through its own module, and what it draws is a valid experiment of its schemes. */
describe("each family's fuzz specs", () => {
  for (const m of SCHEME_MODULES) {
    it(`${m.family} draws valid experiments of its own schemes`, () => {
      expect(m.fuzz, `${m.family} has no fuzz specs: gridemu fuzz would never draw it`).toBeDefined();
      const drawn = new Set<string>();
      for (let seed = 0; seed < 40; seed++) {
        const rng = new Rng(seed, 'fuzz-test');
        const draw: FuzzDraw = {
          rng,
          pick: (xs) => xs[rng.int(0, xs.length - 1)]!,
          head: [`name: t-${seed}`, `seed: ${seed}`],
          network: 'network: { latency_ms: 10, jitter_ms: 2 }',
          faultsFrom_s: 0,
          serverRng: new Rng(seed, 'fuzz-test-server'),
        };
        const text = m.fuzz!.spec(draw);
        const { spec } = parseExperiment(text, `${m.family}-${seed}.yaml`);
        expect(m.schemes).toContain(spec.meta.scheme);
        drawn.add(spec.meta.scheme);
      }
      // Forty draws reach more than one scheme of every family that has several.
      if (m.schemes.length > 1) expect(drawn.size).toBeGreaterThan(1);
    });
  }
});
