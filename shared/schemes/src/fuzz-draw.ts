import type { Rng } from '@gridemu/runtime';

/**
 * What the fuzzer hands a family to draw one small random experiment of its schemes: the seed's
 * random stream, the file's first lines (name, seed) and its `network:` line. The same draws in
 * the same order give the same text, which is how `gridemu fuzz --seed S` reproduces a failure.
 */
export interface FuzzDraw {
  readonly rng: Rng;
  pick<T>(xs: readonly T[]): T;
  readonly head: readonly string[];
  readonly network: string;
  /**
   * Fault times are drawn as offsets and written from here on: the workload's first submission,
   * where the run's clock starts (a fault before it is refused). The fuzzer learns it by drawing
   * the experiment once with 0, and then draws it again, the same draws, from there.
   */
  readonly faultsFrom_s: number;
  /**
   * The seed's stream for the server's restarts, apart from `rng` so that drawing them left every
   * other draw of a seed, and so its experiment, as it was before they were added.
   */
  readonly serverRng: Rng;
}

/** A family's part in fuzzing: how often it is drawn against the others, and its random experiment. */
export interface FuzzSpecs {
  /** Draws of this family per draw of a family of weight 1. */
  readonly weight: number;
  /** The experiment file's text. */
  spec(draw: FuzzDraw): string;
}

/**
 * A random fault schedule over the sites (s1..sN, or the ids given) and the processes named:
 * crashes (never two of one process at once), at most one partition, at most one restart of the
 * NATS server, and some message loss, within the first day, when the small fuzzed workloads run.
 */
export function randomFaults(
  draw: FuzzDraw,
  sites: number | readonly string[],
  otherProcesses: readonly string[],
): string[] {
  const { rng, faultsFrom_s: t0 } = draw;
  const crashes: string[] = [];
  const siteIds = typeof sites === 'number' ? Array.from({ length: sites }, (_, i) => `s${i + 1}`) : sites;
  const processes = [...siteIds, ...otherProcesses];
  for (const process of processes) {
    let t = rng.uniform(0, 20000);
    for (let k = rng.int(0, 3); k > 0; k--) {
      const down = Math.round(rng.uniform(10, 6000));
      crashes.push(`{ process: ${process}, at_s: ${t0 + Math.round(t)}, down_s: ${down} }`);
      t += down + rng.uniform(1, 20000);
    }
  }
  const lines = ['faults:', `  crash: [${crashes.join(', ')}]`];
  if (rng.next() < 0.5) {
    const from = t0 + Math.round(rng.uniform(0, 30000));
    lines.push(
      `  partition: [{ sites: [${siteIds[rng.int(1, siteIds.length) - 1]}], from_s: ${from}, to_s: ${from + Math.round(rng.uniform(10, 20000))} }]`,
    );
  }
  if (draw.serverRng.next() < 0.3) {
    const at = t0 + Math.round(draw.serverRng.uniform(0, 30000));
    lines.push(`  nats_restart: [{ at_s: ${at}, down_s: ${Math.round(draw.serverRng.uniform(10, 3000))} }]`);
  }
  lines.push(`  drop: ${[0, 0.01, 0.1, 0.3][rng.int(0, 3)]}`);
  return lines;
}
