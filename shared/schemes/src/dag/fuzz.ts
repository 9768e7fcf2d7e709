import { randomFaults, type FuzzSpecs } from '../fuzz-draw.js';
import { SERVICES_LOCATION } from './names.js';

/** Tornado DAGs under the static or the adaptive scheduler, often under faults (the general services crashed too). */
export const DAG_FUZZ: FuzzSpecs = {
  weight: 1,
  spec: (draw) => {
    const { rng, pick } = draw;
    const n = rng.int(1, 4);
    return [
      ...draw.head,
      `sites: [${Array.from({ length: n }, (_, i) => `{ id: s${i + 1}, cpus: ${pick([1, 2, 8])} }`).join(', ')}]`,
      `workload: [{ site: s1, tornado: { jobs: ${rng.int(2, 12)}, parallel: ${pick([1, 2, 5, 10])}, variation: ${pick(['high', 'medium', 'low'])}, median_s: ${pick([60, 600, 3600])}, batch_gap_h: ${pick([0.1, 1])} } }]`,
      pick([
        'meta: { scheme: dag-static }',
        `meta: { scheme: dag-adaptive, model: ${pick(['decreasing', 'increasing', 'oscillating'])}, min_improvement: ${pick([0, 0.2, 0.7])}, round_period_s: ${pick([5, 60, 600])}, progress_period_s: ${pick([5, 30])} }`,
      ]),
      draw.network,
      ...(rng.next() < 0.5 ? randomFaults(draw, n, [SERVICES_LOCATION]) : []),
    ].join('\n');
  },
};
