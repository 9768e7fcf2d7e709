import { randomFaults, type FuzzSpecs } from '../fuzz-draw.js';
import { ROUTER_LOCATION } from './names.js';

/** Shadow routing (per task or by class), MCT or JSQ over 2-8 resources with estimate errors, often under faults (the router's process among those crashed). */
export const SHADOW_FUZZ: FuzzSpecs = {
  weight: 1,
  spec: (draw) => {
    const { rng, pick } = draw;
    const n = rng.int(2, 8);
    const scheme = pick(['shadow', 'mct', 'jsq', 'shadow-classes']);
    const classes = scheme === 'shadow-classes' ? `, class_lengths_s: ${pick(['[100]', '[60, 600, 6000]'])}` : '';
    return [
      ...draw.head,
      `sites: [${Array.from({ length: n }, (_, i) => `{ id: r${i + 1}, cpus: ${pick([1, 1, 2])} }`).join(', ')}]`,
      `workload: [{ site: r1, synthetic: { jobs: ${rng.int(20, 120)}, uhi: 1 } }]`,
      `meta: { scheme: ${scheme}${classes}, eta: ${pick([0.1, 0.001, 0.00001])}, speeds: { uniform: [1, 8] }, errors: { model: ${pick(['over-under', 'over'])}, I: ${pick([0, 0.2, 0.4])}, apply: ${pick(['lengths', 'both'])} }, query_timeout_s: ${pick([0.05, 60])}, task_bytes: ${pick([0, 200000])}, task_output_bytes: ${pick([0, 500000])}, task_size_spread: 0.5 }`,
      draw.network,
      ...(rng.next() < 0.5
        ? randomFaults(
            draw,
            Array.from({ length: n }, (_, i) => `r${i + 1}`),
            [ROUTER_LOCATION],
          )
        : []),
    ].join('\n');
  },
};
