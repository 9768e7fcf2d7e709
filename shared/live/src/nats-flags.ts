import type { ConnectionOptions } from '@nats-io/transport-node';

/** The command-line options every live process shares, each defaulting to its environment variable. */
export function natsFlagOptions(env: NodeJS.ProcessEnv = process.env) {
  return {
    nats: { type: 'string', default: env['NATS_URL'] ?? 'nats://127.0.0.1:4222' },
    user: { type: 'string', default: env['NATS_USER'] },
    password: { type: 'string', default: env['NATS_PASSWORD'] },
    token: { type: 'string', default: env['NATS_TOKEN'] },
    run: { type: 'string', default: env['GRIDEMU_RUN'] },
    'log-level': { type: 'string', default: env['GRIDEMU_LOG_LEVEL'] ?? 'info' },
  } as const;
}

/** How to connect, from those options: the server, credentials, and a name naming the process. */
export function natsConnectOptions(v: { nats?: string; user?: string; password?: string; token?: string }, name: string): ConnectionOptions {
  return {
    servers: v.nats ?? 'nats://127.0.0.1:4222',
    name,
    ...(v.user ? { user: v.user, pass: v.password ?? '' } : {}),
    ...(v.token ? { token: v.token } : {}),
  };
}
