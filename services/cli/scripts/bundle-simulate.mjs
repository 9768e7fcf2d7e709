// Bundles `gridemu simulate` (dist/simulate-entry.js and everything it imports) into one CommonJS
// script, dist/simulate.bundle.cjs, which dist/main.js runs with a V8 code cache (see
// src/cached-bundle.ts for why). Beside it, dist/simulate.bundle.cjs.json lists the bundle's own
// inputs so that a bundle older than its sources is never used. Run by `npm run build`.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = resolve(cli, 'dist/simulate.bundle.cjs');
const built_ms = Date.now();
const result = await build({
  entryPoints: [resolve(cli, 'dist/simulate-entry.js')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  metafile: true,
  logLevel: 'silent',
});
// A warning here (import.meta in a bundled module, say) would be a bug at run time: fail the build.
if (result.warnings.length > 0) {
  for (const w of result.warnings)
    console.error(`bundle-simulate: ${w.location?.file ?? ''}:${w.location?.line ?? ''}: ${w.text}`);
  process.exit(1);
}
const inputs = Object.keys(result.metafile.inputs)
  .filter((p) => !p.includes('node_modules/'))
  .map((p) => {
    const file = resolve(process.cwd(), p);
    return {
      file: relative(dirname(outfile), file),
      sha256: createHash('sha256').update(readFileSync(file)).digest('hex'),
    };
  });
writeFileSync(`${outfile}.json`, JSON.stringify({ built_ms, inputs }, null, 1) + '\n');
