import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { withFields } from '../src/index.js';
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
});
