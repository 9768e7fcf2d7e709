import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { gitState, runProvenance } from '../src/provenance.js';

const REPO = resolve(fileURLToPath(import.meta.url), '../../../..');
const git = (dir: string, ...args: string[]) =>
  spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-C', dir, ...args], { encoding: 'utf8' });
const hasGit = spawnSync('git', ['--version']).status === 0;

describe("a run's provenance", () => {
  afterEach(() => {
    delete process.env['GRIDEMU_COMMIT'];
  });

  it('names the installation a script belongs to, its version, commit, Node and machine', () => {
    const p = runProvenance(join(REPO, 'services', 'cli', 'dist', 'main.js'));
    expect(p.gridemu).toBe('0.1.0');
    expect(p.node).toBe(process.version);
    expect(p.cores).toBeGreaterThan(0);
    expect(p.platform).toBe(`${process.platform} ${process.arch}`);
    // The commit git gives for this checkout, when there is one to give.
    const head = hasGit ? git(REPO, 'rev-parse', 'HEAD') : undefined;
    if (head?.status === 0) expect(p.commit).toBe(head.stdout.trim());
    else expect(p.commit).toBeUndefined();
  });

  it.skipIf(!hasGit)('gives the commit of a checkout and whether tracked files changed, and none outside one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gridemu-provenance-'));
    expect(gitState(dir)).toEqual({});
    expect(git(dir, 'init', '-q').status).toBe(0);
    writeFileSync(join(dir, 'a.txt'), 'one\n');
    git(dir, 'add', 'a.txt');
    expect(git(dir, 'commit', '-qm', 'first').status).toBe(0);
    const commit = git(dir, 'rev-parse', 'HEAD').stdout.trim();
    expect(gitState(dir)).toEqual({ commit, modified: false });
    // A file git does not track changes nothing; a tracked one changed does.
    writeFileSync(join(dir, 'b.txt'), 'untracked\n');
    expect(gitState(dir)).toEqual({ commit, modified: false });
    writeFileSync(join(dir, 'a.txt'), 'two\n');
    expect(gitState(dir)).toEqual({ commit, modified: true });
    // An installation inside someone else's checkout is not that checkout.
    mkdirSync(join(dir, 'inner'));
    expect(gitState(join(dir, 'inner'))).toEqual({});
  });

  it('outside any installation knows no version, and takes an image its commit from GRIDEMU_COMMIT', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gridemu-provenance-'));
    writeFileSync(join(dir, 'main.js'), '');
    expect(runProvenance(join(dir, 'main.js'))).toMatchObject({ gridemu: 'unknown' });
    expect(runProvenance(join(dir, 'main.js')).commit).toBeUndefined();
    // An image: gridemu's package.json at its root, no .git, the commit given when it was built.
    const image = mkdtempSync(join(tmpdir(), 'gridemu-image-'));
    mkdirSync(join(image, 'services', 'cli', 'dist'), { recursive: true });
    writeFileSync(join(image, 'package.json'), JSON.stringify({ name: 'gridemu' }));
    writeFileSync(join(image, 'services', 'cli', 'package.json'), JSON.stringify({ version: '9.8.7' }));
    writeFileSync(join(image, 'services', 'cli', 'dist', 'main.js'), '');
    process.env['GRIDEMU_COMMIT'] = 'abc123';
    expect(runProvenance(join(image, 'services', 'cli', 'dist', 'main.js'))).toMatchObject({
      gridemu: '9.8.7',
      commit: 'abc123',
    });
  });
});
