import { describe, expect, it } from 'vitest';
import { orchestratorRegistry, serveMetrics } from '../src/live/orchestrator-metrics.js';

describe("gridemu run's own /metrics (issue 12: restarts and faults injected)", () => {
  it('counts each kind of fault it injected and each restart by process and cause, served over HTTP', async () => {
    const tally = {
      crashes: 3,
      natsRestarts: 1,
      proxy: { dropped: 17, held: 4 },
      restarts: new Map([
        ['s2', { planned: 2, unplanned: 0 }],
        ['central', { planned: 1, unplanned: 1 }],
      ]),
    };
    const registry = orchestratorRegistry({ run: 'r1', scheme: 'k-distributed' }, () => tally);
    const served = await serveMetrics(registry);
    try {
      const text = await (await fetch(`http://${served.address}/metrics`)).text();
      const labels = 'run="r1",site="orchestrator",scheme="k-distributed"';
      expect(text).toContain(`gridemu_faults_injected_total{kind="crash",${labels}} 3`);
      expect(text).toContain(`gridemu_faults_injected_total{kind="nats_restart",${labels}} 1`);
      expect(text).toContain(`gridemu_faults_injected_total{kind="drop",${labels}} 17`);
      expect(text).toContain(`gridemu_faults_injected_total{kind="partition_hold",${labels}} 4`);
      expect(text).toContain(`gridemu_process_restarts_total{process="s2",cause="planned",${labels}} 2`);
      expect(text).toContain(`gridemu_process_restarts_total{process="central",cause="unplanned",${labels}} 1`);
      // Read afresh on each scrape: a later crash shows up.
      tally.crashes = 4;
      expect(await (await fetch(`http://${served.address}/metrics`)).text()).toContain(
        `gridemu_faults_injected_total{kind="crash",${labels}} 4`,
      );
      expect((await fetch(`http://${served.address}/nope`)).status).toBe(404);
    } finally {
      await served.close();
    }
  });
});
