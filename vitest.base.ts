// One vitest configuration for every workspace package. Tests import sibling packages
// from their TypeScript sources (not dist/), so a test run never sees stale build output.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = dirname(fileURLToPath(import.meta.url));
const alias: { find: string; replacement: string }[] = [];
const roots: typeof alias = [];
for (const group of ['shared', 'services']) {
  for (const name of readdirSync(join(root, group))) {
    const entry = join(root, group, name, 'src', 'index.ts');
    if (!existsSync(entry)) continue;
    // Subpath entry points (`@gridemu/runtime/live` -> src/live.ts) first: the first match wins.
    const pkg = JSON.parse(readFileSync(join(root, group, name, 'package.json'), 'utf8')) as {
      exports?: Record<string, unknown>;
    };
    for (const sub of Object.keys(pkg.exports ?? {})) {
      const file = join(root, group, name, 'src', `${sub.slice(2)}.ts`);
      if (sub !== '.' && existsSync(file)) alias.push({ find: `@gridemu/${name}/${sub.slice(2)}`, replacement: file });
    }
    roots.push({ find: `@gridemu/${name}`, replacement: entry });
  }
}
alias.push(...roots);

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: [join(root, 'scripts/test-temp-folder.mjs')],
    passWithNoTests: true,
    testTimeout: 60_000,
    pool: 'threads',
    poolOptions: { threads: { maxThreads: 2, minThreads: 1 } },
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
