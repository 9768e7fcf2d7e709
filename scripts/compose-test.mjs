// The compose deployment, really run (issue 12): builds the image (on a locally made base where no
// registry can be reached, ../shared/CONTAINERS.md), brings up deploy/compose with four sites,
// kills one site's process mid-run so that the restart policy brings the container back, waits
// for the driver to finish, and runs `gridemu check` on the results and the sites' logs. Also asks
// the compose file's Prometheus how many jobs completed. Skipped, saying why, where no container
// engine answers. Prints one "N passed, N failed" line; exits 1 on any failure.
//
//   npm run test:compose        (CI runs it after the other tests)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const composeFile = join(repo, 'deploy/compose/docker-compose.yml');
const project = `gridemu-ci-${process.pid}`;
const sh = (cmd, args, opts = {}) => spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
const has = (cmd) => sh('sh', ['-c', `command -v ${cmd}`]).status === 0;

if (!has('podman') || !has('docker-compose')) {
  console.log('compose test skipped: no container engine here (it needs podman and docker-compose: apt-get install -y podman runc docker-compose debootstrap; see ../shared/CONTAINERS.md)');
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
const results = mkdtempSync(join(tmpdir(), 'gridemu-compose-'));
const env = { ...process.env, GRIDEMU_IMAGE: 'localhost/gridemu:latest', GRIDEMU_PROMETHEUS_IMAGE: 'localhost/gridemu-prometheus:latest', GRIDEMU_RESULTS: results, GRIDEMU_RUN: 'compose-ci' };
const compose = (...args) => sh('docker-compose', ['-f', composeFile, '-p', project, ...args], { env, cwd: repo });
const problems = [];
const t0 = Date.now();
try {
  // 1. The image, on the official Node base where it can be pulled, else on a local stand-in.
  const base = process.env.GRIDEMU_BASE ?? sh('bash', [join(repo, 'scripts/build-base-image.sh')]).stdout.trim();
  if (!base) throw new Error('could not build a base image (scripts/build-base-image.sh)');
  for (const [target, tag] of [['runtime', 'localhost/gridemu:latest'], ['prometheus', 'localhost/gridemu-prometheus:latest']]) {
    const b = sh('podman', ['build', '-q', '-f', 'deploy/Dockerfile', '--build-arg', `BASE=${base}`, '--target', target, '-t', tag, '.'], { cwd: repo });
    if (b.status !== 0) throw new Error(`podman build --target ${target} failed:\n${(b.stderr || b.stdout).split('\n').slice(-20).join('\n')}`);
  }
  console.log(`  image built on ${base} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);

  // 2. Four sites, NATS, the driver, Prometheus.
  const up = compose('up', '-d');
  if (up.status !== 0) throw new Error(`docker-compose up failed:\n${up.stderr}`);
  const container = (s) => `${project}_${s}_1`;

  // 3. Kill s2's process once its clock runs; its container exits 137 and restart: on-failure brings it back.
  let started = false;
  for (let i = 0; i < 600 && !started; i++) {
    await sleep(100);
    started = sh('podman', ['logs', container('s2')]).stdout.includes('clock started');
  }
  if (!started) throw new Error("s2 never started its clock:\n" + sh('podman', ['logs', container('driver')]).stdout.slice(-2000));
  await sleep(1500);
  sh('podman', ['exec', container('s2'), 'sh', '-c', 'for p in /proc/[0-9]*; do [ "$(cat $p/comm 2>/dev/null)" = node ] && kill -9 ${p#/proc/}; done']);
  console.log('  killed the node process of s2 mid-run');

  // 4. The driver ends the run.
  const waited = sh('timeout', ['300', 'podman', 'wait', container('driver')]);
  if (waited.stdout.trim() !== '0') problems.push(`the driver exited with ${waited.stdout.trim() || waited.stderr.trim()}`);
  await sleep(4000); // the sites linger 3 s for Prometheus' last scrape

  // 5. gridemu check on the results, with every site's log (both lives of s2 in one).
  mkdirSync(join(results, 'logs'), { recursive: true });
  for (const s of ['s1', 's2', 's3', 's4']) writeFileSync(join(results, 'logs', `${s}.log`), sh('podman', ['logs', container(s)]).stdout);
  const check = sh(process.execPath, [join(repo, 'services/cli/dist/main.js'), 'check', results]);
  console.log(check.stdout.trim().split('\n').map((l) => `  ${l}`).join('\n'));
  if (check.status !== 0) problems.push(`gridemu check exited ${check.status}`);
  const restarts = Number(sh('podman', ['inspect', container('s2'), '--format', '{{.RestartCount}}']).stdout.trim());
  if (!(restarts >= 1)) problems.push(`s2 was not restarted by its restart policy (RestartCount ${restarts})`);
  if (!readFileSync(join(results, 'logs', 's2.log'), 'utf8').includes('rejoined the run')) problems.push('s2 did not rejoin the run from its journal');
  const summary = JSON.parse(readFileSync(join(results, 'summary.json'), 'utf8'));
  if (summary.jobs.completed !== summary.jobs.submitted) problems.push(`${summary.jobs.completed} of ${summary.jobs.submitted} jobs completed`);

  // 6. The compose file's Prometheus counted the same completions.
  const q = encodeURIComponent('sum(max by (site) (max_over_time(gridemu_jobs_completed_total[1d])))');
  const prom = await fetch(`http://127.0.0.1:9090/api/v1/query?query=${q}`).then((r) => r.json()).catch((e) => ({ error: e.message }));
  const counted = Number(prom?.data?.result?.[0]?.value?.[1]);
  if (counted !== summary.jobs.completed) problems.push(`Prometheus counted ${counted} completed jobs, jobs.csv ${summary.jobs.completed}`);
  else console.log(`  Prometheus counted ${counted} completed jobs, as jobs.csv does`);
} catch (err) {
  problems.push(err.message);
} finally {
  if (problems.length > 0) console.log(compose('logs', '--no-color', '--tail', '20').stdout.slice(-6000));
  compose('down', '-v');
  service?.kill('SIGTERM');
  rmSync(socketDir, { recursive: true, force: true });
}
const name = `issue 12: docker-compose, 4 sites, one killed mid-run and brought back by its restart policy, gridemu check passes`;
if (problems.length === 0) {
  console.log(`✓ ${name} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  rmSync(results, { recursive: true, force: true });
  console.log('1 passed, 0 failed');
} else {
  console.log(`✗ ${name}: results kept in ${results}\n  ${problems.join('\n  ')}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}
