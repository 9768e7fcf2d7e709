/**
 * Actor addresses. An actor placed at a location (a site, or a scheme's own service such as
 * `central`) is `<location>/<role>`; run-wide actors (the driver) have a bare name.
 */
export type Address = string;

export const DRIVER: Address = 'driver';

/** The topic sites publish their load on; metaschedulers subscribe to it (load gossip). */
export const LOAD_TOPIC = 'load';

/**
 * Topics whose newest message makes the older ones from the same sender moot: a receiver keeps
 * only the last. A live run may thin them in wall time (LiveRuntime's `latestValue`; issue 15).
 */
export const LATEST_VALUE_TOPICS: ReadonlySet<string> = new Set([LOAD_TOPIC]);

export const siteRoles = { scheduler: 'scheduler', executor: 'executor', meta: 'meta' } as const;
export type SiteRole = (typeof siteRoles)[keyof typeof siteRoles];

export function siteAddress(site: string, role: SiteRole): Address {
  return `${site}/${role}`;
}
