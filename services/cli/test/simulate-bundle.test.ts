import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { staleInput } from '../src/simulate-bundle.js';

const REPO = resolve(fileURLToPath(import.meta.url), '../../../..');
const MAIN = join(REPO, 'services/cli/dist/main.js');
const BUNDLE = join(REPO, 'services/cli/dist/simulate.bundle.cjs');
const tmp = () => mkdtempSync(join(tmpdir(), 'gridemu-bundle-'));
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function simulate(out: string, env: Record<string, string> = {}, extra: string[] = []) {
  const r = spawnSync(
    process.execPath,
    [MAIN, 'simulate', 'examples/quickstart.yaml', '--out', out, '--quiet', ...extra],
    {
      cwd: REPO,
      encoding: 'utf8',
      env: { ...process.env, ...env },
    },
  );
  return { code: r.status, err: r.stderr };
}

describe('the bundled gridemu simulate', () => {
  it('writes the same results as the modules loaded one by one, and leaves its code cache behind', () => {
    expect(existsSync(BUNDLE), 'npm run build makes dist/simulate.bundle.cjs').toBe(true);
    const bundled = tmp();
    const plain = tmp();
    expect(simulate(bundled).code).toBe(0);
    expect(simulate(plain, { GRIDEMU_NO_BUNDLE: '1' }).code).toBe(0);
    expect(readFileSync(join(bundled, 'jobs.csv'), 'utf8')).toBe(readFileSync(join(plain, 'jobs.csv'), 'utf8'));
    expect(existsSync(`${BUNDLE}.v8-cache`)).toBe(true);
  });

  it('reports bad input from inside the bundle as the modules do: the field, exit 2, no stack', () => {
    const bundled = simulate(tmp(), {}, ['--set', 'meta.k=0']);
    const plain = simulate(tmp(), { GRIDEMU_NO_BUNDLE: '1' }, ['--set', 'meta.k=0']);
    expect(bundled.code).toBe(2);
    expect(bundled.err).toMatch(/meta\.k: must be a positive integer/);
    expect(bundled.err).not.toMatch(/\n\s+at /);
    expect(bundled.err).toBe(plain.err);
  });
});

describe('loadCachedBundle', () => {
  const CACHED_BUNDLE = join(REPO, 'services/cli/dist/cached-bundle.js');
  // A fresh process each time: the cache is read when a bundle is loaded and written at exit.
  function load(file: string): string {
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { loadCachedBundle } from ${JSON.stringify(CACHED_BUNDLE)};` +
          `process.stdout.write(loadCachedBundle(${JSON.stringify(file)}).answer());`,
      ],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    return r.stdout;
  }

  it('runs a rebuilt bundle of the same length, not the bytecode cached from the one before', () => {
    const file = join(tmp(), 'b.cjs');
    const bundle = (word: string) => `exports.answer = function () { return '${word}'; };\n`;
    writeFileSync(file, bundle('first'));
    expect(load(file)).toBe('first');
    expect(existsSync(`${file}.v8-cache`)).toBe(true);
    expect(load(file)).toBe('first');
    // V8 accepts a cache for any source of the same length; only the digest in front tells them apart.
    writeFileSync(file, bundle('other'));
    expect(load(file)).toBe('other');
  });
});

describe('staleInput', () => {
  const dir = tmp();
  writeFileSync(join(dir, 'a.js'), 'export const a = 1;\n');
  const built_ms = Date.now() + 60_000;

  it('trusts a file not touched since the build', () => {
    expect(staleInput({ built_ms, inputs: [{ file: 'a.js', sha256: 'not even looked at' }] }, dir)).toBeUndefined();
  });

  it('compares a file touched since the build by its content', () => {
    const past = Date.now() - 60_000;
    utimesSync(join(dir, 'a.js'), new Date(), new Date());
    expect(
      staleInput({ built_ms: past, inputs: [{ file: 'a.js', sha256: sha256('export const a = 1;\n') }] }, dir),
    ).toBeUndefined();
    expect(
      staleInput({ built_ms: past, inputs: [{ file: 'a.js', sha256: sha256('export const a = 2;\n') }] }, dir),
    ).toBe('a.js');
  });

  it('names an input that is gone', () => {
    expect(
      staleInput(
        {
          built_ms,
          inputs: [
            { file: 'a.js', sha256: '' },
            { file: 'gone.js', sha256: '' },
          ],
        },
        dir,
      ),
    ).toBe('gone.js');
  });
});
