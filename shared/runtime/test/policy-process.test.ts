import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { PolicyProcess, relativePathsMissing } from '../src/index.js';

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

  it('leaves no zombie behind once closed: a fuzz of thousands of runs in one process had one a run', async () => {
    // The policy's process was the worker's child; the worker was terminated at once, and no event
    // loop was left to reap the killed process.
    const policy = new PolicyProcess([process.execPath, echoPolicy()], 'the test policy', 30_000);
    expect(policy.ask({ n: 1 })).toEqual({ n: 1 });
    const pid = (policy as unknown as { control: Int32Array }).control[2]!;
    policy.close();
    // Linux: the third field of /proc/PID/stat is the state, Z for a zombie; gone once reaped.
    const state = () =>
      existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0] : 'gone';
    await expect.poll(state, { timeout: 30_000, interval: 50 }).toBe('gone');
  }, 60_000);

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

  it('gives the first answer, which includes the start-up, its own limit', () => {
    // A policy that takes 1.5 s to start (an interpreter loading its libraries), then echoes.
    const file = join(mkdtempSync(join(tmpdir(), 'gridemu-policy-')), 'slow-start.mjs');
    writeFileSync(
      file,
      `await new Promise((started) => setTimeout(started, 1500));
import('node:readline').then(({ createInterface }) =>
  createInterface({ input: process.stdin }).on('line', (line) => process.stdout.write(line + '\\n')),
);
`,
    );
    // Its start-up is longer than the answer limit, which holds from the second request on.
    const roomy = new PolicyProcess([process.execPath, file], 'the slow policy', 1_000, 30_000);
    try {
      expect(roomy.ask({ n: 1 })).toEqual({ n: 1 });
      expect(roomy.ask({ n: 2 })).toEqual({ n: 2 });
    } finally {
      roomy.close();
    }
    // Without a limit of its own the first answer is held to the answer limit, start-up and all.
    const tight = new PolicyProcess([process.execPath, file], 'the slow policy', 1_000);
    try {
      expect(() => tight.ask({ n: 1 })).toThrow(/did not answer request 1 within 1 s \(its start-up included\)/);
    } finally {
      tight.close();
    }
  });

  it('names a path in its command that is not there from the working directory when the policy exits', () => {
    const policy = new PolicyProcess([process.execPath, 'no-such-folder/policy.mjs'], 'the lost policy', 30_000);
    try {
      expect(() => policy.ask({ n: 1 })).toThrow(
        /the lost policy .* exited with code 1 before answering request 1; no-such-folder\/policy.mjs is not found from .*, the directory gridemu was started in/,
      );
    } finally {
      policy.close();
    }
  });
});

describe('relativePathsMissing', () => {
  const there = new Set(['/work/examples/policies/least_loaded.py', '/work/x.py']);
  const exists = (path: string) => there.has(path);

  it('names the relative paths of a command that are not there from the folder, and only those', () => {
    const command = ['python3', 'examples/policies/least_loaded.py', 'policies/other.py', 'x.py', 'y.py'];
    expect(relativePathsMissing(command, '/work', exists)).toEqual(['policies/other.py', 'y.py']);
    expect(relativePathsMissing(command, '/elsewhere', exists)).toEqual(command.slice(1));
  });

  it('leaves out what is not a relative path: a program on PATH, options, code, numbers, absolute paths', () => {
    const command = ['python3', '-u', '--rate=0.5', 'print("a/b.py")', '1.5', '/abs/policy.py', 'fast'];
    expect(relativePathsMissing(command, '/work', exists)).toEqual([]);
    expect(relativePathsMissing(['./policy.sh'], '/work', exists)).toEqual(['./policy.sh']);
  });
});
