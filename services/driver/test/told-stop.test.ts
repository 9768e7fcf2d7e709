import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { abortCause, ORCHESTRATOR_GONE, stopReasonOf, ToldStop } from '../src/told-stop.js';

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
    input.end();
    await new Promise((r) => setImmediate(r));
    expect(told.reason).toBe("the run's nats-server (pid 7) exited during the run");
  });

  it('stops the run when the input ends untold: gridemu run died with the pipe', async () => {
    const input = new PassThrough();
    const told = new ToldStop(input, () => undefined);
    input.end();
    input.resume();
    await new Promise((r) => setImmediate(r));
    expect(told.reason).toBe(ORCHESTRATOR_GONE);
    // A reason told before the end is kept.
    const first = new PassThrough();
    const toldFirst = new ToldStop(first, () => undefined);
    first.end('{"stop": "interrupted by SIGINT"}\n');
    await new Promise((r) => setImmediate(r));
    expect(toldFirst.reason).toBe('interrupted by SIGINT');
  });
});

describe('abortCause', () => {
  const site = 'process "s2" failed: stopped by a signal during the run';

  it("names gridemu run's reason over a site's signal or the driver's own, heard first", () => {
    expect(abortCause(site, 'interrupted by SIGTERM')).toBe('interrupted by SIGTERM');
    expect(abortCause('the driver got SIGTERM', 'interrupted by SIGTERM')).toBe('interrupted by SIGTERM');
  });

  it('keeps what the driver heard when gridemu run said nothing (compose, Kubernetes, by hand)', () => {
    expect(abortCause(site, undefined)).toBe(site);
  });

  it('does not abort a run that had ended when it was told', () => {
    expect(abortCause(undefined, 'interrupted by SIGINT')).toBeUndefined();
    expect(abortCause(undefined, undefined)).toBeUndefined();
  });
});
