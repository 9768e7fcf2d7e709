import { Rng } from '@gridemu/runtime';
import { META_SCHEMES } from '@gridemu/schemes';

/**
 * A small random experiment file for one fuzz seed: any scheme of any family, a few sites, a short
 * workload, random latency, jitter and timeouts. The same seed always gives the same text, which
 * is how a failure is reproduced (`gridemu fuzz --seed S` prints it).
 */
export function randomSpec(seed: number): string {
  const rng = new Rng(seed, 'fuzz');
  const pick = <T>(xs: readonly T[]): T => xs[rng.int(0, xs.length - 1)]!;
  const family = pick(['paper-001', 'paper-001', 'paper-001', 'gruber', 'hierarchy', 'shadow', 'dag'] as const);
  const latency = pick([0, 1, 10, 50, 200]);
  const jitter = latency === 0 ? 0 : pick([0, Math.round(latency / 2)]);
  const network = `network: { latency_ms: ${latency}, jitter_ms: ${jitter} }`;
  const head = [`name: fuzz-${seed}`, `seed: ${seed}`];
  if (family === 'paper-001') {
    const n = rng.int(2, 5);
    const scheme = pick(['independent', 'unified', 'centralized', 'hierarchical', 'distributed', 'k-distributed', 'k-dual']);
    const sites = Array.from({ length: n }, (_, i) => `  - { id: s${i + 1}, cpus: ${pick([8, 16, 32, 64])} }`);
    const jobs = Array.from({ length: n }, (_, i) => `  - { site: s${i + 1}, synthetic: { jobs: ${rng.int(20, 80)}, uhi: ${pick([2, 3, 4])} }, shift_h: ${rng.int(0, 3)} }`);
    return [
      ...head,
      'sites:',
      ...sites,
      'workload:',
      ...jobs,
      `local: { policy: ${scheme === 'k-dual' ? 'easy' : pick(['fcfs', 'easy'])} }`,
      `meta: { scheme: ${scheme}, k: ${rng.int(1, n)}, load_period_s: ${pick([10, 60, 600])}, claim_timeout_s: ${pick([0.5, 5, 60])}, claim: ${pick(['hold', 'optimistic'])}, query_timeout_s: ${pick([1, 60])} }`,
      network,
      ...(META_SCHEMES.faultTolerant.includes(scheme) && rng.next() < 0.7 ? randomFaults(rng, n, scheme === 'centralized' || scheme === 'hierarchical') : []),
    ].join('\n');
  }
  if (family === 'gruber') {
    const n = rng.int(2, 5);
    return [
      ...head,
      `sites: [${Array.from({ length: n }, (_, i) => `{ id: s${i + 1}, cpus: ${pick([4, 8, 16])}, speed: ${pick([0.5, 1, 2])} }`).join(', ')}]`,
      'workload:',
      `  - { name: blast, blast: { vo: ivdgl, submitters: ${rng.int(1, 3)}, jobs: ${rng.int(5, 30)}, runtime_s: ${pick([60, 600])} } }`,
      `  - { name: local, site: s1, vo: atlas, synthetic: { jobs: ${rng.int(5, 30)}, uhi: 2 } }`,
      'meta:',
      '  scheme: gruber',
      `  selector: ${pick(['G-RA', 'G-RR', 'G-LU', 'G-LRU', 'G-Obs', 'S-RA'])}`,
      `  decision_points: ${rng.int(1, 3)}`,
      `  monitor_period_s: ${pick([10, 60])}`,
      `  query_timeout_s: ${pick([5, 60])}`,
      '  vos: { ivdgl: { group_share: 50 }, atlas: {} }',
      '  site_policy: { "*": { ivdgl: { cpu: 50, burst: 75 }, atlas: { cpu: 50 } } }',
      `  failures: { rate: ${pick([0, 0.1, 0.3])} }`,
      network,
    ].join('\n');
  }
  if (family === 'hierarchy') {
    return [
      ...head,
      'sites: [{ id: server, cpus: 2 }, { id: small, cpus: 20 }, { id: big, cpus: 100 }]',
      'workload:',
      `  - { name: tasks, site: server, tasks: { stream: { tasks: ${rng.int(10, 60)}, short_max_s: 180, medium_max_s: 100000, tail_max_s: 2000000, burst_gap_s: ${pick([300, 3600])} } } }`,
      'meta:',
      `  scheme: ${pick(['fcfs-flat', 'fcfs-hierarchy', 'mq-flat', 'mq-hierarchy'])}`,
      `  alpha: ${pick([0.05, 0.1, 0.3])}`,
      '  grids:',
      '    server: { N: 2, P: 1.2, overhead_s: 0, evictions_per_hour: 0 }',
      `    small: { N: 10, P: 1.1, overhead_s: ${pick([5, 20])}, evictions_per_hour: ${pick([0, 0.5])} }`,
      `    big: { N: 50, P: 1, overhead_s: ${pick([60, 180])}, evictions_per_hour: ${pick([0, 0.3, 2])} }`,
      '  queues:',
      '    - { id: Q1, level: 1, grids: [server], T_q_min: 6, T_e_min: 3, parallel: false }',
      `    - { id: Q2, level: 2, grids: [small], T_q_min: 60, T_e_min: 30, job_min: 5, share_with: [Q3] }`,
      '    - { id: Q3, level: 2, grids: [big], T_q_min: 60, T_e_min: 30, job_min: 5, entry: false, priority: 1 }',
      `    - { id: Q4, level: 3, grids: [big], T_q_min: 600, T_e_min: 600, job_min: 10, priority: 3, policies: { task-potential-overdue: ${pick([true, false])} } }`,
      `  load_sharing: { period_s: ${pick([10, 60])}, min_pending_jobs: ${pick([1, 5])} }`,
      network,
    ].join('\n');
  }
  if (family === 'dag') {
    const n = rng.int(1, 4);
    return [
      ...head,
      `sites: [${Array.from({ length: n }, (_, i) => `{ id: s${i + 1}, cpus: ${pick([1, 2, 8])} }`).join(', ')}]`,
      `workload: [{ site: s1, tornado: { jobs: ${rng.int(2, 12)}, parallel: ${pick([1, 2, 5, 10])}, variation: ${pick(['high', 'medium', 'low'])}, median_s: ${pick([60, 600, 3600])}, batch_gap_h: ${pick([0.1, 1])} } }]`,
      pick([
        'meta: { scheme: dag-static }',
        `meta: { scheme: dag-adaptive, model: ${pick(['decreasing', 'increasing', 'oscillating'])}, min_improvement: ${pick([0, 0.2, 0.7])}, round_period_s: ${pick([5, 60, 600])}, progress_period_s: ${pick([5, 30])} }`,
      ]),
      network,
    ].join('\n');
  }
  const n = rng.int(2, 8);
  return [
    ...head,
    `sites: [${Array.from({ length: n }, (_, i) => `{ id: r${i + 1}, cpus: ${pick([1, 1, 2])} }`).join(', ')}]`,
    `workload: [{ site: r1, synthetic: { jobs: ${rng.int(20, 120)}, uhi: 1 } }]`,
    `meta: { scheme: ${pick(['shadow', 'mct', 'jsq'])}, eta: ${pick([0.1, 0.001, 0.00001])}, speeds: { uniform: [1, 8] }, errors: { model: ${pick(['over-under', 'over'])}, I: ${pick([0, 0.2, 0.4])}, apply: ${pick(['lengths', 'both'])} }, query_timeout_s: ${pick([0.05, 60])} }`,
    network,
  ].join('\n');
}

/**
 * A random fault schedule over sites s1..sN (and the central process, if the scheme has one):
 * crashes (never two of one process at once), at most one partition, and some message loss,
 * within the first day, when the small workloads run.
 */
function randomFaults(rng: Rng, sites: number, central: boolean): string[] {
  const crashes: string[] = [];
  const processes = [...Array.from({ length: sites }, (_, i) => `s${i + 1}`), ...(central ? ['central'] : [])];
  for (const process of processes) {
    let t = rng.uniform(0, 20000);
    for (let k = rng.int(0, 3); k > 0; k--) {
      const down = Math.round(rng.uniform(10, 6000));
      crashes.push(`{ process: ${process}, at_s: ${Math.round(t)}, down_s: ${down} }`);
      t += down + rng.uniform(1, 20000);
    }
  }
  const lines = ['faults:', `  crash: [${crashes.join(', ')}]`];
  if (rng.next() < 0.5) {
    const from = Math.round(rng.uniform(0, 30000));
    lines.push(`  partition: [{ sites: [s${rng.int(1, sites)}], from_s: ${from}, to_s: ${from + Math.round(rng.uniform(10, 20000))} }]`);
  }
  lines.push(`  drop: ${[0, 0.01, 0.1, 0.3][rng.int(0, 3)]}`);
  return lines;
}
