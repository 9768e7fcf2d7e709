// Where a live run's time goes: V8 CPU profiles of its processes (gridemu run with
// GRIDEMU_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"), each sample charged to a part of the system.
// A sample in Node's own code or a native function (a socket write, a string encode) is charged to
// the nearest caller that belongs to a part, so a write the NATS client makes counts as NATS.
// A profile samples each process's main thread only: V8's optimizing compiler and its concurrent
// garbage collection run on threads of their own, which the processes' CPU (summary.json) counts and
// these parts do not (docs/performance.md, "What the CPU profiles could not see").
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The parts, in the order they are printed; the first rule that matches a frame wins. */
const PARTS = [
  [
    'start-up (loading modules)',
    (url, fn) => url.startsWith('node:internal/modules') || fn === 'wrapSafe' || fn === 'compileSourceTextModule',
  ],
  ['msgpack (encode, decode)', (url) => url.includes('/@msgpack/')],
  ['NATS client and socket', (url) => url.includes('/@nats-io/') || url.includes('/transport-nats/')],
  ['message validation', (url) => url.includes('/protocol/')],
  ['scheduling pass (policy)', (url) => url.includes('/scheduling/')],
  ['actors (site, meta, driver)', (url) => url.includes('/actors/') || url.includes('/schemes/')],
  [
    'logging (pino)',
    (url) =>
      url.includes('/pino') ||
      url.includes('/sonic-boom/') ||
      url.includes('/thread-stream/') ||
      url.endsWith('/pino-logger.js'),
  ],
  [
    'metrics (prom-client)',
    (url) =>
      url.includes('/prom-client/') || url.endsWith('/prometheus-metrics.js') || url.endsWith('/metrics-http.js'),
  ],
  [
    'runtime (mailboxes, timers, clock)',
    (url) => url.includes('/runtime/') || url.includes('/p-queue/') || url.includes('/eventemitter3/'),
  ],
  ['live process (control plane, reports)', (url) => url.includes('/live/') || url.includes('/services/')],
];
const UNCHARGED = 'Node itself (event loop, timers, I/O)';

function partOf(frame) {
  const { url, functionName } = frame.callFrame;
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(program)') return UNCHARGED;
  for (const [name, match] of PARTS) if (match(url, functionName)) return name;
  return undefined;
}

/** The process a profile is of: the service whose code it ran (site, driver, central, …). */
function processOf(nodes) {
  for (const n of nodes) {
    const m = /\/services\/([a-z-]+)\/dist\//.exec(n.callFrame.url);
    if (m && m[1] !== 'cli') return m[1];
  }
  return 'other';
}

/**
 * Milliseconds per part, summed over the profiles of each kind of process in `dir`:
 * { site: { processes: 4, parts: { 'msgpack (encode, decode)': 480, … } }, driver: … }.
 */
export function whereTimeGoes(dir) {
  const out = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, byId.get(n.id));
    const charged = new Map();
    const partOfNode = (node) => {
      if (charged.has(node.id)) return charged.get(node.id);
      let part;
      for (let n = node; n && part === undefined; n = parent.get(n.id)) part = partOf(n);
      charged.set(node.id, part ?? UNCHARGED);
      return part ?? UNCHARGED;
    };
    const kind = processOf(profile.nodes);
    const entry = (out[kind] ??= { processes: 0, parts: {} });
    entry.processes++;
    for (let i = 0; i < profile.samples.length; i++) {
      const part = partOfNode(byId.get(profile.samples[i]));
      entry.parts[part] = (entry.parts[part] ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000;
    }
  }
  return out;
}

/**
 * Lines for the console: each part's share of the time the processes were running the run, that
 * is neither idle nor loading modules (start-up is given apart, in seconds).
 */
export function describeTimeGone(byProcess) {
  const lines = [];
  const STARTUP = PARTS[0][0];
  for (const [kind, { processes, parts }] of Object.entries(byProcess)) {
    const running = Object.entries(parts).filter(([p]) => p !== 'idle' && p !== STARTUP);
    const busy = running.reduce((a, [, ms]) => a + ms, 0);
    const shares = running.sort(([, a], [, b]) => b - a).map(([p, ms]) => `${p} ${((100 * ms) / busy).toFixed(1)}%`);
    const startup = (parts[STARTUP] ?? 0) / 1000 / processes;
    lines.push(
      `  ${kind} (${processes} process${processes === 1 ? '' : 'es'}, ${(busy / 1000).toFixed(1)} s running, start-up ${startup.toFixed(2)} s each): ${shares.join(', ')}`,
    );
  }
  return lines;
}

// Run on its own: node where-time-goes.mjs PROFILE_DIR
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop())) {
  for (const line of describeTimeGone(whereTimeGoes(process.argv[2]))) console.log(line);
}
