import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { stopReasonOf, ToldStop } from '../src/told-stop.js';

describe('stopReasonOf', () => {
  it('reads the reason of one {"stop": reason} line', () => {
    expect(stopReasonOf('{"stop":"the run did not end within --timeout 30 s"}')).toBe(
      'the run did not end within --timeout 30 s',
    );
  });

  it.each(['', 'stop', '{"stop":', '[]', 'null', '"stop"', '{"stop": 3}', '{"stop": "  "}', '{"halt": "x"}'])(
    'is undefined for %j',
    (line) => {
      expect(stopReasonOf(line)).toBeUndefined();
    },
  );
});

describe('ToldStop', () => {
  it('keeps the first reason told, says each line that is not one, and lets the input go on close', async () => {
    const input = new PassThrough();
    const bad: string[] = [];
    const told = new ToldStop(input, (line) => bad.push(line));
    expect(told.reason).toBeUndefined();
    input.write('hello\n{"stop": "the run\'s nats-server (pid 7) exited during the run"}\n');
    input.write('{"stop": "interrupted by SIGINT"}\n');
    await new Promise((r) => setImmediate(r));
    expect(told.reason).toBe("the run's nats-server (pid 7) exited during the run");
    expect(bad).toEqual(['hello']);
    told.close();
    input.write('{"stop": "too late"}\n');
    await new Promise((r) => setImmediate(r));
    expect(told.reason).toBe("the run's nats-server (pid 7) exited during the run");
  });
});
