/**
 * Actor addresses. An actor placed at a location (a site, or a scheme's own service such as
 * `central`) is `<location>/<role>`; run-wide actors (the driver) have a bare name.
 */
export type Address = string;

export const DRIVER: Address = 'driver';

export const siteRoles = { scheduler: 'scheduler', executor: 'executor', meta: 'meta' } as const;
export type SiteRole = (typeof siteRoles)[keyof typeof siteRoles];

export function siteAddress(site: string, role: SiteRole): Address {
  return `${site}/${role}`;
}
