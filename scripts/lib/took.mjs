import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Seconds spent in runs made by this invocation (see `timed`). */
let madeNow_s = 0;

/** Runs `make` (one run or sweep a report makes) and counts its time as spent making runs. */
export function timed(make) {
  const t0 = Date.now();
  try {
    return make();
  } finally {
    madeNow_s += (Date.now() - t0) / 1000;
  }
}

/**
 * How long a report's runs took to make: measured since `started` (and recorded in OUT/took_s.txt),
 * or, when the report is rewritten with --reuse, as recorded when the runs were made, plus what the
 * runs this invocation had to make (those missing) took; the sum is recorded in turn.
 */
export function tookSeconds(out, reuse, started) {
  const file = join(out, 'took_s.txt');
  if (reuse && existsSync(file)) {
    const recorded = Number(readFileSync(file, 'utf8').trim());
    if (madeNow_s < 0.5) return recorded.toFixed(0);
    const total = (recorded + madeNow_s).toFixed(0);
    writeFileSync(file, total + '\n');
    return total;
  }
  const took = ((Date.now() - started) / 1000).toFixed(0);
  writeFileSync(file, took + '\n');
  return took;
}
