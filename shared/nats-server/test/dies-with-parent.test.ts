import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diesWithParent, programOnPath } from '../src/index.js';
import { startedThrough } from '../src/dies-with-parent.js';

describe('diesWithParent', () => {
  it('starts the command through setpriv --pdeathsig where there is one, as it is where not', () => {
    expect(startedThrough('/usr/bin/setpriv', '/usr/sbin/nats-server', ['-p', '4222'])).toEqual({
      command: '/usr/bin/setpriv',
      args: ['--pdeathsig', 'SIGTERM', '--', '/usr/sbin/nats-server', '-p', '4222'],
    });
    expect(startedThrough(undefined, '/usr/sbin/nats-server', ['-p', '4222'])).toEqual({
      command: '/usr/sbin/nats-server',
      args: ['-p', '4222'],
    });
  });

  it.runIf(process.platform === 'linux' && programOnPath('setpriv') !== undefined)(
    'a child started so is stopped when the process that started it is killed outright',
    async () => {
      // A shell starts `sleep` as diesWithParent says, prints its pid, and is SIGKILLed.
      const { command, args } = diesWithParent('sleep', ['600']);
      const quoted = [command, ...args].map((a) => `'${a}'`).join(' ');
      const shell = spawn('sh', ['-c', `${quoted} & echo $!; wait`], { stdio: ['ignore', 'pipe', 'inherit'] });
      const pid = await new Promise<number>((resolve) => shell.stdout!.once('data', (d: Buffer) => resolve(Number(d))));
      // setpriv asks for the signal, then becomes sleep: a kill before that would find none asked for.
      while (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'sleep') await new Promise((r) => setTimeout(r, 10));
      expect(alive(pid)).toBe(true);
      shell.kill('SIGKILL');
      while (alive(pid)) await new Promise((r) => setTimeout(r, 50));
    },
  );
});

/** True while `pid` runs (a zombie, dead but not yet reaped, does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
