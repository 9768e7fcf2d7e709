import type { Address } from '@gridemu/protocol';

/** GRUBER (paper 002): one scheme; the site selector is an option. */
export const GRUBER_SCHEMES = ['gruber'] as const;

/**
 * §2.2 and §4.1: GRUBER's four standard selectors, the observant one, and S-RA, which picks any
 * site at random without asking the engine.
 */
export const SELECTORS = ['G-RA', 'G-RR', 'G-LU', 'G-LRU', 'G-Obs', 'S-RA'] as const;
export type SelectorName = (typeof SELECTORS)[number];

/** At most this many decision points (DI-GRUBER engines). */
export const MAX_DECISION_POINTS = 8;

/** Location of decision point n (1-based): `gruber`, `gruber-2`, ... each hosted by a `gruber` service process. */
export function engineLocation(n: number): string {
  return n === 1 ? 'gruber' : `gruber-${n}`;
}

export const ENGINE_LOCATIONS: readonly string[] = Array.from({ length: MAX_DECISION_POINTS }, (_, i) =>
  engineLocation(i + 1),
);

export function engineAddress(n: number): Address {
  return `${engineLocation(n)}/engine`;
}

/** A site's local resource manager (queue, per-VO limits, execution). */
export function lrmAddress(site: string): Address {
  return `${site}/lrm`;
}

export function monitorAddress(site: string): Address {
  return `${site}/monitor`;
}

/**
 * Where the submit hosts (Euryale's planners with GRUBER's site selectors) run: a location of
 * their own, so their queries and submissions cross the network as they did on Grid3; live, a
 * `gruber` service process hosts it.
 */
export const SUBMIT_LOCATION = 'submit';

/** Submit host n (1-based), one per submitting group. */
export function submitHostAddress(n: number): Address {
  return `${SUBMIT_LOCATION}/host-${n}`;
}

/** The topic site monitors publish per-VO usage on; every decision point hears it. */
export const USAGE_TOPIC = 'gruber-usage';
/** The topic decision points tell each other what they dispatched on (DI-GRUBER). */
export const DECISIONS_TOPIC = 'gruber-decisions';
