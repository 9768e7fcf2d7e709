import { programOnPath } from './program-on-path.js';

/**
 * How to start `command` so that it is sent SIGTERM when the process that starts it dies, however
 * that dies: on Linux, through util-linux's `setpriv --pdeathsig` (part of every Debian), which
 * asks the kernel for that signal and then becomes the program (the same pid). A server a run
 * starts (nats-server, Prometheus) otherwise outlives a `gridemu run` that is SIGKILLed or
 * killed by the OOM killer, and holds its port and store until someone finds it. Without setpriv
 * (another system) the command is started as it is.
 *
 * The kernel sends the signal when the thread that started the child ends: Node starts children
 * from its main thread, which lives as long as the process.
 */
export function diesWithParent(
  command: string,
  args: readonly string[],
): { readonly command: string; readonly args: string[] } {
  return startedThrough(process.platform === 'linux' ? programOnPath('setpriv') : undefined, command, args);
}

/** diesWithParent through the setpriv at `setpriv`, or none. */
export function startedThrough(
  setpriv: string | undefined,
  command: string,
  args: readonly string[],
): { readonly command: string; readonly args: string[] } {
  if (setpriv === undefined) return { command, args: [...args] };
  return { command: setpriv, args: ['--pdeathsig', 'SIGTERM', '--', command, ...args] };
}
