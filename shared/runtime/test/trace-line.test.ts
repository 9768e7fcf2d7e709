import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { withFields } from '../src/index.js';
import { pinoLogger } from '../src/live.js';
import { traceLine } from '../src/trace-line.js';

/** What a logger wrote, one string per line. */
function capture() {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(chunk.toString()), done()) });
  return { lines, sink };
}

describe('a protocol trace line built by hand', () => {
  it('is the JSON pino writes for the same fields, quotes and all, and reaches the same destination through withFields', async () => {
    const { lines, sink } = capture();
    const base = pinoLogger('run-7', { destination: sink });
    const fields = { site: 's"1', actor: 's1/meta' };
    const log = withFields(base, fields);
    const step = { job: 's1!3', event: 'claim.denied', detail: 'by=s2 why="held"\n', time_s: 600_123.25 };
    log.info(step, 'trace');
    log.line!(traceLine({ run: 'run-7', ...fields, ...step, wall_ms: 1_700_000_000_000 }));
    await new Promise((r) => setImmediate(r));
    expect(lines).toHaveLength(2);
    const [byPino, byHand] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(byHand).toEqual({ ...byPino, time: 1_700_000_000_000 });
    expect(lines[1]!.endsWith('}\n')).toBe(true);
  });

  it('leaves the site out for a run-wide actor, as pino leaves out an undefined field', () => {
    const line = traceLine({
      run: 'r',
      site: undefined,
      actor: 'driver',
      job: 'j',
      event: 'e',
      detail: '',
      time_s: 1,
      wall_ms: 2,
    });
    expect(JSON.parse(line)).toEqual({
      level: 30,
      time: 2,
      run: 'r',
      actor: 'driver',
      job: 'j',
      event: 'e',
      detail: '',
      time_s: 1,
      msg: 'trace',
    });
  });
});
