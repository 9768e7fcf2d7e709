import { Rng } from '@gridemu/runtime';

/** Sites given by name, or as a share of the grid's sites (0 to 1) drawn per seed. */
export type SiteChoice = number | readonly string[];

/**
 * The sites `choice` names, or `round(share × sites)` of them drawn from the seed on the stream
 * `stream`, so that two properties drawn this way (misbehaving managers, a missing environment)
 * fall on sites independently of each other and every selector of a seed meets the same ones.
 */
export function drawnSites(choice: SiteChoice, siteIds: readonly string[], seed: number, stream: string): Set<string> {
  if (typeof choice !== 'number') return new Set(choice);
  const n = Math.round(choice * siteIds.length);
  const order = [...siteIds];
  const rng = new Rng(seed, stream);
  // Fisher–Yates, then the first n.
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return new Set(order.slice(0, n));
}
