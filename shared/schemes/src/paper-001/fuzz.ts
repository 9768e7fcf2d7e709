import { randomFaults, type FuzzSpecs } from '../fuzz-draw.js';
import { CENTRAL_LOCATION, FAULT_TOLERANT_SCHEMES, PAPER_001_SCHEMES } from './names.js';

/** Any of paper 001's schemes on 2-5 synthetic sites, often with crashes, a partition and loss for those that survive them. */
export const PAPER_001_FUZZ: FuzzSpecs = {
  weight: 3,
  spec: (draw) => {
    const { rng, pick } = draw;
    const n = rng.int(2, 5);
    const scheme = pick(PAPER_001_SCHEMES);
    const sites = Array.from({ length: n }, (_, i) => `  - { id: s${i + 1}, cpus: ${pick([8, 16, 32, 64])} }`);
    const jobs = Array.from(
      { length: n },
      (_, i) =>
        `  - { site: s${i + 1}, synthetic: { jobs: ${rng.int(20, 80)}, uhi: ${pick([2, 3, 4])} }, shift_h: ${rng.int(0, 3)} }`,
    );
    return [
      ...draw.head,
      'sites:',
      ...sites,
      'workload:',
      ...jobs,
      `local: { policy: ${scheme === 'k-dual' ? 'easy' : pick(['fcfs', 'easy'])} }`,
      `meta: { scheme: ${scheme}, k: ${rng.int(1, n)}, load_period_s: ${pick([10, 60, 600])}, claim_timeout_s: ${pick([0.5, 5, 60])}, claim: ${pick(['hold', 'optimistic'])}, query_timeout_s: ${pick([1, 60])} }`,
      draw.network,
      ...(FAULT_TOLERANT_SCHEMES.includes(scheme) && rng.next() < 0.7
        ? randomFaults(draw, n, scheme === 'centralized' || scheme === 'hierarchical' ? [CENTRAL_LOCATION] : [])
        : []),
    ].join('\n');
  },
};
