// Adds lockfile entries for optional platform binaries the registry we install from does not
// serve (it lacks, e.g., @rollup/rollup-android-arm64 and @turbo/darwin-64 at the pinned
// versions), so `npm install` here leaves them out and `npm ci` then calls the lockfile out of
// sync. Each added entry is optional and carries the os/cpu/libc its name encodes, so npm skips
// it on machines it does not fit and fetches it from the full npm registry where it does (a Mac).
// Run after any `npm install` that changes the lockfile:  node scripts/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = 'package-lock.json';
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));

const OS = {
  android: 'android',
  darwin: 'darwin',
  freebsd: 'freebsd',
  openbsd: 'openbsd',
  linux: 'linux',
  win32: 'win32',
  windows: 'win32',
  openharmony: 'openharmony',
  sunos: 'sunos',
  netbsd: 'netbsd',
  aix: 'aix',
};
const CPU = {
  'arm-eabi': 'arm',
  arm: 'arm',
  'arm-gnueabihf': 'arm',
  'arm-musleabihf': 'arm',
  arm64: 'arm64',
  x64: 'x64',
  64: 'x64',
  ia32: 'ia32',
  loong64: 'loong64',
  ppc64: 'ppc64',
  riscv64: 'riscv64',
  s390x: 's390x',
  mips64el: 'mips64el',
};

function platformOf(name) {
  const base = name
    .split('/')
    .pop()
    .replace(/^rollup-/, '');
  const parts = base.split('-');
  const os = OS[parts[0]];
  if (!os) return undefined;
  let rest = parts.slice(1).join('-');
  let libc;
  if (/-(gnu|gnueabihf)$/.test(rest)) libc = 'glibc';
  if (/-(musl|musleabihf)$/.test(rest)) libc = 'musl';
  rest = rest.replace(/-(gnu|musl|msvc)$/, '');
  const cpu = CPU[rest];
  if (!cpu) return undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
}

let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const where = `${path ? `${path}/` : ''}node_modules/${dep}`;
    if (lock.packages[where] || lock.packages[`node_modules/${dep}`]) continue;
    const platform = platformOf(dep);
    if (!platform)
      throw new Error(`${path}: optional dependency ${dep} is missing from the lockfile and is not a platform binary`);
    lock.packages[`node_modules/${dep}`] = {
      version,
      ...platform,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)),
);
writeFileSync(LOCK, JSON.stringify(lock, null, 2) + '\n');
console.log(`complete-lockfile: added ${added} optional platform entries`);
