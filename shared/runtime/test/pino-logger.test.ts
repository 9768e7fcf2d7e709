import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { flushedEachLine, withFields } from '../src/index.js';
import { BufferedOutput } from '../src/buffered-output.js';
import { pinoLogger } from '../src/live.js';

describe('pino logger', () => {
  it('writes one JSON line per event with the run, site and actor', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(chunk.toString()), done()) });
    const log = withFields(pinoLogger('run-7', { destination: sink }), { site: 's1', actor: 's1/scheduler' });
    log.warn({ reason: 'bad' }, 'dropped a malformed message');
    log.debug({}, 'not at info level');
    await new Promise((r) => setImmediate(r));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 40,
      run: 'run-7',
      site: 's1',
      actor: 's1/scheduler',
      reason: 'bad',
      msg: 'dropped a malformed message',
    });
  });

  it("writes a process's own lines out at once, while the actors' wait in the buffer", () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gridemu-log-')), 'site.log');
    const fd = openSync(file, 'a');
    try {
      const log = pinoLogger('run-8', { destination: new BufferedOutput(fd) });
      log.info({ jobId: 'j1' }, 'job started');
      // Buffered: a SIGKILL now would take it (the buffer is written every 0.1 s).
      expect(readFileSync(file, 'utf8')).toBe('');
      flushedEachLine(log).info({ now_s: 5 }, 'rejoined the run');
      const lines = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { msg: string });
      expect(lines.map((l) => l.msg)).toEqual(['job started', 'rejoined the run']);
    } finally {
      closeSync(fd);
    }
  });
});
