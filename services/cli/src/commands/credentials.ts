import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { deploymentCredentials } from '@gridemu/live';
import { parseOverride } from '@gridemu/model';
import { checkRunId } from '@gridemu/runtime';
import { loadExperiment } from '@gridemu/schemes';
import { EXIT_OK, UsageError } from '../exit-codes.js';

export const CREDENTIALS_HELP = `Usage: gridemu credentials SPEC --run ID --out DIR [--set path=value]... [--store-dir DIR] [--multi-host]

Makes the NATS credentials of a deployment (docker-compose, Kubernetes) of the experiment as run
ID: a user per process (each location's, and the driver's), each held to the permissions gridemu
run gives its own (docs/faults.md, "Credentials"). Writes, readable by the owner only:
  DIR/nats-server.conf   the server's configuration: port 4222, monitoring 8222, JetStream in
                         --store-dir (default /data/jetstream), and the users
  DIR/<name>.env         NATS_USER and NATS_PASSWORD for the process <name> (s1.env, driver.env)
With --multi-host (deploy/compose/multi-host), also a user per delay-proxy sidecar
(proxy-s1.env...) and DIR/hub-auth.conf and DIR/leaf-auth.conf, which the hub's and the leaf's
configurations include: the users, and the leaf node's login on the hub.
New passwords each time: make them where you deploy, keep them out of version control, and make
them again to rotate them (docs/deploy.md). The run id is part of every permission: the processes
must run with GRIDEMU_RUN=ID.`;

export async function credentialsCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      run: { type: 'string' },
      out: { type: 'string' },
      set: { type: 'string', multiple: true },
      'store-dir': { type: 'string' },
      'multi-host': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(CREDENTIALS_HELP);
    return EXIT_OK;
  }
  if (positionals.length !== 1) throw new UsageError(`credentials takes one experiment file\n\n${CREDENTIALS_HELP}`);
  if (!values.run || !values.out)
    throw new UsageError(`credentials needs --run ID and --out DIR\n\n${CREDENTIALS_HELP}`);
  try {
    checkRunId(values.run);
  } catch (err) {
    throw new UsageError(`--run: ${(err as Error).message}`);
  }
  const { spec } = loadExperiment(positionals[0]!, (values.set ?? []).map(parseOverride));
  const out = resolve(values.out);
  mkdirSync(out, { recursive: true, mode: 0o700 });
  const files = deploymentCredentials(spec, values.run, {
    ...(values['store-dir'] ? { storeDir: values['store-dir'] } : {}),
    multiHost: values['multi-host'] === true,
  });
  for (const [name, text] of files) writeFileSync(join(out, name), text, { mode: 0o600 });
  console.log(
    `wrote ${files.size} files to ${out}: nats-server.conf and ${[...files.keys()].filter((f) => f.endsWith('.env')).join(', ')}`,
  );
  return EXIT_OK;
}
