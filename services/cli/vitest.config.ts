import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../../vitest.base.js';

// The CLI's tests start whole live runs (up to sixteen site processes, a real Prometheus,
// headless Chromium). Two such files at once on a 2-core machine starve each other's processes
// until compressed time slips and runs time out, so this package runs its files one at a time.
export default mergeConfig(base, defineConfig({ test: { fileParallelism: false } }));
