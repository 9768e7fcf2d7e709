/** Actor addresses. A site's actors are `<site>/<role>`; run-wide actors have a bare name. */
export type Address = string;

export const DRIVER: Address = 'driver';

/** The central metascheduler of the centralized and hierarchical schemes; it sits at its own location, `central`. */
export const CENTRAL: Address = 'central';
export const CENTRAL_LOCATION = 'central';

/** The topic sites publish their load on; metaschedulers subscribe to it (load gossip). */
export const LOAD_TOPIC = 'load';

export const siteRoles = { scheduler: 'scheduler', executor: 'executor', meta: 'meta' } as const;
export type SiteRole = (typeof siteRoles)[keyof typeof siteRoles];

export function siteAddress(site: string, role: SiteRole): Address {
  return `${site}/${role}`;
}
