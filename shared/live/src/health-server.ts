import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { LiveRuntime } from '@gridemu/runtime/live';

export interface HealthSource {
  readonly phase: string;
  readonly runtime: LiveRuntime | undefined;
}

export interface HealthServer {
  /** `host:port` it listens on. */
  readonly address: string;
  close(): Promise<void>;
}

/**
 * `/healthz` (200 while the process is joining or running, 503 once it failed) and `/metrics`
 * (prom-client's default Node metrics, plus what the runtime counts) on the process's own port.
 */
export async function startHealthServer(port: number, labels: Record<string, string>, source: HealthSource): Promise<HealthServer> {
  const registry = new Registry();
  registry.setDefaultLabels(labels);
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'gridemu_messages_sent',
    help: 'Actor messages this process has sent in the run, by type',
    labelNames: ['type'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [type, n] of source.runtime?.messages.all ?? []) this.set({ type }, n);
    },
  });
  new Gauge({
    name: 'gridemu_runtime_events',
    help: 'Counters of the live runtime and its actors (messages.malformed, claims.denied, …)',
    labelNames: ['counter'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [counter, n] of source.runtime?.counters ?? []) this.set({ counter }, n);
    },
  });
  new Gauge({
    name: 'gridemu_emulated_time_seconds',
    help: 'Emulated time of this process clock (0 before the run starts)',
    registers: [registry],
    collect() {
      let now = 0;
      try {
        now = source.runtime?.now() ?? 0;
      } catch {
        now = 0; // the clock has not started
      }
      this.set(now);
    },
  });
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') {
      const ok = source.phase !== 'failed';
      res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: ok ? 'ok' : 'failed', phase: source.phase, ...labels }));
      return;
    }
    if (path === '/metrics') {
      registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'content-type': registry.contentType });
          res.end(text);
        },
        (err: unknown) => {
          res.writeHead(500);
          res.end(String(err));
        },
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found: try /healthz or /metrics\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '0.0.0.0', () => resolve());
  });
  const addr = server.address();
  const actual = typeof addr === 'object' && addr ? addr.port : port;
  return {
    address: `127.0.0.1:${actual}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
