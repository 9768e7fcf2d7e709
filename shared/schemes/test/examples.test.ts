import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../src/index.js';

const EXAMPLES = resolve(fileURLToPath(import.meta.url), '../../../../examples');

describe('every example experiment file', () => {
  for (const name of readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml'))) {
    it(`${name} is valid`, () => {
      expect(() => loadExperiment(join(EXAMPLES, name))).not.toThrow();
    });
  }
});
