import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseCommandArgs } from '../command-args.js';
import { deploymentCredentials } from '@gridemu/live';
import { parseOverrides } from '@gridemu/model';
import { checkRunId } from '@gridemu/runtime';
import { loadExperiment } from '@gridemu/schemes';
import { kubernetesMembers } from '../deploy/kubernetes-members.js';
import { EXIT_OK, UsageError } from '../exit-codes.js';
import { makeOutputFolder } from '../output-folder.js';

export const CREDENTIALS_HELP = `Usage: gridemu credentials SPEC --run ID --out DIR [--set path=value]... [--store-dir DIR]
                           [--multi-host | --kubernetes]

Makes the NATS credentials of a deployment (docker-compose, Kubernetes) of the experiment as run
ID: a user per process (each location's, and the driver's), each held to the permissions gridemu
run gives its own (docs/faults.md, "Credentials"). Writes, readable by the owner only:
  DIR/nats-server.conf   the server's configuration: port 4222, monitoring 8222, JetStream in
                         --store-dir (default /data/jetstream), and the users
  DIR/<name>.env         NATS_USER and NATS_PASSWORD for the process <name> (s1.env, driver.env)
With --multi-host (deploy/compose/multi-host), also a user per delay-proxy sidecar
(proxy-s1.env...) and DIR/hub-auth.conf and DIR/leaf-auth.conf, which the hub's and the leaf's
configurations include: the users, and the leaf node's login on the hub.
With --kubernetes (deploy/k8s), also DIR/members.yaml, a StatefulSet of one pod per location
(gridemu-<location>) that mounts only its own user's Secret, and DIR/kustomization.yaml, which
makes the Secrets (a kustomization's resources list DIR).
New passwords each time: make them where you deploy, keep them out of version control, and make
them again to rotate them (docs/deploy.md). The run id is part of every permission: the processes
must run with GRIDEMU_RUN=ID.`;

export async function credentialsCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('credentials', {
    args: argv,
    allowPositionals: true,
    options: {
      run: { type: 'string' },
      out: { type: 'string' },
      set: { type: 'string', multiple: true },
      'store-dir': { type: 'string' },
      'multi-host': { type: 'boolean' },
      kubernetes: { type: 'boolean' },
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
  if (values['multi-host'] && values.kubernetes)
    throw new UsageError(
      `--multi-host is for docker-compose and --kubernetes for Kubernetes: give one\n\n${CREDENTIALS_HELP}`,
    );
  const { spec } = loadExperiment(positionals[0]!, parseOverrides(values.set ?? []));
  const out = resolve(values.out);
  const files = deploymentCredentials(spec, values.run, {
    ...(values['store-dir'] ? { storeDir: values['store-dir'] } : {}),
    multiHost: values['multi-host'] === true,
  });
  const manifests = values.kubernetes ? kubernetesMembers(spec, values.run) : new Map<string, string>();
  makeOutputFolder(out, '--out', 0o700);
  for (const [name, text] of [...files, ...manifests]) writeFileSync(join(out, name), text, { mode: 0o600 });
  console.log(
    `wrote ${files.size + manifests.size} files to ${out}: nats-server.conf, ${[...files.keys()].filter((f) => f.endsWith('.env')).join(', ')}` +
      (manifests.size > 0 ? `, ${[...manifests.keys()].join(', ')}` : ''),
  );
  return EXIT_OK;
}
