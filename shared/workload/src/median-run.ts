/**
 * The jobs' median run, the timescale `gridemu run`'s fidelity guard judges most runs' hops and
 * timer lags against: the lower middle of the runs longer than 0 s, or undefined for none. One
 * definition, so that `gridemu trace info`'s budget is the guard's.
 */
export function medianRun_s(runs: readonly number[]): number | undefined {
  const sorted = runs.filter((r) => r > 0).sort((a, b) => a - b);
  return sorted.length > 0 ? sorted[Math.floor((sorted.length - 1) / 2)] : undefined;
}
