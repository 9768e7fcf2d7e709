import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/**
 * Runs a CommonJS bundle with a V8 code cache beside it (FILE.v8-cache), and returns its exports.
 *
 * Why: Node 20 has no compile cache for ES modules, and `gridemu simulate` of a whole archive trace
 * spent about a fifth of its time loading and compiling a couple of hundred modules before any
 * scheduling. One script with cached bytecode skips the module resolution and most of
 * the compiling. The cache is written when the process exits, so it holds the functions the run
 * compiled; V8 rejects a cache made by another Node version, and it is then rewritten.
 * V8 checks only the source's length, so a rebuilt bundle of the same length ran the old bundle's
 * bytecode (a SyntaxError from a shifted offset): the cache starts with the source's SHA-256 and is
 * used only by that source. A cache that cannot be written (a read-only install) only costs the
 * speed-up.
 */
export function loadCachedBundle(file: string): unknown {
  const source = readFileSync(file, 'utf8');
  const cacheFile = `${file}.v8-cache`;
  const digest = createHash('sha256').update(source).digest();
  let cachedData: Buffer | undefined;
  try {
    const cache = readFileSync(cacheFile);
    cachedData = cache.subarray(0, digest.length).equals(digest) ? cache.subarray(digest.length) : undefined;
  } catch {
    cachedData = undefined;
  }
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new Script(wrapped, { filename: file, cachedData });
  if (cachedData === undefined || script.cachedDataRejected === true) {
    process.once('exit', () => {
      try {
        const tmp = `${cacheFile}.${process.pid}`;
        writeFileSync(tmp, Buffer.concat([digest, script.createCachedData()]));
        renameSync(tmp, cacheFile); // atomic: parallel sweep workers may race to write it
      } catch {
        // Not writable: the next run compiles again.
      }
    });
  }
  const module = { exports: {} as unknown };
  const init = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: { exports: unknown },
    filename: string,
    dir: string,
  ) => void;
  init(module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}
