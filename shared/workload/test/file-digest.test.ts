import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256OfFile } from '../src/file-digest.js';
import { tempDir } from './helpers.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe("a trace's digest", () => {
  it('is the SHA-256 of its bytes, read again once the file was written since', async () => {
    const file = join(tempDir(), 't.swf');
    writeFileSync(file, '1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n');
    expect(await sha256OfFile(file)).toBe(sha256('1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n'));
    writeFileSync(file, '1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n2 5 0 10 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n');
    expect(await sha256OfFile(file)).toBe(
      sha256('1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n2 5 0 10 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n'),
    );
  });
});
