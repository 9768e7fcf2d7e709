import { randomFaults, type FuzzSpecs } from '../fuzz-draw.js';

/**
 * A policy for fuzzing, in JavaScript run by the same Node as gridemu (always there, where Python
 * may not be): the K least-loaded sites a job fits in get it, one (`send`) or K copies; a job no
 * site fits is rejected. `K` is replaced by the draw.
 */
const FUZZ_POLICY = `let sites = [];
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const r = JSON.parse(line);
  let actions = [];
  if (r.type === 'hello') sites = r.sites;
  else if (r.type === 'submit') {
    const load = (s) => (r.loads.find((h) => h.site === s.id) || { load: 0 }).load;
    const fit = sites.filter((s) => s.cpus >= r.job.procs).sort((a, b) => load(a) - load(b));
    const id = r.job.id;
    if (fit.length === 0) actions = [{ do: 'reject', job: id, reason: 'wider than every site' }];
    else if (K > 1) actions = [{ do: 'copies', job: id, to: fit.slice(0, K).map((s) => s.id) }];
    else actions = [{ do: 'send', job: id, to: fit[0].id }];
  }
  process.stdout.write(JSON.stringify({ v: 1, actions }) + '\\n');
});`;

/** The external scheme on 2-5 synthetic sites with the policy above, often under faults. */
export const EXTERNAL_FUZZ: FuzzSpecs = {
  weight: 1,
  spec: (draw) => {
    const { rng, pick } = draw;
    const n = rng.int(2, 5);
    const k = rng.int(1, n);
    const code = FUZZ_POLICY.replace(/\bK\b/g, String(k));
    return [
      ...draw.head,
      'sites:',
      ...Array.from({ length: n }, (_, i) => `  - { id: s${i + 1}, cpus: ${pick([8, 16, 32, 64])} }`),
      'workload:',
      ...Array.from(
        { length: n },
        (_, i) =>
          `  - { site: s${i + 1}, synthetic: { jobs: ${rng.int(20, 60)}, uhi: ${pick([2, 3, 4])} }, shift_h: ${rng.int(0, 3)} }`,
      ),
      `local: { policy: ${pick(['fcfs', 'easy'])} }`,
      // JSON strings are YAML's double-quoted scalars.
      `meta: { scheme: external, command: [${JSON.stringify(process.execPath)}, -e, ${JSON.stringify(code)}], load_period_s: ${pick([10, 60, 600])}, claim_timeout_s: ${pick([0.5, 5, 60])} }`,
      draw.network,
      ...(rng.next() < 0.5 ? randomFaults(draw, n, []) : []),
    ].join('\n');
  },
};
