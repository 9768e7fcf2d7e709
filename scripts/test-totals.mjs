// Adds up the vitest JSON reports each package wrote and prints one closing line,
// "N passed, N failed", so the whole suite's result reads at a glance (and by CI).
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const clean = process.argv.includes('--clean');
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
const skippedTitles = [];
for (const group of ['shared', 'services']) {
  for (const name of readdirSync(group)) {
    const dir = join(group, name);
    if (!existsSync(join(dir, 'test'))) continue;
    const report = join(dir, 'test-results.json');
    if (clean) {
      // Before a run: no report may be left from an earlier one.
      rmSync(report, { force: true });
      continue;
    }
    if (!existsSync(report)) {
      missing.push(dir);
      continue;
    }
    const r = JSON.parse(readFileSync(report, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    for (const file of r.testResults ?? []) {
      for (const t of file.assertionResults ?? [])
        if (t.status === 'pending' || t.status === 'skipped') skippedTitles.push(`${dir}: ${t.title}`);
    }
  }
}
if (clean) process.exit(0);
// A fresh clone without the archive traces skips the tests that read them; each says what it needs.
for (const t of skippedTitles) console.log(`skipped ${t}`);
if (missing.length > 0) console.log(`no test report from: ${missing.join(', ')}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing.length > 0 || passed === 0 ? 1 : 0);
