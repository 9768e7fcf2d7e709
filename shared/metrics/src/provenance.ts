import { spawnSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * What made a run, for summary.json: the gridemu version and, from a git checkout, its commit and
 * whether files it tracks were changed; the Node version; and the machine. A number a researcher
 * publishes is worth only as much as the code and machine it can be traced back to; a results
 * folder copied away from its checkout keeps them.
 */
export interface Provenance {
  readonly gridemu: string;
  /**
   * The checkout's commit, when gridemu runs from a git checkout and git is installed, or the
   * image's (GRIDEMU_COMMIT, given when it was built).
   */
  readonly commit?: string;
  /** Tracked files differ from that commit: the run's code is not the commit's alone. */
  readonly modified?: boolean;
  readonly node: string;
  readonly platform: string;
  readonly cpu: string;
  readonly cores: number;
}

/**
 * The code a run came from, in one line: `gridemu 0.1.0 (commit 8dd27ef4bb0a, with tracked files
 * changed)`. The run report and the paper reports both name it so.
 */
export function describeCode(p: Pick<Provenance, 'gridemu' | 'commit' | 'modified'>): string {
  const commit =
    p.commit === undefined
      ? 'commit unknown'
      : `commit ${p.commit.slice(0, 12)}${p.modified === true ? ', with tracked files changed' : ''}`;
  return `gridemu ${p.gridemu} (${commit})`;
}

const found = new Map<string, Provenance>();

/**
 * The provenance of this process's runs, found once (a git call or two, a few milliseconds), from
 * the script the process was started as (`services/<name>/dist/main.js` of a checkout or an image):
 * the installation is the nearest folder above it whose package.json is gridemu's. The bundled
 * simulator has no import.meta to find itself by; every process has its script.
 */
export function runProvenance(entry: string | undefined = process.argv[1]): Provenance {
  const known = found.get(entry ?? '');
  if (known) return known;
  const root = entry === undefined ? undefined : installation(entry);
  const provenance: Provenance = {
    gridemu: root === undefined ? 'unknown' : version(join(root, 'services', 'cli', 'package.json')),
    ...commitOf(root),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
  };
  found.set(entry ?? '', provenance);
  return provenance;
}

/**
 * The installation's commit: from git in a checkout, else from GRIDEMU_COMMIT, which an image is
 * built with (deploy/Dockerfile), else none.
 */
function commitOf(root: string | undefined): { commit?: string; modified?: boolean } {
  const git = root === undefined ? {} : gitState(root);
  if (git.commit !== undefined) return git;
  const given = process.env['GRIDEMU_COMMIT']?.trim();
  return given ? { commit: given } : {};
}

/** The nearest folder at or above `entry` whose package.json names gridemu, if any. */
function installation(entry: string): string | undefined {
  let dir: string;
  try {
    dir = dirname(realpathSync(entry));
  } catch {
    return undefined;
  }
  for (;;) {
    try {
      if ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'gridemu')
        return dir;
    } catch {
      // No package.json here, or not one to read: look further up.
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

function version(packageJson: string): string {
  try {
    return (JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The commit and whether tracked files changed, or nothing outside a checkout or without git. */
export function gitState(dir: string): { commit?: string; modified?: boolean } {
  const git = (...args: string[]) => spawnSync('git', ['-C', dir, ...args], { encoding: 'utf8', timeout: 5000 });
  const head = git('rev-parse', '--show-toplevel', 'HEAD');
  if (head.status !== 0) return {};
  const [top, commit] = head.stdout.trim().split('\n');
  // A checkout that holds gridemu, not one gridemu was installed inside of.
  if (top === undefined || commit === undefined || !sameDir(top, dir)) return {};
  const status = git('status', '--porcelain', '--untracked-files=no');
  return { commit, ...(status.status === 0 ? { modified: status.stdout.trim() !== '' } : {}) };
}

function sameDir(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
