// The CLI's test files that start no live run: only simulations, reports and checks, each in
// processes of its own that ends with its test. They run side by side (vitest.parallel.config.ts);
// every other file, which starts live runs, runs one at a time (vitest.config.ts). A new file is
// therefore run alone unless it is named here.
export const NO_LIVE_RUN = [
  'test/cli-input.test.ts',
  'test/cli.test.ts',
  'test/compare.test.ts',
  'test/deploy-manifests.test.ts',
  'test/fidelity-estimate.test.ts',
  'test/fuzz-live-seed.test.ts',
  'test/grafana-dashboard.test.ts',
  'test/idle-axes.test.ts',
  'test/orchestrator-metrics.test.ts',
  'test/report-hours-axis.test.ts',
  'test/report-live-series.test.ts',
  'test/replayed-spec-note.test.ts',
  'test/report-run-series.test.ts',
  'test/run-facts.test.ts',
  'test/run-length.test.ts',
  'test/seed-spread.test.ts',
  'test/seeds-sampled.test.ts',
  'test/simulate-bundle.test.ts',
  'test/slow-consumers.test.ts',
  'test/sweep-chart.test.ts',
  'test/sweep-finished-run.test.ts',
  'test/sweep-report.test.ts',
  'test/sweep-variants.test.ts',
  'test/variant-means.test.ts',
];
