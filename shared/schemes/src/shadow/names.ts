import type { Address } from '@gridemu/protocol';

/** Paper 004's three routers (§2, §3.2), and the class-based Shadow Routing it improves on, each a scheme. */
export const SHADOW_SCHEMES = ['shadow', 'mct', 'jsq', 'shadow-classes'] as const;
export type RouterScheme = (typeof SHADOW_SCHEMES)[number];

/** The grid scheduler: a location of its own, far from every resource (live: a `router` process). */
export const ROUTER_LOCATION = 'scheduler';
export const ROUTER: Address = `${ROUTER_LOCATION}/router`;

/** A resource: one dedicated machine (or pool) with a FIFO queue, at its site. */
export function resourceAddress(site: string): Address {
  return `${site}/resource`;
}
