import type { Address } from '@gridemu/protocol';
import { SERVICES } from './dag-grid.js';

/** Paper 003's two schedulers (§3, §4), each a scheme. */
export const DAG_SCHEMES = ['dag-static', 'dag-adaptive'] as const;

/** The grid's general services (GSched, IS, CS), one location of their own (live: a `dag` process). */
export const SERVICES_LOCATION = SERVICES;
export const SCHEDULER: Address = `${SERVICES}/gsched`;
export const INFORMATION_SERVICE: Address = `${SERVICES}/is`;
export const CHECKPOINT_SERVER: Address = `${SERVICES}/cs`;

/** The actor holding a site's computational resources. */
export function crsAddress(site: string): Address {
  return `${site}/crs`;
}

/** The counter of the seconds a site's CRs ran work, summed over its CRs (the run's utilization). */
export function siteBusyCounter(site: string): string {
  return `dag.site.${site}.busy_s`;
}
