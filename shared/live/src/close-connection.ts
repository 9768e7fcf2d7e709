import type { NatsConnection } from '@nats-io/transport-node';
import { within } from './within.js';

/**
 * Drains `nc` (what was published still goes out), for at most `drain_ms`: a drain needs the
 * server, and with the server gone (stopped with the rest by a signal to the whole process group,
 * or its proxy dead) it never ends. Then closes the connection, so its reconnect loop does not keep
 * the process alive.
 */
export async function closeConnection(nc: NatsConnection, drain_ms = 3000): Promise<void> {
  await within(
    drain_ms,
    nc.drain().catch(() => undefined),
  );
  if (!nc.isClosed())
    await within(
      1000,
      nc.close().catch(() => undefined),
    );
}
