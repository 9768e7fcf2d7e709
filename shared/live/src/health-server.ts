import { createServer, type Server } from 'node:http';
import { listenOn, respondWithMetrics } from './metrics-http.js';
import { processRegistry, type MetricsSource } from './prometheus-metrics.js';

export interface HealthSource extends MetricsSource {
  readonly phase: string;
}

export interface HealthServer {
  /** `host:port` it listens on. */
  readonly address: string;
  /** Where the runtime reports each handler's wall time, and the process its NATS round trips. */
  readonly observeHandler: (role: string, wall_s: number) => void;
  readonly observeLatency: (from: string, wall_s: number) => void;
  readonly setNatsRoundTrip: (wall_s: number) => void;
  close(): Promise<void>;
}

/**
 * `/healthz` (200 while the process is joining or running, 503 once it failed) and `/metrics`
 * (processRegistry: the runtime's counters, gauges and messages, and prom-client's defaults) on
 * the process's own port.
 */
export async function startHealthServer(
  port: number,
  labels: { readonly run: string; readonly site: string },
  source: HealthSource,
): Promise<HealthServer> {
  const { registry, sync, observeHandler, observeLatency, setNatsRoundTrip } = processRegistry(labels, source);
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') {
      const ok = source.phase !== 'failed';
      res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: ok ? 'ok' : 'failed', phase: source.phase, ...labels }));
      return;
    }
    if (path === '/metrics') {
      sync();
      respondWithMetrics(registry, res);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found: try /healthz or /metrics\n');
  });
  const actual = await listenOn(server, port, '0.0.0.0');
  return {
    address: `127.0.0.1:${actual}`,
    observeHandler,
    observeLatency,
    setNatsRoundTrip,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
