import { defineConfig } from 'vitest/config';
import base from '../../vitest.base.js';
import { NO_LIVE_RUN } from './vitest.files.js';

// The CLI's test files that start no live run, side by side; their report beside the live files'
// (scripts/test-totals.mjs adds up both). Spread rather than merged: mergeConfig would add these
// files to the base's include, and this report to its reporters, not put them in their place.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: NO_LIVE_RUN,
    reporters: ['default', ['json', { outputFile: 'test-results-parallel.json' }]],
  },
});
