// Vitest's global setup (vitest.base.ts): every test's temporary files go to one folder of this
// run, removed when the run ends. Tests make their folders with os.tmpdir(), which reads TMPDIR,
// and so do the processes they start; a whole `npm test` left about 360 folders (130 MB) in /tmp,
// and a machine that runs CI again and again fills its disk.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function setup() {
  const folder = mkdtempSync(join(tmpdir(), 'gridemu-tests-'));
  process.env.TMPDIR = folder;
  return () => rmSync(folder, { recursive: true, force: true });
}
