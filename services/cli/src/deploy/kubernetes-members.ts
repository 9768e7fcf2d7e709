import { liveLocations, schemeSilence_s } from '@gridemu/live';
import type { ExperimentSpec } from '@gridemu/model';
import { stringify } from 'yaml';
import { UsageError } from '../exit-codes.js';

/** How often Kubernetes asks a member pod's /healthz. */
const PROBE_PERIOD_S = 10;
/** The port a member pod serves /metrics and /healthz on (deploy/k8s/common/members-service.yaml). */
const METRICS_PORT = 9464;
/** What every member pod is labelled: the headless Service, Prometheus and Chaos Mesh select it. */
const MEMBER_LABEL = { 'app.kubernetes.io/name': 'gridemu-site' } as const;
/** A Kubernetes object's name: a DNS-1123 label (pod names add `-0` to the StatefulSet's). */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** A label's value, which the location is as it stands (and so safe in the pod's shell command too). */
const LABEL_VALUE = /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;

/**
 * The name a location's objects take (`gridemu-<name>`): the location in lowercase, with any other
 * character than a letter, a digit or `-` made a `-` (paper 000's `Q1` becomes `q1`). Labels and
 * files keep the location as it is.
 */
function podNameOf(location: string): string {
  return location
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The Kubernetes objects of a deployment's processes, beside the credentials `gridemu credentials
 * --kubernetes` writes (deploy/k8s): a file name → its text.
 *   members.yaml        a StatefulSet of one pod per location of the experiment (`gridemu-<name>`,
 *                       podNameOf), each mounting only its own user's Secret
 *   kustomization.yaml  the Secrets: the server's configuration, the driver's user, and a Secret
 *                       per location (`gridemu-user-<name>`), and members.yaml
 * A pod per StatefulSet, rather than one StatefulSet whose pods pick their site by ordinal, because
 * the pods of one StatefulSet share their volumes: each would mount every site's password and
 * could pose as any site. Change what every member gets (image, resources) with a kustomize patch
 * whose target selects `app.kubernetes.io/name=gridemu-site`.
 */
export function kubernetesMembers(spec: ExperimentSpec, run: string): Map<string, string> {
  const members = liveLocations(spec).map((m) => ({ ...m, name: podNameOf(m.location) }));
  const taken = new Map<string, string>();
  for (const { location, name } of members) {
    if (!LABEL_VALUE.test(location) || !DNS_LABEL.test(name) || `gridemu-${name}-0`.length > 63)
      throw new UsageError(
        `location "${location}" cannot name a Kubernetes pod (gridemu-${name}-0): name it with letters, digits and "-", at most 52 characters`,
      );
    const other = taken.get(name);
    if (other !== undefined)
      throw new UsageError(`locations "${other}" and "${location}" would both be the Kubernetes pod gridemu-${name}-0`);
    taken.set(name, location);
  }
  // A site waiting for its external policy answers no probe either; Kubernetes' 3 failed probes
  // (30 s) would restart it before the policy's own limits stop the run, naming the policy.
  const probeFailures = Math.max(3, Math.ceil(schemeSilence_s(spec) / PROBE_PERIOD_S) + 1);
  const sets = members.map(({ location, service, name }) => {
    const labels = { ...MEMBER_LABEL, 'app.kubernetes.io/component': service, 'gridemu.io/location': location };
    const flag = service === 'site' ? '--site' : '--member';
    return {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: `gridemu-${name}`, labels },
      spec: {
        serviceName: 'gridemu-site',
        replicas: 1,
        selector: { matchLabels: { ...MEMBER_LABEL, 'gridemu.io/location': location } },
        template: {
          metadata: {
            labels,
            annotations: {
              'prometheus.io/scrape': 'true',
              'prometheus.io/port': String(METRICS_PORT),
              'prometheus.io/path': '/metrics',
            },
          },
          spec: {
            terminationGracePeriodSeconds: 15,
            containers: [
              {
                name: service,
                image: 'gridemu:latest',
                imagePullPolicy: 'IfNotPresent',
                command: [
                  'sh',
                  '-c',
                  `set -a; . /credentials/${location}.env; set +a; exec node /app/services/${service}/dist/main.js ${flag} ${location}`,
                ],
                env: [
                  { name: 'NATS_URL', value: 'nats://nats:4222' },
                  { name: 'GRIDEMU_RUN', value: run },
                  { name: 'GRIDEMU_HTTP_PORT', value: String(METRICS_PORT) },
                  { name: 'GRIDEMU_JOIN_TIMEOUT', value: '600' },
                ],
                ports: [{ name: 'metrics', containerPort: METRICS_PORT }],
                livenessProbe: {
                  httpGet: { path: '/healthz', port: 'metrics' },
                  periodSeconds: PROBE_PERIOD_S,
                  failureThreshold: probeFailures,
                },
                resources: { requests: { cpu: '250m', memory: '128Mi' }, limits: { memory: '512Mi' } },
                volumeMounts: [{ name: 'credentials', mountPath: '/credentials', readOnly: true }],
              },
            ],
            volumes: [{ name: 'credentials', secret: { secretName: `gridemu-user-${name}` } }],
          },
        },
      },
    };
  });
  const header =
    `# Made by gridemu credentials --kubernetes for run ${run}, from the experiment's ${members.length} ` +
    `locations; made again with the credentials, never committed.\n`;
  const kustomization = {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    resources: ['members.yaml'],
    secretGenerator: [
      { name: 'gridemu-nats-server', files: ['nats-server.conf'] },
      { name: 'gridemu-nats-driver', files: ['driver.env'] },
      ...members.map(({ location, name }) => ({ name: `gridemu-user-${name}`, files: [`${location}.env`] })),
    ],
    generatorOptions: { disableNameSuffixHash: true },
  };
  return new Map([
    ['members.yaml', header + sets.map((s) => stringify(s)).join('---\n')],
    ['kustomization.yaml', header + stringify(kustomization)],
  ]);
}
