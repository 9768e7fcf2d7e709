import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseResume, takeOverFrom } from '../src/standby.js';

describe('a standby successor', () => {
  it('takes over on its one line, in pieces too, and is not needed if its input ends first', async () => {
    const input = new PassThrough();
    const told = takeOverFrom(input);
    input.write('{"crashed_at_s": 6012.5, ');
    input.write('"resume_at_s": 9000}\n');
    await expect(told).resolves.toEqual({ crashed_at_s: 6012.5, resume_at_s: 9000 });
    const unneeded = new PassThrough();
    const never = takeOverFrom(unneeded);
    unneeded.end();
    await expect(never).resolves.toBeUndefined();
  });

  it('refuses a line that is not JSON or lacks a time, naming the field', async () => {
    expect(() => parseResume('go')).toThrow(/not JSON/);
    expect(() => parseResume('{"crashed_at_s": 1}')).toThrow(/resume_at_s/);
    expect(() => parseResume('{"crashed_at_s": "soon", "resume_at_s": 2}')).toThrow(/crashed_at_s/);
    const input = new PassThrough();
    const told = takeOverFrom(input);
    input.write('{"crashed_at_s": null, "resume_at_s": 2}\n');
    await expect(told).rejects.toThrow(/crashed_at_s/);
  });
});
