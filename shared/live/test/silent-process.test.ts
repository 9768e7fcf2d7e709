import { describe, expect, it } from 'vitest';
import { silentProcessAbort } from '../src/silent-process.js';

describe("a silent process's abort", () => {
  it('names the process, and where the scheme itself may keep a process silent', () => {
    expect(silentProcessAbort('s2', 4242, 10, 'k-distributed')).toBe(
      'process "s2" (pid 4242) has been silent for 10 s',
    );
    const external = silentProcessAbort('s1', 17, 60, 'external');
    expect(external).toMatch(/^process "s1" \(pid 17\) has been silent for 60 s; with scheme external, /);
    expect(external).toContain('meta.startup_timeout_s');
  });
});
