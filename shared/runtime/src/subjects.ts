import type { Address } from '@gridemu/protocol';

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
