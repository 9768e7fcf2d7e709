import type { Address } from '@gridemu/protocol';

/**
 * NATS subjects: `gridemu.<run>.<address with / as .>`, so one run never hears another and an
 * actor `s1/scheduler` listens on `gridemu.<run>.s1.scheduler`. Run ids and site ids are single
 * subject tokens (letters, digits, _ and -).
 */
export function actorSubject(run: string, address: Address): string {
  return `gridemu.${run}.${address.replace(/\//g, '.')}`;
}

/** Every subject of a run (for tests and taps). */
export function runWildcard(run: string): string {
  return `gridemu.${run}.>`;
}

export function checkRunId(run: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(run)) throw new Error(`run id "${run}" must be 1-64 letters, digits, "_" or "-"`);
  return run;
}

/** The site an address belongs to, for latency and message accounting (`central` is its own place). */
export function siteOf(address: Address): string | undefined {
  const slash = address.indexOf('/');
  if (slash > 0) return address.slice(0, slash);
  return address === 'central' ? 'central' : undefined;
}
