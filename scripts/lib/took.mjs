import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How long a report's runs took to make: measured since `started` (and recorded in OUT/took_s.txt),
 * or, when the report is rewritten with --reuse, as recorded when the runs were made.
 */
export function tookSeconds(out, reuse, started) {
  const file = join(out, 'took_s.txt');
  if (reuse && existsSync(file)) return readFileSync(file, 'utf8').trim();
  const took = ((Date.now() - started) / 1000).toFixed(0);
  writeFileSync(file, took + '\n');
  return took;
}
