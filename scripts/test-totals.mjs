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
    // test-results.json, and a package whose files run in two passes (services/cli: those that
    // start no live run side by side, then the rest one at a time) writes test-results-<pass>.json.
    const reports = readdirSync(dir)
      .filter((f) => /^test-results(-[a-z]+)?\.json$/.test(f))
      .map((f) => join(dir, f));
    if (clean) {
      // Before a run: no report may be left from an earlier one.
      for (const report of reports) rmSync(report, { force: true });
      continue;
    }
    if (!reports.some((f) => f.endsWith('test-results.json'))) {
      missing.push(dir);
      continue;
    }
    for (const report of reports) {
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
}
if (clean) process.exit(0);
// A fresh clone without the archive traces skips the tests that read them; each says what it needs.
for (const t of skippedTitles) console.log(`skipped ${t}`);
if (missing.length > 0) console.log(`no test report from: ${missing.join(', ')}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing.length > 0 || passed === 0 ? 1 : 0);
