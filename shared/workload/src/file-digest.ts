import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/**
 * The SHA-256 of a file's bytes, hex: which version of a trace a run read, for summary.json. The
 * archive revises its logs (the "-cln" cleanings, version numbers in the names), and a path says
 * where a file was, not what was in it.
 */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
