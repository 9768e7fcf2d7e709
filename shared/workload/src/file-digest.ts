import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';

/**
 * The SHA-256 of a file's bytes, hex: which version of a trace a run read, for summary.json. The
 * archive revises its logs (the "-cln" cleanings, version numbers in the names), and a path says
 * where a file was, not what was in it.
 */
export function sha256OfFile(path: string): Promise<string> {
  // Several sources often read one trace (paper 001's four slices): it is read once, unless its
  // size or modification time says it was written since.
  const { size, mtimeMs } = statSync(path);
  const key = `${path}\0${size}\0${mtimeMs}`;
  let digest = digests.get(key);
  if (digest === undefined) {
    digest = digestOf(path);
    digests.set(key, digest);
  }
  return digest;
}

const digests = new Map<string, Promise<string>>();

async function digestOf(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
