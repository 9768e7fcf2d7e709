import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Runs the built `gridemu sweep` with `args` (the spec, then its options, in the caller's order,
 * which decides what a later --set overrides), echoing the command on stderr as `== label: ...`,
 * and throws naming `label` if it fails (`hint`: what to check, appended to the error).
 */
export function runSweep(repo, label, args, hint = '') {
  const all = [join(repo, 'services/cli/dist/main.js'), 'sweep', ...args];
  console.error(`== ${label}: gridemu ${all.slice(1).join(' ')}`);
  const r = spawnSync(process.execPath, all, { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`${label} failed (exit ${r.status})${hint}`);
}
