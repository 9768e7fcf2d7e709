import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../../vitest.base.js';
import { NO_LIVE_RUN } from './vitest.files.js';

// The CLI's tests start whole live runs (up to sixteen site processes, a real Prometheus,
// headless Chromium). Two such files at once on a 2-core machine starve each other's processes
// until compressed time slips and runs time out, so these files run one at a time. The files that
// start none run before them, side by side (vitest.parallel.config.ts; `npm test` runs both).
export default mergeConfig(base, defineConfig({ test: { fileParallelism: false, exclude: NO_LIVE_RUN } }));
