import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './exit-codes.js';

/**
 * Makes the folder a command writes into, or says in one line, before any work starts, why it
 * cannot: a path through a file, no permission, a read-only disk. `option` is how the user gave
 * it (`--out DIR`). The folders are made one level at a time: Node's recursive mkdirSync never
 * returns for a path under /proc.
 */
export function makeOutputFolder(dir: string, option: string, mode?: number): void {
  const missing: string[] = [];
  let at = resolve(dir);
  while (!existsSync(at)) {
    missing.unshift(at);
    if (dirname(at) === at) break;
    at = dirname(at);
  }
  if (existsSync(at) && !statSync(at).isDirectory()) throw new UsageError(`${option}: ${at} is a file, not a folder`);
  for (const folder of missing) {
    try {
      mkdirSync(folder, mode === undefined ? {} : { mode });
    } catch (err) {
      throw new UsageError(`${option}: cannot make ${folder} (${(err as NodeJS.ErrnoException).code ?? err})`);
    }
  }
  try {
    accessSync(resolve(dir), constants.W_OK);
  } catch (err) {
    throw new UsageError(`${option}: cannot write in ${resolve(dir)} (${(err as NodeJS.ErrnoException).code ?? err})`);
  }
}
