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

/**
 * How a sender is named on the bus: its location (the process that hosts it), or a run-wide
 * actor's own name (`driver`). A live run's subjects carry it, so the server can hold each process
 * to publishing as itself and a receiver can check an envelope's sender against it.
 */
export function senderOf(address: Address): string {
  return siteOf(address) ?? address;
}
