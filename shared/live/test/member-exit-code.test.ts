import { describe, expect, it } from 'vitest';
import { memberExitCode } from '../src/member.js';

describe("a member process's exit code", () => {
  it('is 0 when it left as told: the run ended, the driver aborted it, or a signal stopped it', () => {
    // compose's restart: on-failure restarts what exits non-zero: a site of an aborted run must stay down.
    expect(memberExitCode({ phase: 'done' })).toBe(0);
    expect(memberExitCode({ phase: 'aborted', reason: 'the driver aborted the run: x' })).toBe(0);
    expect(memberExitCode({ phase: 'stopped' })).toBe(0);
  });

  it('is 1 when it failed itself, 2 when it failed on bad input', () => {
    expect(memberExitCode({ phase: 'failed', reason: 'the driver has been silent for 15 s' })).toBe(1);
    expect(memberExitCode({ phase: 'failed', reason: 'policy answered badly', badInput: true })).toBe(2);
  });
});
