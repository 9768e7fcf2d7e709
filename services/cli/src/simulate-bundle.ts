import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCachedBundle } from './cached-bundle.js';
import type { runSimulate } from './simulate-entry.js';

/** What scripts/bundle-simulate.mjs writes beside the bundle: its inputs, to notice a stale bundle. */
export interface BundleManifest {
  readonly built_ms: number;
  /** The bundle's own source files, relative to it, with their SHA-256 (npm's packages are left out). */
  readonly inputs: readonly { readonly file: string; readonly sha256: string }[];
}

const BUNDLE = fileURLToPath(new URL('./simulate.bundle.cjs', import.meta.url));

/**
 * The bundled `gridemu simulate` (src/simulate-entry.ts), or undefined to load the modules
 * one by one: under GRIDEMU_NO_BUNDLE=1, when the build made no bundle, or when a source was
 * rebuilt after the bundle (`tsc --watch`), so a run never uses code older than dist/.
 */
export function simulateBundle(): { runSimulate: typeof runSimulate } | undefined {
  if (process.env['GRIDEMU_NO_BUNDLE'] === '1') return undefined;
  let manifest: BundleManifest;
  try {
    manifest = JSON.parse(readFileSync(`${BUNDLE}.json`, 'utf8')) as BundleManifest;
  } catch {
    return undefined;
  }
  const stale = staleInput(manifest, dirname(BUNDLE));
  if (stale !== undefined) {
    console.error(
      `gridemu: ${stale} changed after the simulate bundle was built; loading modules one by one (npm run build makes a new bundle)`,
    );
    return undefined;
  }
  return loadCachedBundle(BUNDLE) as { runSimulate: typeof runSimulate };
}

/** The first input (as the manifest names it) that is gone or differs from what was bundled, if any. */
export function staleInput(manifest: BundleManifest, bundleDir: string): string | undefined {
  return manifest.inputs.find((input) => !unchanged(resolve(bundleDir, input.file), input.sha256, manifest.built_ms))
    ?.file;
}

/** A file not touched since the build is unchanged; one touched since (a rebuild, a restore from turbo's cache) is compared by content. */
function unchanged(file: string, sha256: string, built_ms: number): boolean {
  try {
    if (statSync(file).mtimeMs <= built_ms) return true;
    return createHash('sha256').update(readFileSync(file)).digest('hex') === sha256;
  } catch {
    return false;
  }
}
