// The compose deployments, really run. Builds the image (on a locally made base where
// no registry can be reached, ../shared/CONTAINERS.md), then:
//   1. one host: makes the run's NATS credentials (gridemu credentials), brings up deploy/compose
//      with four sites, each its own NATS user, checks that a container with s2's name and no
//      password is refused, kills one site's process mid-run so that the restart policy brings the
//      container back, waits for the driver, and runs `gridemu check` on the results and the
//      sites' logs; asks its Prometheus how many jobs completed;
//   2. several hosts, credentials on (--multi-host): deploy/compose/multi-host's hub.yml and leaf.yml as two compose projects,
//      each on a network of its own that reaches the other only through this machine's address,
//      as two machines would: the leaf NATS server joins the hub, every site runs behind its
//      delay-proxy sidecar, a leaf site is killed mid-run and rejoins from the leaf's JetStream.
// Skipped, saying why, where no container engine answers. Prints one "N passed, N failed" line;
// exits 1 on any failure.
//
//   npm run test:compose        (CI runs it after the other tests)
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  writeFileSync,
} from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const sh = (cmd, args, opts = {}) => spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
const has = (cmd) => sh('sh', ['-c', `command -v ${cmd}`]).status === 0;

if (!has('podman') || !has('docker-compose')) {
  console.log(
    'compose test skipped: no container engine here (it needs podman and docker-compose: apt-get install -y podman runc docker-compose debootstrap; see ../shared/CONTAINERS.md)',
  );
  console.log('0 passed, 0 failed');
  process.exit(0);
}

// docker-compose speaks the Docker API: podman serves it on a socket of our own unless DOCKER_HOST is set.
let service;
const socketDir = mkdtempSync(join(tmpdir(), 'gridemu-podman-'));
if (!process.env.DOCKER_HOST) {
  const socket = join(socketDir, 'podman.sock');
  service = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], { stdio: 'ignore' });
  process.env.DOCKER_HOST = `unix://${socket}`;
  for (let i = 0; i < 100 && !existsSync(socket); i++) await sleep(100);
}
const images = {
  GRIDEMU_IMAGE: 'localhost/gridemu:latest',
  GRIDEMU_PROMETHEUS_IMAGE: 'localhost/gridemu-prometheus:latest',
};
/**
 * Every image this test builds carries this label, so that the versions a rebuild leaves untagged
 * (about 1 GB a run) can be removed without touching anyone else's images: run after run on one
 * machine, they once filled its disk.
 */
const buildLabel = 'gridemu.build=compose-test';
/**
 * The commit the image is built from, which each run's summary.json must then name (an image has
 * no .git); marked when tracked files differ from it, as the image holds the files as they are.
 */
const builtFrom = (() => {
  const head = sh('git', ['-C', repo, 'rev-parse', 'HEAD']);
  if (head.status !== 0) return undefined;
  const changed = sh('git', ['-C', repo, 'status', '--porcelain', '--untracked-files=no']).stdout.trim() !== '';
  return `${head.stdout.trim()}${changed ? '-modified' : ''}`;
})();
/** What a build needs free where podman keeps its images: the build stage and the image, with room. */
const neededFreeBytes = 3 * 2 ** 30;
const t0 = Date.now();
/** Wall time of the last scenario's kill. */
let killedAt_ms;
let passed = 0;
let failed = 0;

try {
  const built = buildImages();
  if (built) {
    failed += 2;
    console.log(`✗ the image: ${built}`);
  } else {
    await scenario(
      'issue 12: docker-compose, 4 sites, one killed mid-run and brought back by its restart policy, gridemu check passes',
      oneHost,
    );
    await scenario(
      'issue 12: docker-compose on "two hosts" (hub and leaf NATS servers, delay-proxy sidecars), a leaf site killed mid-run, gridemu check passes',
      twoHosts,
    );
  }
} finally {
  removeStaleImages();
  service?.kill('SIGTERM');
  rmSync(socketDir, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

/** The image, on the official Node base where it can be pulled, else on a local stand-in; a problem, or undefined. */
function buildImages() {
  removeStaleImages();
  const store = sh('podman', ['info', '--format', '{{.Store.GraphRoot}}']).stdout.trim();
  if (store && existsSync(store)) {
    const { bavail, bsize } = statfsSync(store);
    const free = bavail * bsize;
    if (free < neededFreeBytes)
      return `${store} has ${(free / 2 ** 30).toFixed(1)} GiB free; building the image needs about ${neededFreeBytes / 2 ** 30} GiB (podman image prune, podman system df)`;
  }
  const base = process.env.GRIDEMU_BASE ?? sh('bash', [join(repo, 'scripts/build-base-image.sh')]).stdout.trim();
  if (!base) return 'could not build a base image (scripts/build-base-image.sh)';
  for (const [target, tag] of [
    ['runtime', images.GRIDEMU_IMAGE],
    ['prometheus', images.GRIDEMU_PROMETHEUS_IMAGE],
  ]) {
    const b = sh(
      'podman',
      [
        'build',
        '-q',
        '-f',
        'deploy/Dockerfile',
        '--build-arg',
        `BASE=${base}`,
        ...(builtFrom ? ['--build-arg', `GRIDEMU_COMMIT=${builtFrom}`] : []),
        '--label',
        buildLabel,
        '--target',
        target,
        '-t',
        tag,
        '.',
      ],
      { cwd: repo },
    );
    if (b.status !== 0)
      return `podman build --target ${target} failed:\n${(b.stderr || b.stdout).split('\n').slice(-20).join('\n')}`;
  }
  console.log(`  image built on ${base} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  return undefined;
}

/**
 * Removes the untagged images of earlier builds of this test (older versions of the tags, and
 * build stages): the tagged images and the layers they are made of stay, for the next build's cache.
 */
function removeStaleImages() {
  sh('podman', ['image', 'prune', '--force', '--filter', `label=${buildLabel}`]);
}

/**
 * Runs one scenario with a fresh results folder; counts it, and keeps its results if it failed.
 * A scenario whose killed site, started again by the engine, could not look up the NATS server's
 * name runs once more, saying so: that is the container engine's name service, not gridemu (on
 * CI, 2026-12-07, podman 4.3's aardvark-dns left the restarted s2 without an answer for over a
 * minute, `getaddrinfo EAI_AGAIN nats`, and the driver stopped the run as it should). A second
 * failure of any kind fails it.
 */
async function scenario(name, body) {
  for (let run = 1; ; run++) {
    const results = mkdtempSync(join(tmpdir(), 'gridemu-compose-'));
    const problems = [];
    const started = Date.now();
    await body(results, problems).catch((err) => problems.push(err.message));
    const took = `${((Date.now() - started) / 1000).toFixed(0)} s`;
    if (problems.length === 0) {
      passed++;
      console.log(`✓ ${name} (${run > 1 ? `its run ${run}, ` : ''}${took})`);
      rmSync(results, { recursive: true, force: true });
      return;
    }
    const lookup = run === 1 ? serverNameUnresolved(results) : undefined;
    if (lookup) {
      console.log(
        `! ${name}: a restarted site could not look up the NATS server's name, the container engine's DNS (${lookup}); results kept in ${results}\n  ${problems.join('\n  ')}\n  running it once more`,
      );
      continue;
    }
    failed++;
    console.log(`✗ ${name}: results kept in ${results}\n  ${problems.join('\n  ')}`);
    return;
  }
}

/** The first site log line in `results/logs` saying the server's name did not resolve, if one does. */
function serverNameUnresolved(results) {
  const logs = join(results, 'logs');
  if (!existsSync(logs)) return undefined;
  for (const file of readdirSync(logs)) {
    const line = readFileSync(join(logs, file), 'utf8')
      .split('\n')
      .find((l) => l.includes('cannot connect to NATS') && /getaddrinfo (EAI_AGAIN|ENOTFOUND)/.test(l));
    if (line) return `${file}: ${line.slice(line.indexOf('{'), line.indexOf('{') + 240)}`;
  }
  return undefined;
}

/** A compose project: `run(...args)` runs docker-compose on it; `container(service)` names a container. */
function project(file, name, env, overrides = []) {
  const files = [join(repo, file), ...overrides].flatMap((f) => ['-f', f]);
  return {
    run: (...args) =>
      sh('docker-compose', [...files, '-p', name, ...args], { env: { ...process.env, ...images, ...env }, cwd: repo }),
    container: (s) => `${name}_${s}_1`,
    network: `${name}_default`,
  };
}

/** The run's NATS credentials, made where one deploys (never committed); their folder. */
function makeCredentials(results, experiment, run, extra = []) {
  const credentials = join(results, 'credentials');
  const made = sh(process.execPath, [
    join(repo, 'services/cli/dist/main.js'),
    'credentials',
    join(repo, experiment),
    '--run',
    run,
    '--out',
    credentials,
    ...extra,
  ]);
  if (made.status !== 0) throw new Error(`gridemu credentials failed:\n${made.stderr}`);
  return credentials;
}

async function oneHost(results, problems) {
  const credentials = makeCredentials(results, 'deploy/compose/experiment.yaml', 'compose-ci');
  const p = project('deploy/compose/docker-compose.yml', `gridemu-ci-${process.pid}`, {
    GRIDEMU_RESULTS: results,
    GRIDEMU_RUN: 'compose-ci',
    GRIDEMU_CREDENTIALS: credentials,
  });
  try {
    // Four sites, NATS, the driver, Prometheus.
    const up = p.run('up', '-d');
    if (up.status !== 0) throw new Error(`docker-compose up failed:\n${up.stderr}`);
    // A container with s2's name and user but no password, on the project's network: the server
    // refuses it. (podman run: docker-compose run needs container links, which podman lacks.)
    const impostor = sh('podman', [
      'run',
      '--rm',
      '--network',
      p.network,
      '-e',
      'NATS_URL=nats://nats:4222',
      '-e',
      'NATS_USER=s2',
      '-e',
      'GRIDEMU_RUN=compose-ci',
      '-e',
      'GRIDEMU_JOIN_TIMEOUT=10',
      images.GRIDEMU_IMAGE,
      'node',
      '/app/services/site/dist/main.js',
      '--site',
      's2',
    ]);
    const said = `${impostor.stdout}${impostor.stderr}`;
    if (impostor.status === 0 || !/Authorization Violation/i.test(said))
      problems.push(
        `a container as s2 without its password was not refused (exit ${impostor.status}): ${said.slice(-600)}`,
      );
    else console.log('  a container as s2 without its password was refused by the server (Authorization Violation)');
    killedAt_ms = await killMidRun(p.container('s2'), p.container('driver'));
    await endAndCheck(
      results,
      problems,
      p.container('driver'),
      Object.fromEntries(['s1', 's2', 's3', 's4'].map((s) => [s, p.container(s)])),
      's2',
    );
    await prometheusAgrees(results, problems, 9090);
  } finally {
    if (problems.length > 0) {
      printKilledLog(p.container('s2'));
      console.log(p.run('logs', '--no-color', '--tail', '20').stdout.slice(-6000));
    }
    p.run('down', '-v');
  }
}

async function twoHosts(results, problems) {
  // The projects reach each other only through this machine's address, as two machines would.
  const host = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  if (!host) throw new Error('this machine has no non-loopback IPv4 address for the "hosts" to reach each other by');
  const env = {
    GRIDEMU_RESULTS: results,
    GRIDEMU_RUN: 'multi-host-ci',
    GRIDEMU_CREDENTIALS: makeCredentials(results, 'deploy/compose/multi-host/experiment.yaml', 'multi-host-ci', [
      '--multi-host',
    ]),
    GRIDEMU_HUB_HOST: host,
    GRIDEMU_LEAF_HOST: host,
    GRIDEMU_PROMETHEUS_PORT: '9091',
  };
  // Podman's Docker API makes every compose network isolated from the others (it drops traffic
  // between bridges, even to a published port), which two machines are not: each "host" gets a
  // network made here, without isolation, in place of its compose default.
  const networks = ['hub', 'leaf'].map((h) => `gridemu-${h}-net-${process.pid}`);
  const overrides = networks.map((n) => {
    const file = join(results, `${n}.yml`);
    writeFileSync(file, `version: "3.8"\nnetworks:\n  default:\n    external: true\n    name: ${n}\n`);
    return file;
  });
  for (const n of networks) {
    const made = sh('podman', ['network', 'create', n]);
    if (made.status !== 0) throw new Error(`podman network create ${n} failed: ${made.stderr}`);
  }
  const hub = project('deploy/compose/multi-host/hub.yml', `gridemu-hub-${process.pid}`, env, [overrides[0]]);
  const leaf = project('deploy/compose/multi-host/leaf.yml', `gridemu-leaf-${process.pid}`, env, [overrides[1]]);
  try {
    for (const [p, what] of [
      [hub, 'hub'],
      [leaf, 'leaf'],
    ]) {
      const up = p.run('up', '-d');
      if (up.status !== 0) throw new Error(`docker-compose up of the ${what} failed:\n${up.stderr}`);
    }
    killedAt_ms = await killMidRun(leaf.container('s3'), hub.container('driver'));
    const sites = {
      s1: hub.container('s1'),
      s2: hub.container('s2'),
      s3: leaf.container('s3'),
      s4: leaf.container('s4'),
    };
    const summary = await endAndCheck(results, problems, hub.container('driver'), sites, 's3');
    // The sidecars applied the spec's 20 ms: the sites saw at least that on every link.
    const links = summary.live?.latency_ms?.links ?? {};
    const slow = Object.entries(links).filter(([, l]) => !(l.min_ms >= 17));
    if (Object.keys(links).length < 12 || slow.length > 0)
      problems.push(`expected 20 ± 2 ms on all 12 site links, got ${JSON.stringify(links).slice(0, 400)}`);
    else
      console.log(
        `  12 links, one-way latency ${summary.live.latency_ms.p50_ms.toFixed(1)} ms median (the spec's 20 ms plus the bus)`,
      );
    if (!sh('podman', ['logs', leaf.container('nats')]).stderr.includes('Leafnode connection created'))
      problems.push('the leaf NATS server never joined the hub');
    await prometheusAgrees(results, problems, 9091);
  } finally {
    if (problems.length > 0) {
      printKilledLog(leaf.container('s3'));
      for (const p of [hub, leaf]) console.log(p.run('logs', '--no-color', '--tail', '20').stdout.slice(-6000));
    }
    for (const p of [leaf, hub]) p.run('down', '-v');
    sh('podman', ['network', 'rm', ...networks]);
  }
}

/** Once `site`'s clock runs, kills its node process with SIGKILL; the container exits 137 and restart: on-failure brings it back. Returns the kill's wall time. */
async function killMidRun(site, driver) {
  let started = false;
  for (let i = 0; i < 600 && !started; i++) {
    await sleep(100);
    started = sh('podman', ['logs', site]).stdout.includes('clock started');
  }
  if (!started)
    throw new Error(`${site} never started its clock:\n` + sh('podman', ['logs', driver]).stdout.slice(-2000));
  await sleep(1500);
  sh('podman', [
    'exec',
    site,
    'sh',
    '-c',
    'for p in /proc/[0-9]*; do [ "$(cat $p/comm 2>/dev/null)" = node ] && kill -9 ${p#/proc/}; done',
  ]);
  console.log(`  killed the node process of ${site} mid-run`);
  return Date.now();
}

/** The killed site's last lines, both lives, and its container's state: what a failed restart leaves. */
function printKilledLog(container) {
  const logs = sh('podman', ['logs', '--tail', '30', container]);
  const state = sh('podman', [
    'inspect',
    container,
    '--format',
    '{{.State.Status}} exit {{.State.ExitCode}} restarts {{.RestartCount}}',
  ]);
  // Whether it can look the server's name up now, and whom it asks: evidence when the container
  // engine's DNS is what failed it (scenario()).
  const lookup = sh('podman', [
    'exec',
    container,
    'sh',
    '-c',
    'h=${NATS_URL#*://}; h=${h##*@}; h=${h%%:*}; ' +
      'r=$(timeout 10 getent ahosts "$h" | head -n 1); ' +
      'echo "asks $(grep -h nameserver /etc/resolv.conf | tr "\\n" " ")for $h: ${r:-no answer}"',
  ]);
  console.log(
    `--- ${container}: ${state.stdout.trim()}\n${logs.stdout}${logs.stderr}`.slice(-8000) +
      `\n--- ${container} now ${(lookup.stdout || lookup.stderr).trim()}`,
  );
}

/** Waits for the driver, runs gridemu check with every site's log, and checks `killed` came back; returns summary.json. */
async function endAndCheck(results, problems, driver, sites, killed) {
  const waited = sh('timeout', ['300', 'podman', 'wait', driver]);
  if (waited.stdout.trim() !== '0')
    problems.push(`the driver exited with ${waited.stdout.trim() || waited.stderr.trim()}`);
  await sleep(4000); // the sites linger 3 s for Prometheus' last scrape
  mkdirSync(join(results, 'logs'), { recursive: true });
  // Both lives of the killed site go in one log.
  for (const [s, c] of Object.entries(sites))
    writeFileSync(join(results, 'logs', `${s}.log`), sh('podman', ['logs', c]).stdout);
  const check = sh(process.execPath, [join(repo, 'services/cli/dist/main.js'), 'check', results]);
  console.log(
    check.stdout
      .trim()
      .split('\n')
      .map((l) => `  ${l}`)
      .join('\n'),
  );
  if (check.status !== 0) problems.push(`gridemu check exited ${check.status}`);
  const restarts = Number(sh('podman', ['inspect', sites[killed], '--format', '{{.RestartCount}}']).stdout.trim());
  if (!(restarts >= 1)) problems.push(`${killed} was not restarted by its restart policy (RestartCount ${restarts})`);
  const rejoined = readFileSync(join(results, 'logs', `${killed}.log`), 'utf8')
    .split('\n')
    .find((l) => l.includes('rejoined the run'));
  if (!rejoined) problems.push(`${killed} did not rejoin the run from its journal`);
  else if (killedAt_ms !== undefined) {
    // How long the engine's restart took (the driver allows 60 s in a journaled run): evidence when it is slow.
    const at = JSON.parse(rejoined.slice(rejoined.indexOf('{'))).time;
    console.log(`  ${killed} rejoined ${((at - killedAt_ms) / 1000).toFixed(1)} s (wall) after the kill`);
  }
  const summary = JSON.parse(readFileSync(join(results, 'summary.json'), 'utf8'));
  if (summary.jobs.completed !== summary.jobs.submitted)
    problems.push(`${summary.jobs.completed} of ${summary.jobs.submitted} jobs completed`);
  if (builtFrom && summary.provenance?.commit !== builtFrom)
    problems.push(
      `summary.json's provenance names commit ${summary.provenance?.commit}, the image was built from ${builtFrom}`,
    );
  return summary;
}

/** The deployment's Prometheus counted as many completed jobs as jobs.csv has. */
async function prometheusAgrees(results, problems, port) {
  const completed = JSON.parse(readFileSync(join(results, 'summary.json'), 'utf8')).jobs.completed;
  const q = encodeURIComponent('sum(max by (site) (max_over_time(gridemu_jobs_completed_total[1d])))');
  const prom = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${q}`)
    .then((r) => r.json())
    .catch((e) => ({ error: e.message }));
  const counted = Number(prom?.data?.result?.[0]?.value?.[1]);
  if (counted !== completed) problems.push(`Prometheus counted ${counted} completed jobs, jobs.csv ${completed}`);
  else console.log(`  Prometheus counted ${counted} completed jobs, as jobs.csv does`);
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}
