import { connect, type ConnectionOptions, type NatsConnection } from '@nats-io/transport-node';

/** How long a process keeps trying its first connection while the server is not there. */
export const FIRST_CONNECT_RETRY_MS = 30_000;
/**
 * How long one try waits for the server's greeting before it is given up and made again. A try made
 * as the server was stopping (faults.nats_restart) got a connection and never a greeting, and
 * waited out the client's default of 20 s: the driver, hearing nothing from the restarted process
 * for 10 s, aborted the run (docs/faults.md).
 */
export const FIRST_CONNECT_HANDSHAKE_MS = 3000;
/** The pause between two tries. */
const FIRST_CONNECT_PAUSE_MS = 100;

/**
 * A process's first connection to NATS. A process restarted after a crash may find the server
 * itself restarting (faults.nats_restart, a pod of NATS replaced): it tries again for a while, as
 * it would to reconnect, each try bounded by `handshake_ms`. A refusal (a wrong password, no such
 * user) is final at once. Resolves the connection, or the last try's error as a message.
 */
export async function connectFirst(
  options: ConnectionOptions,
  retry_ms = FIRST_CONNECT_RETRY_MS,
  handshake_ms = FIRST_CONNECT_HANDSHAKE_MS,
): Promise<{ nc: NatsConnection; tries: number } | { error: string }> {
  const until = Date.now() + retry_ms;
  for (let tries = 1; ; tries++) {
    try {
      return { nc: await connect({ ...options, timeout: handshake_ms }), tries };
    } catch (err) {
      const message = (err as Error).message;
      if (/authoriz|authenticat|permission/i.test(message) || Date.now() > until) return { error: message };
      await new Promise((r) => setTimeout(r, FIRST_CONNECT_PAUSE_MS));
    }
  }
}
