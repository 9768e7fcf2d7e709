import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseOverrides } from '@gridemu/model';
import { loadExperiment } from '@gridemu/schemes';
import { finishedRun } from '../src/sweep/finished-run.js';
import { REPO } from './live-helpers.js';

const spec = (...sets: string[]) => loadExperiment(join(REPO, 'examples/quickstart.yaml'), parseOverrides(sets)).spec;

/** A run's folder as an earlier sweep left it: its summary.json and, if given, check.json. */
function folder(summary: unknown, check?: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'gridemu-finished-'));
  writeFileSync(join(dir, 'summary.json'), typeof summary === 'string' ? summary : JSON.stringify(summary));
  if (check !== undefined) writeFileSync(join(dir, 'check.json'), JSON.stringify(check));
  return dir;
}

describe('sweep --resume: which runs an earlier sweep finished', () => {
  const k2 = spec('meta.k=2', 'seed=1');

  it('keeps a simulated run of the same experiment, every override resolved', () => {
    const summary = { mode: 'simulate', spec: k2, mean_wait_s: 12 };
    expect(finishedRun(folder(summary), spec('meta.k=2', 'seed=1'), false)).toEqual(summary);
  });

  it('makes again a run of another variant, seed or --set, or of the other kind', () => {
    const dir = folder({ mode: 'simulate', spec: k2 });
    expect(finishedRun(dir, spec('meta.k=3', 'seed=1'), false)).toBeUndefined();
    expect(finishedRun(dir, spec('meta.k=2', 'seed=2'), false)).toBeUndefined();
    expect(finishedRun(dir, spec('meta.k=2', 'seed=1', 'network.latency_ms=5'), false)).toBeUndefined();
    expect(finishedRun(dir, k2, true)).toBeUndefined();
  });

  it("keeps a live run only if gridemu run's check of it passed", () => {
    const live = { mode: 'run', spec: k2 };
    expect(finishedRun(folder(live, { ok: true, invariants: [] }), k2, true)).toEqual(live);
    // Stopped by Ctrl-C, a timeout or a failure: a summary, but no check, or one that failed.
    expect(finishedRun(folder({ ...live, live: { aborted: 'interrupted by SIGINT' } }), k2, true)).toBeUndefined();
    expect(finishedRun(folder(live, { ok: false, invariants: [] }), k2, true)).toBeUndefined();
  });

  it('makes again a run whose summary is missing or cut short', () => {
    expect(finishedRun(mkdtempSync(join(tmpdir(), 'gridemu-finished-')), k2, false)).toBeUndefined();
    expect(finishedRun(folder('{"mode": "simulate", "spec": {'), k2, false)).toBeUndefined();
  });
});
