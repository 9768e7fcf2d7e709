import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { PolicyProcess } from '../src/index.js';

/** A policy that answers each request with its number, a millisecond later. */
function echoPolicy(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'gridemu-policy-')), 'echo.mjs');
  writeFileSync(
    file,
    `import { createInterface } from 'node:readline';
createInterface({ input: process.stdin }).on('line', (line) => {
  const { n } = JSON.parse(line);
  setTimeout(() => process.stdout.write(JSON.stringify({ n }) + '\\n'), 1);
});
`,
  );
  return file;
}

describe('PolicyProcess', () => {
  it('hands each request its own answer, even when a notify meant for an earlier one wakes it', async () => {
    const policy = new PolicyProcess([process.execPath, echoPolicy()], 'the test policy', 30_000);
    // A late notify of the previous answer looks like this thread's, which notifies the answer word
    // over and over: a wake-up that is not an answer.
    const control = (policy as unknown as { control: Int32Array }).control;
    const noise = new Worker(
      `const { workerData } = require('node:worker_threads');
const word = new Int32Array(workerData);
for (;;) Atomics.notify(word, 0);`,
      { eval: true, workerData: control.buffer },
    );
    try {
      for (let n = 1; n <= 100; n++) expect(policy.ask({ n })).toEqual({ n });
    } finally {
      await noise.terminate();
      policy.close();
    }
  });

  it('names the request it waited for in vain', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gridemu-policy-')), 'mute.mjs');
    writeFileSync(file, 'process.stdin.resume();\n');
    const policy = new PolicyProcess([process.execPath, file], 'the mute policy', 300);
    try {
      expect(() => policy.ask({ n: 1 })).toThrow(/the mute policy .* did not answer request 1 within 0.3 s/);
    } finally {
      policy.close();
    }
  });
});
