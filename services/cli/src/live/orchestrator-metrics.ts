import { createServer } from 'node:http';
import { Counter, Registry } from 'prom-client';
import { listenOn, respondWithMetrics } from '@gridemu/live';

/** What `gridemu run` itself did to the run: the faults it injected and the processes it restarted. */
export interface FaultTally {
  /** SIGKILLs of faults.crash so far. */
  readonly crashes: number;
  /** nats-server stops of faults.nats_restart so far. */
  readonly natsRestarts: number;
  /** The delay proxies' publishes dropped (faults.drop) and held back across a partition. */
  readonly proxy: { readonly dropped: number; readonly held: number };
  /** Processes started again, by location: after a planned crash, or after a death nobody planned (live.journal). */
  readonly restarts: ReadonlyMap<string, { readonly planned: number; readonly unplanned: number }>;
}

/**
 * The orchestrator's own /metrics ("restarts and faults injected"): what a site cannot
 * see of itself, since it is the one killed or cut off. Labelled like every process's series,
 * with `site="orchestrator"`.
 */
export function orchestratorRegistry(
  labels: { readonly run: string; readonly scheme: string },
  tally: () => FaultTally,
): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ run: labels.run, site: 'orchestrator', scheme: labels.scheme });
  new Counter({
    name: 'gridemu_faults_injected_total',
    help: 'Faults gridemu run injected, by kind: crash (a SIGKILL), nats_restart (a server stop), drop (a message the delay proxies dropped), partition_hold (a message held across a partition)',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      const t = tally();
      this.reset();
      this.inc({ kind: 'crash' }, t.crashes);
      this.inc({ kind: 'nats_restart' }, t.natsRestarts);
      this.inc({ kind: 'drop' }, t.proxy.dropped);
      this.inc({ kind: 'partition_hold' }, t.proxy.held);
    },
  });
  new Counter({
    name: 'gridemu_process_restarts_total',
    help: 'Processes gridemu run started again, by process (a location) and cause: planned (faults.crash) or unplanned (a death nobody planned, under live.journal)',
    labelNames: ['process', 'cause'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [process, n] of tally().restarts) {
        this.inc({ process, cause: 'planned' }, n.planned);
        this.inc({ process, cause: 'unplanned' }, n.unplanned);
      }
    },
  });
  return registry;
}

/** Serves `registry` on /metrics at a free loopback port; returns its `host:port` and a way to stop it. */
export async function serveMetrics(registry: Registry): Promise<{ readonly address: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    if ((req.url ?? '/').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found: try /metrics\n');
      return;
    }
    respondWithMetrics(registry, res);
  });
  const port = await listenOn(server, 0, '127.0.0.1');
  return { address: `127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
