import type { ExperimentSpec } from '@gridemu/model';
import { controlSenderSubjects, controlWildcard } from '@gridemu/protocol/wire';
import { liveLocations } from './members.js';
import { inboxesOf, newPassword, runCredentials, type ProcessCredentials } from './run-credentials.js';

/** Seconds a client has to authenticate once connected (many containers start at once). */
const AUTH_TIMEOUT_S = 20;

export interface DeploymentCredentialOptions {
  /** Where the server keeps JetStream (the one-host nats-server.conf). */
  readonly storeDir?: string;
  /**
   * Several hosts (deploy/compose/multi-host): a user per delay-proxy sidecar (`proxy-<location>`,
   * which only hears the control plane), a leaf-node user, and the hub's and the leaf's auth files.
   */
  readonly multiHost?: boolean;
}

/**
 * What a deployment's nats-server and processes need to run `spec` as run `run` with a NATS user
 * per process, held to the permissions `gridemu run` gives its own: a file name → its text.
 *   nats-server.conf   the one-host server's whole configuration (JSON, which nats-server reads):
 *                      client port 4222, monitoring on 8222, JetStream in `storeDir`, the users
 *   <name>.env         NATS_USER and NATS_PASSWORD of each location's process and of the driver
 *   with multiHost:    hub-auth.conf and leaf-auth.conf, for the hub's and the leaf's
 *                      configuration to include (the users, and the leaf node's login on the hub),
 *                      and proxy-<location>.env for each delay-proxy sidecar
 * Made fresh each time (new passwords): they are generated, never committed.
 */
export function deploymentCredentials(
  spec: ExperimentSpec,
  run: string,
  options: DeploymentCredentialOptions = {},
): Map<string, string> {
  const locations = liveLocations(spec).map((l) => l.location);
  const users: ProcessCredentials[] = [...runCredentials(run, locations).values()].filter(
    (u) => u.user === 'driver' || locations.includes(u.user),
  );
  if (options.multiHost)
    for (const l of locations) {
      const name = `proxy-${l}`;
      // It only listens, for the driver's start (faults are timed on the run's clock).
      users.push({
        user: name,
        password: newPassword(),
        publish: [controlSenderSubjects(run, name)],
        subscribe: [controlWildcard(run), inboxesOf(run, name)],
      });
    }
  const authorization = {
    timeout: AUTH_TIMEOUT_S,
    users: users.map((u) => ({
      user: u.user,
      password: u.password,
      permissions: { publish: { allow: u.publish }, subscribe: { allow: u.subscribe } },
    })),
  };
  const config = {
    listen: '0.0.0.0:4222',
    http_port: 8222,
    jetstream: { store_dir: options.storeDir ?? '/data/jetstream' },
    authorization,
  };
  const files = new Map<string, string>([['nats-server.conf', JSON.stringify(config, null, 2) + '\n']]);
  for (const u of users) files.set(`${u.user}.env`, `NATS_USER=${u.user}\nNATS_PASSWORD=${u.password}\n`);
  if (options.multiHost) {
    // nats-server's configuration language takes JSON values: each file is included by hub.conf or leaf.conf.
    const leaf = { user: 'leaf', password: newPassword() };
    const auth = `authorization: ${JSON.stringify(authorization, null, 2)}\n`;
    files.set('hub-auth.conf', `${auth}leafnodes: ${JSON.stringify({ port: 7422, authorization: leaf }, null, 2)}\n`);
    files.set(
      'leaf-auth.conf',
      `${auth}leafnodes: ${JSON.stringify({ remotes: [{ url: `nats-leaf://${leaf.user}:${leaf.password}@hub-host:7422` }] }, null, 2)}\n`,
    );
  }
  return files;
}
