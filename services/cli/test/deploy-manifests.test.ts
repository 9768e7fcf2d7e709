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
import { kubernetesMembers } from '../src/deploy/kubernetes-members.js';

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
 * A copy of deploy/k8s with its credentials made, and the processes' pods with them, as `gridemu
 * credentials --kubernetes` makes them where one deploys (they are never committed): the base's
 * for its four sites, the sixteen-site overlay's from its own experiment.
 */
function k8sWithCredentials(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gridemu-k8s-'));
  cpSync(join(REPO, 'deploy/k8s'), dir, { recursive: true });
  for (const where of ['base', 'overlays/sixteen-sites']) {
    const spec = experimentOf(join(dir, where));
    mkdirSync(join(dir, where, 'credentials'), { recursive: true });
    for (const [name, text] of [...deploymentCredentials(spec, 'k8s-run'), ...kubernetesMembers(spec, 'k8s-run')])
      writeFileSync(join(dir, where, 'credentials', name), text);
  }
  return dir;
}

function experimentOf(dir: string) {
  return parseExperiment(readFileSync(join(dir, 'experiment.yaml'), 'utf8'), 'experiment.yaml').spec;
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
  return docsOf(readFileSync(file, 'utf8'));
}

function docsOf(text: string): Doc[] {
  return parseAllDocuments(text).map((d) => d.toJS() as Doc);
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
    // As kustomize: a second Secret of one name only with behavior replace or merge.
    if (at >= 0)
      expect(g.behavior, `${dir}: a second Secret ${g.name}, without behavior: replace`).toMatch(/^(replace|merge)$/);
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

type MemberSet = {
  replicas: number;
  serviceName: string;
  selector: { matchLabels: Record<string, string> };
  template: Template & { spec: { volumes: { secret?: { secretName: string } }[] } };
};

/** The processes' StatefulSets (every one labelled gridemu-site), by the location each hosts. */
function memberSets(objects: Doc[]): { location: string; set: MemberSet }[] {
  return objects
    .filter((o) => o.kind === 'StatefulSet' && o.metadata.labels?.['app.kubernetes.io/name'] === 'gridemu-site')
    .map((o) => ({ location: o.metadata.labels!['gridemu.io/location']!, set: o.spec as unknown as MemberSet }));
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
      // The processes: a StatefulSet of one pod per location of the deployment's experiment.
      const experimentDir = join(K8S, overlay === 'overlays/sixteen-sites' ? overlay : 'base');
      const spec = experimentOf(experimentDir);
      expect(spec.live.journal).toBe(true);
      const locations = spec.sites.map((s) => s.id);
      expect(locations.length).toBe(overlay === 'overlays/sixteen-sites' ? 16 : 4);
      const sets = memberSets(objects);
      expect(sets.map((m) => m.location).sort()).toEqual([...locations].sort());
      const siteService = find(objects, 'Service', 'gridemu-site').spec as {
        selector: Record<string, string>;
        ports: { targetPort: string }[];
      };
      const nats = find(objects, 'Service', 'nats').spec as { ports: { port: number }[] };
      const driverJob = find(objects, 'Job', 'gridemu-driver').spec as {
        template: Template & { spec: { volumes: { secret?: { secretName: string } }[] } };
      };
      const driver = driverJob.template.spec.containers[0]!;
      const run = driver.env?.find((e) => e.name === 'GRIDEMU_RUN')?.value;
      const secretOf = (name: string) =>
        (find(objects, 'Secret', name) as unknown as { data: Record<string, string> }).data;
      for (const { location, set } of sets) {
        expect(set.replicas, location).toBe(1);
        expect(set.serviceName).toBe('gridemu-site');
        expect(set.template.metadata.labels).toMatchObject(set.selector.matchLabels);
        expect(set.template.metadata.labels).toMatchObject(siteService.selector);
        const site = set.template.spec.containers[0]!;
        expect(site.ports?.map((p) => p.name)).toContain(siteService.ports[0]!.targetPort);
        // The metrics port the annotations name is the one the site serves.
        expect(set.template.metadata.annotations?.['prometheus.io/port']).toBe(String(site.ports?.[0]?.containerPort));
        expect(site.env?.find((e) => e.name === 'GRIDEMU_HTTP_PORT')?.value).toBe(
          String(site.ports?.[0]?.containerPort),
        );
        // Sites and driver reach NATS by its Service's name and port, in the same run.
        expect(site.env?.find((e) => e.name === 'NATS_URL')?.value).toBe(`nats://nats:${nats.ports[0]!.port}`);
        expect(site.env?.find((e) => e.name === 'GRIDEMU_RUN')?.value).toBe(run);
        // Its own user and no one else's: the one Secret it mounts holds its own file only.
        const secrets = set.template.spec.volumes.flatMap((v) => (v.secret ? [v.secret.secretName] : []));
        expect(secrets, location).toEqual([`gridemu-user-${location}`]);
        expect(Object.keys(secretOf(secrets[0]!))).toEqual([`${location}.env`]);
        expect(secretOf(secrets[0]!)[`${location}.env`]).toContain(`NATS_USER=${location}\n`);
        expect(site.command?.join(' ')).toContain(`. /credentials/${location}.env;`);
        expect(site.command?.join(' ')).toMatch(new RegExp(`--site ${location}$`));
      }
      // NATS runs with a user per process: the server's configuration from its Secret, each site
      // and the driver their own user from theirs, held to their own subjects on both planes.
      const natsSet = find(objects, 'StatefulSet', 'nats').spec as {
        template: { spec: PodSpec & { volumes: { name: string; secret?: { secretName: string } }[] } };
      };
      expect(natsSet.template.spec.containers[0]!.command).toEqual([
        'nats-server',
        '-c',
        '/etc/gridemu/nats-server.conf',
      ]);
      const serverSecret = natsSet.template.spec.volumes.find((v) => v.secret)!.secret!.secretName;
      const conf = JSON.parse(secretOf(serverSecret)['nats-server.conf']!) as {
        authorization: { users: { user: string; publish?: unknown; permissions: { publish: { allow: string[] } } }[] };
      };
      const users = conf.authorization.users.map((u) => u.user).sort();
      expect(users).toEqual([...locations, 'driver'].sort());
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
      const driverSecrets = driverJob.template.spec.volumes.flatMap((v) => (v.secret ? [v.secret.secretName] : []));
      expect(driverSecrets).toEqual(['gridemu-nats-driver']);
      expect(Object.keys(secretOf('gridemu-nats-driver'))).toEqual(['driver.env']);
      expect(driver.command?.join(' ')).toContain('. /credentials/driver.env');
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

  it("a location's pod takes a name Kubernetes allows, its label and files the location as it is; two that would share one are refused", () => {
    const specOf = (ids: string[]) =>
      parseExperiment(
        `name: x\nsites: [${ids.map((id) => `{ id: ${id}, cpus: 1 }`).join(', ')}]\nworkload: [{ site: ${ids[0]}, synthetic: { jobs: 1 } }]\nmeta: { scheme: k-distributed, k: 1 }\n`,
        'x.yaml',
      ).spec;
    const files = kubernetesMembers(specOf(['s1', 'Site_2']), 'k8s-run');
    const sets = docsOf(files.get('members.yaml')!);
    expect(sets.map((d) => d.metadata.name)).toEqual(['gridemu-s1', 'gridemu-site-2']);
    expect(sets[1]!.metadata.labels?.['gridemu.io/location']).toBe('Site_2');
    const command = (sets[1]!.spec as { template: Template }).template.spec.containers[0]!.command!.join(' ');
    expect(command).toContain(
      '. /credentials/Site_2.env; set +a; exec node /app/services/site/dist/main.js --site Site_2',
    );
    expect(files.get('kustomization.yaml')).toMatch(/name: gridemu-user-site-2\n\s+files:\n\s+- Site_2\.env/);
    // A location named like one of the deployment's own Secrets (paper 000's "server") keeps apart from it.
    const server = kubernetesMembers(specOf(['s1', 'server']), 'k8s-run').get('kustomization.yaml')!;
    const names = [...server.matchAll(/^ {2}- name: (\S+)$/gm)].map((m) => m[1]);
    expect(names).toEqual(['gridemu-nats-server', 'gridemu-nats-driver', 'gridemu-user-s1', 'gridemu-user-server']);
    expect(() => kubernetesMembers(specOf(['s1', 'S1']), 'k8s-run')).toThrow(
      /locations "s1" and "S1" would both be the Kubernetes pod gridemu-s1-0/,
    );
  });

  it("lets a site waiting for its external policy miss probes until the policy's own limit stops the run", () => {
    const probe = (meta: string) => {
      const spec = parseExperiment(
        `name: x\nsites: [{ id: s1, cpus: 1 }]\nworkload: [{ site: s1, synthetic: { jobs: 1 } }]\nmeta: ${meta}\n`,
        'x.yaml',
      ).spec;
      const set = docsOf(kubernetesMembers(spec, 'k8s-run').get('members.yaml')!)[0]!;
      const container = (set.spec as { template: Template }).template.spec.containers[0]!;
      const p = (container as { livenessProbe?: { periodSeconds?: number; failureThreshold?: number } }).livenessProbe!;
      return p.periodSeconds! * p.failureThreshold!;
    };
    // Kubernetes' default: three probes 10 s apart.
    expect(probe('{ scheme: k-distributed, k: 1 }')).toBe(30);
    // 30 s for the policy's start-up and 5 s past it, then one more probe.
    expect(probe('{ scheme: external, command: [python3, p.py] }')).toBe(50);
    expect(probe('{ scheme: external, command: [python3, p.py], answer_timeout_s: 100 }')).toBe(120);
  });

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
  const sites = memberSets(build(join(K8S, 'base')));

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
      const pods = sites.map((m) => `gridemu-${m.location}-0`);
      if (selector.labelSelectors)
        expect(
          sites.some(({ set }) =>
            Object.entries(selector.labelSelectors!).every(([k, v]) => set.template.metadata.labels[k] === v),
          ),
          `${file}: no site pod has the labels ${JSON.stringify(selector.labelSelectors)}`,
        ).toBe(true);
      for (const pod of selector.pods?.['gridemu'] ?? []) expect(pods).toContain(pod);
    }
  });

  it('the schema check can fail: a PodChaos with an unknown action is refused', () => {
    const kill = experiments.find((e) => e.d.kind === 'PodChaos')!.d;
    expect(schemaOf('PodChaos')({ ...kill, spec: { ...kill.spec, action: 'pod-explode' } })).toBe(false);
  });
});
