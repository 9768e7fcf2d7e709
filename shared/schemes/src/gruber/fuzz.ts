import { randomFaults, type FuzzSpecs } from '../fuzz-draw.js';
import { engineLocation, SUBMIT_LOCATION } from './names.js';

/** GRUBER with one of its selectors, a BLAST VO and a local one, failing attempts, sites without the environment, misbehaving managers, cycles, and a site that may give the BLAST VO nothing; often under faults (the engines and the submit hosts crashed too). */
export const GRUBER_FUZZ: FuzzSpecs = {
  weight: 1,
  spec: (draw) => {
    const { rng, pick } = draw;
    const n = rng.int(2, 5);
    const decisionPoints = rng.int(1, 3);
    return [
      ...draw.head,
      `sites: [${Array.from({ length: n }, (_, i) => `{ id: s${i + 1}, cpus: ${pick([4, 8, 16])}, speed: ${pick([0.5, 1, 2])} }`).join(', ')}]`,
      'workload:',
      `  - { name: blast, blast: { vo: ivdgl, submitters: ${rng.int(1, 3)}, jobs: ${rng.int(5, 30)}, runtime_s: ${pick([60, 600])} } }`,
      `  - { name: local, site: s1, vo: atlas, synthetic: { jobs: ${rng.int(5, 30)}, uhi: 2 } }`,
      'meta:',
      '  scheme: gruber',
      `  selector: ${pick(['G-RA', 'G-RR', 'G-LU', 'G-LRU', 'G-Obs', 'S-RA'])}`,
      `  decision_points: ${decisionPoints}`,
      `  monitor_period_s: ${pick([10, 60])}`,
      `  query_timeout_s: ${pick([5, 60])}`,
      '  vos: { ivdgl: { group_share: 50 }, atlas: {} }',
      // At times s2 gives ivdgl nothing: S-RA still sends it jobs, which it refuses or holds (cannot_run).
      `  site_policy: { "*": { ivdgl: { cpu: 50, burst: 75 }, atlas: { cpu: 50 } }${pick(['', ', s2: { atlas: { cpu: 50 } }'])} }`,
      `  cannot_run: ${pick(['refuse', 'queue'])}`,
      // At times half the sites lack the environment, drawn from the seed: every grid job fails there.
      `  failures: { rate: ${pick([0, 0.1, 0.3])}, misconfigured: ${pick([0, 0.5])} }`,
      `  misbehaving: { sites: ${pick([0, 0.5])}, mean_episode_s: ${pick([300, 3000])}, mean_between_s: 1200 }`,
      `  managers: { s1: ${pick(['condor', 'pbs', 'lsf'])} }`,
      draw.network,
      ...(rng.next() < 0.5
        ? randomFaults(draw, n, [
            ...Array.from({ length: decisionPoints }, (_, i) => engineLocation(i + 1)),
            SUBMIT_LOCATION,
          ])
        : []),
    ].join('\n');
  },
};
