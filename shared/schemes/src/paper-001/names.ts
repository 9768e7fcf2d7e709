/** Paper 001's schemes (§2.1, §4), in the order its report lists them. */
export const PAPER_001_SCHEMES = [
  'independent',
  'unified',
  'centralized',
  'hierarchical',
  'distributed',
  'k-distributed',
  'k-dual',
] as const;
export type Paper001Scheme = (typeof PAPER_001_SCHEMES)[number];

/** The location of the central metascheduler (centralized, hierarchical), hosted by the `central` service. */
export const CENTRAL_LOCATION = 'central';
/** The central metascheduler's address. */
export const CENTRAL = `${CENTRAL_LOCATION}/scheduler`;
/** The site that stands for the whole grid under `unified` (§3: all streams, all CPUs). */
export const UNIFIED_SITE = 'unified';

/** The schemes whose sites gossip their load to every metascheduler (§2.1: distributed). */
export const GOSSIPING_SCHEMES: ReadonlySet<string> = new Set<Paper001Scheme>([
  'distributed',
  'k-distributed',
  'k-dual',
]);

/** The topic sites publish their load on; metaschedulers subscribe to it (load gossip). */
export const LOAD_TOPIC = 'load';

/**
 * Its schemes whose actors survive faults. A site's crash loses the runs on its processors, which
 * go back to the queue that placed them (the site's, or the central one); central's crash holds
 * what is sent to it until it is back. Unified has one site standing for the whole grid.
 */
export const FAULT_TOLERANT_SCHEMES: readonly string[] = [
  'independent',
  'centralized',
  'hierarchical',
  'distributed',
  'k-distributed',
  'k-dual',
];
