import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, resolve } from 'node:path';

/**
 * The first executable file called `name` in the folders of `path` (a PATH), else the first of
 * `fallbacks` that is one. The folders are read here rather than asked of a shell (`command -v`),
 * which a bare container or a trimmed PATH may not have.
 */
export function programOnPath(
  name: string,
  path = process.env['PATH'] ?? '',
  fallbacks: readonly string[] = [],
): string | undefined {
  const onPath = path
    .split(delimiter)
    .filter((dir) => dir !== '')
    .map((dir) => resolve(dir, name));
  return [...onPath, ...fallbacks].find(isExecutableFile);
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
