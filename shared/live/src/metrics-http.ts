import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';

/** Answers a scrape with the registry's text exposition (a 500 with the reason if it cannot be read). */
export function respondWithMetrics(registry: Registry, res: ServerResponse<IncomingMessage>): void {
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
}

/** Starts `server` on `host:port` (port 0: a free one) and returns the port it got. */
export async function listenOn(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address();
  return typeof addr === 'object' && addr ? addr.port : port;
}
