import type { Address } from '@gridemu/protocol';

export function checkRunId(run: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(run)) throw new Error(`run id "${run}" must be 1-64 letters, digits, "_" or "-"`);
  return run;
}

/** The location of an address `<location>/<role>`; undefined for a run-wide actor (a bare name). */
export function siteOf(address: Address): string | undefined {
  const slash = address.indexOf('/');
  return slash > 0 ? address.slice(0, slash) : undefined;
}
