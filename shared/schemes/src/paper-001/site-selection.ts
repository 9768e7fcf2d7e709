/**
 * The K least-loaded sites, from the loads a metascheduler last heard (paper 001 §4.1). A site
 * not heard from yet counts as load 0 (idle). Ties go to the origin first, then to the sites after
 * it in the grid's order, wrapping round, so equal loads do not all pile onto the first site.
 */
export function leastLoadedSites(
  sites: readonly string[],
  loads: ReadonlyMap<string, number>,
  k: number,
  origin: string,
): string[] {
  const start = Math.max(0, sites.indexOf(origin));
  const rotated = [...sites.slice(start), ...sites.slice(0, start)];
  return rotated
    .map((site, order) => ({ site, order, load: loads.get(site) ?? 0 }))
    .sort((a, b) => a.load - b.load || a.order - b.order)
    .slice(0, k)
    .map((x) => x.site);
}

/**
 * Greedy distributed (paper 001 §2.1.3): move the job to the least-loaded site only if that site
 * is less loaded than the origin; otherwise keep it.
 */
export function greedyTarget(sites: readonly string[], loads: ReadonlyMap<string, number>, origin: string): string {
  const [best] = leastLoadedSites(sites, loads, 1, origin);
  if (best === undefined) return origin;
  return (loads.get(best) ?? 0) < (loads.get(origin) ?? 0) ? best : origin;
}
