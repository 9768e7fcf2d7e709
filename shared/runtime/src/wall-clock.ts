/**
 * Unix time in milliseconds at performance.now() = 0. performance.timeOrigin is one reading of two
 * clocks at start-up; a process descheduled between them (a loaded machine starting many processes)
 * is off by as long, and two processes on one host then disagree by a fraction of a millisecond:
 * tens of emulated seconds at speed-up 100,000, and one-way latencies measured shorter than the
 * link's. Instead: wait for Date.now() to tick, which marks a whole millisecond, and read
 * performance.now() right after; a late read only makes the origin smaller, so the largest of three
 * is the best. Costs about three milliseconds, once, on the first reading: a process that never
 * reads the wall clock (gridemu simulate) does not pay it.
 */
function calibrateOrigin(): number {
  performance.now();
  Date.now();
  let origin = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const before = Date.now();
    let now = Date.now();
    while (now === before) now = Date.now();
    origin = Math.max(origin, now - performance.now());
  }
  return origin;
}

let origin_ms: number | undefined;

/** Wall-clock milliseconds with sub-millisecond resolution, comparable between processes on one host. */
export function wallNow_ms(): number {
  return (origin_ms ??= calibrateOrigin()) + performance.now();
}
