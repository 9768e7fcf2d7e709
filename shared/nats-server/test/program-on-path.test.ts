import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { natsServerBinary, programOnPath } from '../src/index.js';

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'gridemu-nats-binary-'));
}

function program(dir: string, mode: number): string {
  const file = join(dir, 'nats-server');
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, mode);
  return file;
}

describe('programOnPath', () => {
  it('takes the first executable of that name along PATH, skipping a file that cannot run and a folder of that name', () => {
    const [notExecutable, aFolder, first, second] = [folder(), folder(), folder(), folder()];
    program(notExecutable, 0o644);
    mkdirSync(join(aFolder, 'nats-server'));
    const found = program(first, 0o755);
    program(second, 0o755);
    const path = ['', notExecutable, aFolder, first, second].join(delimiter);
    expect(programOnPath('nats-server', path)).toBe(found);
    expect(natsServerBinary(path, [])).toBe(found);
  });

  it('falls back on the places given (nats-server: /usr/sbin), and finds none when there is none', () => {
    const sbin = program(folder(), 0o755);
    expect(natsServerBinary(folder(), [join(folder(), 'nats-server'), sbin])).toBe(sbin);
    expect(natsServerBinary('', [])).toBeUndefined();
    expect(programOnPath('prometheus', folder())).toBeUndefined();
  });
});
