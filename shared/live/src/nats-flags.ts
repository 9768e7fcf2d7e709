import type { ConnectionOptions } from '@nats-io/transport-node';
import { requestInboxPrefix } from '@gridemu/protocol/wire';
import { DEFAULT_TIMER_SPIN_MS } from '@gridemu/runtime/live';
import { splitNatsUrlCredentials } from './nats-url-credentials.js';

/** The command-line options every live process shares, each defaulting to its environment variable. */
export function natsFlagOptions(env: NodeJS.ProcessEnv = process.env) {
  return {
    nats: { type: 'string', default: env['NATS_URL'] ?? 'nats://127.0.0.1:4222' },
    user: { type: 'string', default: env['NATS_USER'] },
    password: { type: 'string', default: env['NATS_PASSWORD'] },
    token: { type: 'string', default: env['NATS_TOKEN'] },
    /** Connect over TLS, trusting this CA (PEM): `gridemu run --tls` makes one per run. */
    'tls-ca': { type: 'string', default: env['NATS_CA'] },
    run: { type: 'string', default: env['GRIDEMU_RUN'] },
    'log-level': { type: 'string', default: env['GRIDEMU_LOG_LEVEL'] ?? 'info' },
    'timer-spin-ms': { type: 'string', default: env['GRIDEMU_TIMER_SPIN_MS'] ?? String(DEFAULT_TIMER_SPIN_MS) },
  } as const;
}

/** --timer-spin-ms as a number of milliseconds, or a message saying what is wrong with it. */
export function timerSpinOf(v: { 'timer-spin-ms'?: string }): number | string {
  const ms = Number(v['timer-spin-ms'] ?? DEFAULT_TIMER_SPIN_MS);
  return Number.isFinite(ms) && ms >= 0 && ms <= 100
    ? ms
    : `--timer-spin-ms must be a number of milliseconds from 0 to 100, got "${v['timer-spin-ms']}"`;
}

/**
 * How to connect, from those options: the server, credentials, and a name naming the process. A
 * user of a run gets its replies in inboxes of its own (requestInboxPrefix), the only ones its
 * permissions let it hear.
 */
export function natsConnectOptions(
  v: { nats?: string; user?: string; password?: string; token?: string; 'tls-ca'?: string; run?: string },
  name: string,
): ConnectionOptions {
  // Credentials in the URL (nats://USER:PASSWORD@host) count when no user or token is given otherwise.
  const { url, ...inUrl } = splitNatsUrlCredentials(v.nats ?? 'nats://127.0.0.1:4222');
  const given = v.user || v.token ? v : inUrl;
  return {
    servers: url,
    name,
    // A restarted server (faults.nats_restart) is back within moments: try again soon, and for ever.
    maxReconnectAttempts: -1,
    reconnectTimeWait: 50,
    ...(given.user ? { user: given.user, pass: given.password ?? '' } : {}),
    ...(given.user && v.run ? { inboxPrefix: requestInboxPrefix(v.run, given.user) } : {}),
    ...(given.token ? { token: given.token } : {}),
    ...(v['tls-ca'] ? { tls: { caFile: v['tls-ca'] } } : {}),
  };
}
