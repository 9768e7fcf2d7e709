// One vitest configuration for every workspace package. Tests import sibling packages
// from their TypeScript sources (not dist/), so a test run never sees stale build output.
import { readdirSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = dirname(fileURLToPath(import.meta.url));
const alias: { find: string; replacement: string }[] = [];
for (const group of ['shared', 'services']) {
  for (const name of readdirSync(join(root, group))) {
    const entry = join(root, group, name, 'src', 'index.ts');
    if (existsSync(entry)) alias.push({ find: `@gridemu/${name}`, replacement: entry });
  }
}

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['test/**/*.test.ts'],
    passWithNoTests: true,
    testTimeout: 60_000,
    pool: 'threads',
    poolOptions: { threads: { maxThreads: 2, minThreads: 1 } },
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
