import { defineConfig } from 'vitest/config';
import cli from './vitest.config.js';

// The CLI's slow tests (test-slow/), run by `npm run test:slow` (scripts/slow-tests.mjs), not by
// `npm test`: whole live runs that take long on two cores. Their report is apart from npm test's.
// The CLI's configuration with these two fields replaced (mergeConfig would add to its lists).
export default defineConfig({
  ...cli,
  test: {
    ...cli.test,
    include: ['test-slow/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: 'test-slow-results.json' }]],
  },
});
