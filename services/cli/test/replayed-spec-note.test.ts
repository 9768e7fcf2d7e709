import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmp } from './live-helpers.js';
import { replayedSpecNote } from '../src/replayed-spec-note.js';

/** A live run's folder by hand: its summary.json's spec is all the note reads. */
function liveFolder(spec: object): string {
  const dir = join(tmp(), 'live');
  mkdirSync(dir);
  writeFileSync(join(dir, 'summary.json'), JSON.stringify({ jobs: { submitted: 10 }, spec }));
  return dir;
}

const ran = {
  name: 'k2',
  seed: 1,
  sites: [
    { id: 's1', cpus: 8 },
    { id: 's2', cpus: 8 },
  ],
  meta: { scheme: 'k-distributed', k: 2 },
  faults: { crash: [{ process: 's1', at_s: 100, down_s: 50 }] },
  live: { speedup: 5000 },
};

describe('simulate --network-from: the experiment replayed against the one the run ran', () => {
  it('says nothing of a replay of the same experiment, whatever its name, faults or live settings', () => {
    const dir = liveFolder(ran);
    expect(replayedSpecNote(dir, ran)).toBeUndefined();
    // The replay applies the faults the run applied, and reads no live setting.
    expect(
      replayedSpecNote(dir, { ...ran, name: 'copy', faults: {}, live: { speedup: 1000, journal: true } }),
    ).toBeUndefined();
  });

  it('names each field another experiment differs in, five at most', () => {
    const dir = liveFolder(ran);
    const note = replayedSpecNote(dir, { ...ran, seed: 2, meta: { scheme: 'k-distributed', k: 1 } });
    expect(note).toContain(`differs from the one ${dir} ran (its summary.json's spec) in seed 1 → 2, meta.k 2 → 1:`);
    const sites = Array.from({ length: 8 }, (_, i) => ({ id: `s${i + 1}`, cpus: 4 }));
    const many = replayedSpecNote(dir, { ...ran, sites });
    expect(many).toContain('sites[0].cpus 8 → 4, sites[1].cpus 8 → 4, sites[2] none → {"id":"s3","cpus":4}');
    // Two processor counts and six sites more: eight, of which five are named.
    expect(many).toContain(', and 3 more: the replay puts');
  });

  it('says nothing where the folder has no summary to tell', () => {
    expect(replayedSpecNote(tmp(), ran)).toBeUndefined();
  });
});
