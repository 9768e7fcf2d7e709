import { schemeSilence } from '@gridemu/schemes';

/**
 * Why the run stops when a process has sent nothing, heartbeats included, for `timeout_s`: its name
 * and pid, and what of the scheme's own may keep its processes silent (an external policy that is
 * slow to start or to answer), which is where to look before at the machine.
 */
export function silentProcessAbort(name: string, pid: number, timeout_s: number, scheme: string): string {
  const hint = schemeSilence(scheme);
  return (
    `process "${name}" (pid ${pid}) has been silent for ${timeout_s} s` +
    (hint === undefined ? '' : `; with scheme ${scheme}, ${hint}`)
  );
}
