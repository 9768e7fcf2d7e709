import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const REPO = resolve(fileURLToPath(import.meta.url), '../../../..');

/** The lint rule that keeps policies pure must actually fire (STYLE.md 6). */
describe('purity lint rule', () => {
  const eslint = new ESLint({ cwd: REPO, overrideConfigFile: resolve(REPO, 'eslint.config.js') });
  const lint = async (code: string, file: string) => {
    const [result] = await eslint.lintText(code, { filePath: resolve(REPO, file) });
    return result!.messages.map((m) => m.message);
  };

  it('refuses I/O, NATS, timers, the clock and Math.random in scheduling code', async () => {
    const code = [
      "import { readFileSync } from 'node:fs';",
      "import { connect } from '@nats-io/transport-node';",
      'export const a = [readFileSync, connect];',
      'export const b = () => setTimeout(() => 0, 1);',
      'export const c = () => Date.now() + Math.random();',
      'export const d = () => new Date();',
    ].join('\n');
    const messages = await lint(code, 'shared/scheduling/src/local/bad.ts');
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/'node:fs' import is restricted/),
        expect.stringMatching(/'@nats-io\/transport-node' import is restricted/),
        expect.stringMatching(/setTimeout.*ctx.schedule/),
        expect.stringMatching(/Use ctx.now\(\)/),
        expect.stringMatching(/seeded RNG/),
      ]),
    );
    expect(messages.length).toBeGreaterThanOrEqual(6);
  });

  it('allows the same code in a runtime', async () => {
    expect(
      await lint(
        "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;\n",
        'shared/runtime/src/x.ts',
      ),
    ).toEqual([]);
  });
});
