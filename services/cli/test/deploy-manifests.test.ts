import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deploymentCredentials } from '@gridemu/live';
import { Ajv } from 'ajv';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Service } from 'kubernetes-models/v1/Service';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { parseAllDocuments, parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseExperiment } from '@gridemu/schemes';
import { REPO } from './live-helpers.js';

/**
 * deploy/k8s and deploy/chaos, checked offline: no cluster can be made on these machines
 * (../shared/CONTAINERS.md). Every Kubernetes object is validated against the Kubernetes schema
 * (kubernetes-models), every Chaos Mesh experiment against Chaos Mesh's own CRD schema, and the
 * pieces are checked to fit together: labels, ports, names, the experiment's sites.
 */
type Doc = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
};

/**
 * A copy of deploy/k8s with its credentials made, as `gridemu credentials` makes them where one
 * deploys (they are never committed): the base's for its four sites, the sixteen-site overlay's
 * for s1..s16.
 */
function k8sWithCredentials(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gridemu-k8s-'));
  cpSync(join(REPO, 'deploy/k8s'), dir, { recursive: true });
  const base = parseExperiment(readFileSync(join(dir, 'base/experiment.yaml'), 'utf8'), 'experiment.yaml').spec;
  const sixteen = { ...base, sites: Array.from({ length: 16 }, (_, i) => ({ id: `s${i + 1}`, cpus: 128 })) };
  for (const [where, spec] of [
    ['base', base],
    ['overlays/sixteen-sites', sixteen],
  ] as const) {
    mkdirSync(join(dir, where, 'credentials'), { recursive: true });
    for (const [name, text] of deploymentCredentials(spec, 'k8s-run'))
      writeFileSync(join(dir, where, 'credentials', name), text);
  }
  return dir;
}

const K8S = k8sWithCredentials();
const CHAOS = join(REPO, 'deploy/chaos');
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/Service': Service,
  'apps/v1/StatefulSet': StatefulSet,
  'batch/v1/Job': Job,
};

function docs(file: string): Doc[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as Doc);
}

/** A kustomization's objects: its resources' documents, recursively through bases, with its patches merged (replicas and the like). */
function build(dir: string): Doc[] {
  const k = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as {
    resources?: string[];
    patches?: { path: string }[];
    namespace?: string;
    configMapGenerator?: { files: string[] }[];
    secretGenerator?: { name: string; behavior?: string; files: string[] }[];
  };
  const out: Doc[] = [];
  for (const r of k.resources ?? []) {
    const path = join(dir, r);
    expect(existsSync(path), `${dir}: resource ${r}`).toBe(true);
    out.push(...(existsSync(join(path, 'kustomization.yaml')) ? build(path) : docs(path)));
  }
  for (const g of k.configMapGenerator ?? [])
    for (const f of g.files) expect(existsSync(join(dir, f)), `${dir}: configMapGenerator file ${f}`).toBe(true);
  // Each generated Secret, as a document whose data names its files (a replace in an overlay wins).
  for (const g of k.secretGenerator ?? []) {
    for (const f of g.files) expect(existsSync(join(dir, f)), `${dir}: secretGenerator file ${f}`).toBe(true);
    const data = Object.fromEntries(g.files.map((f) => [f.split('/').pop()!, readFileSync(join(dir, f), 'utf8')]));
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: g.name }, data } as unknown as Doc;
    const at = out.findIndex((d) => d.kind === 'Secret' && d.metadata.name === g.name);
    if (at >= 0) out[at] = secret;
    else out.push(secret);
  }
  for (const p of k.patches ?? []) {
    const [patch] = docs(join(dir, p.path));
    const target = out.find((d) => d.kind === patch!.kind && d.metadata.name === patch!.metadata.name);
    expect(
      target,
      `${dir}: patch ${p.path} names ${patch!.kind}/${patch!.metadata.name}, which the base does not have`,
    ).toBeDefined();
    target!.spec = { ...target!.spec, ...patch!.spec };
  }
  if (k.namespace) for (const d of out) if (d.kind !== 'Namespace') d.metadata.namespace = k.namespace;
  return out;
}

function find(objects: Doc[], kind: string, name: string): Doc {
  const d = objects.find((o) => o.kind === kind && o.metadata.name === name);
  expect(d, `${kind}/${name}`).toBeDefined();
  return d!;
}

type PodSpec = {
  containers: {
    name: string;
    command?: string[];
    ports?: { name: string; containerPort: number }[];
    env?: { name: string; value?: string }[];
  }[];
};
type Template = { metadata: { labels: Record<string, string>; annotations?: Record<string, string> }; spec: PodSpec };

describe('deploy/k8s (issue 12)', () => {
  for (const overlay of ['base', 'overlays/sixteen-sites', 'overlays/prometheus-operator']) {
    it(`${overlay}: every object is valid Kubernetes, and the pieces fit`, () => {
      const objects = build(join(K8S, overlay));
      for (const o of objects) {
        const Model = MODELS[`${o.apiVersion}/${o.kind}`];
        if (!Model) continue; // the ServiceMonitor: checked below
        expect(() => new Model(o as never).validate(), `${o.kind}/${o.metadata.name}`).not.toThrow();
      }
      const sites = find(objects, 'StatefulSet', 'gridemu-site').spec as {
        replicas: number;
        serviceName: string;
        selector: { matchLabels: Record<string, string> };
        template: Template;
      };
      const siteService = find(objects, 'Service', sites.serviceName).spec as {
        selector: Record<string, string>;
        ports: { targetPort: string }[];
      };
      expect(siteService.selector).toEqual(sites.selector.matchLabels);
      expect(sites.template.metadata.labels).toMatchObject(sites.selector.matchLabels);
      const site = sites.template.spec.containers[0]!;
      expect(site.ports?.map((p) => p.name)).toContain(siteService.ports[0]!.targetPort);
      // The metrics port the annotations name is the one the site serves.
      expect(sites.template.metadata.annotations?.['prometheus.io/port']).toBe(String(site.ports?.[0]?.containerPort));
      expect(site.env?.find((e) => e.name === 'GRIDEMU_HTTP_PORT')?.value).toBe(String(site.ports?.[0]?.containerPort));
      // Sites and driver reach NATS by its Service's name and port.
      const nats = find(objects, 'Service', 'nats').spec as { ports: { port: number }[] };
      expect(site.env?.find((e) => e.name === 'NATS_URL')?.value).toBe(`nats://nats:${nats.ports[0]!.port}`);
      const driver = (find(objects, 'Job', 'gridemu-driver').spec as { template: Template }).template.spec
        .containers[0]!;
      expect(driver.env?.find((e) => e.name === 'GRIDEMU_RUN')?.value).toBe(
        site.env?.find((e) => e.name === 'GRIDEMU_RUN')?.value,
      );
      // NATS runs with a user per process: the server's configuration from its Secret, each site
      // and the driver their own user from theirs, held to their own subjects on both planes.
      const run = driver.env?.find((e) => e.name === 'GRIDEMU_RUN')?.value;
      const natsSet = find(objects, 'StatefulSet', 'nats').spec as {
        template: { spec: PodSpec & { volumes: { name: string; secret?: { secretName: string } }[] } };
      };
      expect(natsSet.template.spec.containers[0]!.command).toEqual([
        'nats-server',
        '-c',
        '/etc/gridemu/nats-server.conf',
      ]);
      const serverSecret = natsSet.template.spec.volumes.find((v) => v.secret)!.secret!.secretName;
      const conf = JSON.parse(
        (find(objects, 'Secret', serverSecret) as unknown as { data: Record<string, string> }).data[
          'nats-server.conf'
        ]!,
      ) as {
        authorization: { users: { user: string; publish?: unknown; permissions: { publish: { allow: string[] } } }[] };
      };
      const users = conf.authorization.users.map((u) => u.user).sort();
      const siteIds = Array.from({ length: sites.replicas }, (_, i) => `s${i + 1}`);
      expect(users).toEqual([...siteIds, 'driver'].sort());
      for (const u of conf.authorization.users)
        for (const subject of u.permissions.publish.allow.filter(
          (s) => s.startsWith(`gridemu-ctl.${run}.`) || s.startsWith(`gridemu.${run}.`),
        ))
          expect(subject.endsWith(`.${u.user}`), `${u.user} may publish ${subject}`).toBe(true);
      expect(
        conf.authorization.users.every((u) =>
          u.permissions.publish.allow.some((s) => s === `gridemu-ctl.${run}.*.${u.user}`),
        ),
      ).toBe(true);
      const siteSpec = sites.template.spec as PodSpec & { volumes: { secret?: { secretName: string } }[] };
      const sitesSecret = find(
        objects,
        'Secret',
        siteSpec.volumes.find((v) => v.secret)!.secret!.secretName,
      ) as unknown as {
        data: Record<string, string>;
      };
      expect(Object.keys(sitesSecret.data).sort()).toEqual(siteIds.map((s) => `${s}.env`).sort());
      expect(site.command?.join(' ')).toContain('. /credentials/s$((POD_INDEX + 1)).env');
      expect(driver.command?.join(' ')).toContain('. /credentials/driver.env');
      // The base experiment is valid and has a site per pod, s1..sN, and a journal for pod restarts.
      const { spec } = parseExperiment(readFileSync(join(K8S, 'base/experiment.yaml'), 'utf8'), 'experiment.yaml');
      expect(spec.live.journal).toBe(true);
      if (overlay === 'base' || overlay === 'overlays/prometheus-operator')
        expect(spec.sites.map((s) => s.id)).toEqual(Array.from({ length: sites.replicas }, (_, i) => `s${i + 1}`));
      else expect(sites.replicas).toBe(16);
      if (overlay === 'overlays/prometheus-operator') {
        const monitor = find(objects, 'ServiceMonitor', 'gridemu-site') as Doc & {
          spec: { selector: { matchLabels: Record<string, string> }; endpoints: { port: string }[] };
        };
        expect(find(objects, 'Service', 'gridemu-site').metadata.labels).toMatchObject(
          monitor.spec.selector.matchLabels,
        );
        expect(monitor.spec.endpoints[0]!.port).toBe('metrics');
      }
    });
  }

  it('the schema check can fail: a StatefulSet with a text for replicas is refused', () => {
    expect(() =>
      new StatefulSet({
        metadata: { name: 'x' },
        spec: { replicas: 'four', selector: {}, serviceName: 'x', template: {} },
      } as never).validate(),
    ).toThrow();
  });
});

describe('deploy/chaos (issue 12)', () => {
  // Formats (date-time and the like) are not checked: the experiments have no such fields.
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const schemaOf = (kind: string) => {
    const crd = parse(readFileSync(join(CHAOS, 'crds', `chaos-mesh.org_${kind.toLowerCase()}.yaml`), 'utf8')) as {
      spec: { versions: { name: string; schema: { openAPIV3Schema: object } }[] };
    };
    return ajv.compile(crd.spec.versions.find((v) => v.name === 'v1alpha1')!.schema.openAPIV3Schema);
  };
  const experiments = readdirSync(CHAOS)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => docs(join(CHAOS, f)).map((d) => ({ file: f, d })));
  const sites = build(join(K8S, 'base')).find((o) => o.kind === 'StatefulSet' && o.metadata.name === 'gridemu-site')!
    .spec as { replicas: number; template: Template };

  it("kills a site pod, delays and partitions the network: each valid against Chaos Mesh's CRD schema", () => {
    expect(experiments.map((e) => `${e.d.kind}:${(e.d.spec as { action: string }).action}`).sort()).toEqual([
      'NetworkChaos:delay',
      'NetworkChaos:partition',
      'PodChaos:pod-kill',
    ]);
    for (const { file, d } of experiments) {
      expect(d.apiVersion).toBe('chaos-mesh.org/v1alpha1');
      const validate = schemaOf(d.kind);
      expect(validate(d), `${file}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      // It selects gridemu's pods: by the sites' label or by a site pod's name.
      const selector = (
        d.spec as {
          selector: { namespaces: string[]; labelSelectors?: Record<string, string>; pods?: Record<string, string[]> };
        }
      ).selector;
      expect(selector.namespaces).toEqual(['gridemu']);
      if (selector.labelSelectors) expect(sites.template.metadata.labels).toMatchObject(selector.labelSelectors);
      for (const pod of selector.pods?.['gridemu'] ?? [])
        expect(Number(/^gridemu-site-(\d+)$/.exec(pod)?.[1])).toBeLessThan(sites.replicas);
    }
  });

  it('the schema check can fail: a PodChaos with an unknown action is refused', () => {
    const kill = experiments.find((e) => e.d.kind === 'PodChaos')!.d;
    expect(schemaOf('PodChaos')({ ...kill, spec: { ...kill.spec, action: 'pod-explode' } })).toBe(false);
  });
});
