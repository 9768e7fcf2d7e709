import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { needTraces } from '@gridemu/testkit';
import { MAIN, REPO } from './live-helpers.js';

/** The archive trace most of the CLI's tests read, or why they are skipped. */
export const kth = needTraces('KTH-SP2-1996-2.1-cln.swf.gz');
const TRACE_DIR = kth.dir;

/**
 * Runs the built command as a user would (turbo builds before it tests). A command that hangs is
 * killed, failing its test, rather than blocking the whole file.
 */
export function gridemu(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [MAIN, ...args], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, GRIDEMU_TRACE_DIR: TRACE_DIR, ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

export const tmp = () => mkdtempSync(join(tmpdir(), 'gridemu-cli-'));
