/**
 * The largest and smallest of a run's numbers. `Math.max(...values)` passes every value as an
 * argument, and a run's jobs (more than 130,000 in examples/gruber-grid3.yaml) overflow the call
 * stack that way; these take any number.
 */

/** The largest of `values`, or `ifEmpty` when there are none. */
export function largest(values: Iterable<number>, ifEmpty = Number.NEGATIVE_INFINITY): number {
  let most = ifEmpty;
  let any = false;
  for (const v of values) {
    most = any ? Math.max(most, v) : v;
    any = true;
  }
  return most;
}

/** The smallest of `values`, or `ifEmpty` when there are none. */
export function smallest(values: Iterable<number>, ifEmpty = Number.POSITIVE_INFINITY): number {
  let least = ifEmpty;
  let any = false;
  for (const v of values) {
    least = any ? Math.min(least, v) : v;
    any = true;
  }
  return least;
}
