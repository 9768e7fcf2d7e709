import { AlternatingPeriods } from '../alternating-periods.js';
import { drawnSites, type SiteChoice } from './drawn-sites.js';

/**
 * Resource managers that "do not behave as expected" (paper 002, §4.2.1; Table XII's largest
 * category, "remote local scheduling timeout"): for periods, a prone site's manager accepts grid
 * jobs and starts none of them, while its own users' jobs run and its monitor keeps reporting. A
 * job sent there starves until the submit host's 20-minute re-plan takes it away (§3.2), or starts
 * late if the period ends first.
 */
export interface MisbehaviourSpec {
  /** Which sites are prone: a list of ids, or the share of the grid's sites, drawn per seed. */
  readonly sites: SiteChoice;
  /** Mean length of a period in which a prone site's manager starts no grid job (exponential). */
  readonly mean_episode_s: number;
  /** Mean time a prone site behaves between two such periods (exponential). */
  readonly mean_between_s: number;
}

/** The sites prone to misbehave in this run: the named ones, or `round(share × sites)` drawn from the seed. */
export function proneSites(spec: MisbehaviourSpec, siteIds: readonly string[], seed: number): Set<string> {
  return drawnSites(spec.sites, siteIds, seed, 'gruber/misbehaving-sites');
}

/** One prone site's periods of misbehaviour, from the seed and the site alone. */
export function misbehaviourOf(spec: MisbehaviourSpec, seed: number, site: string): AlternatingPeriods {
  return new AlternatingPeriods(spec.mean_episode_s, spec.mean_between_s, seed, `gruber/misbehaving/${site}`);
}
