// Slow tests (npm run test:slow): a journaled live run through a nats-server restart keeps journals
// of its own batches only.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeJournalBatch } from '@gridemu/runtime/live';
import { readCheck, runLiveLines } from '../test/live-helpers.js';

/** The batches of a file journal, in the order stored (FileJournal: a 4-byte length, then the batch). */
function journalBatches(file: string): ReturnType<typeof decodeJournalBatch>[] {
  const bytes = readFileSync(file);
  const batches: ReturnType<typeof decodeJournalBatch>[] = [];
  for (let at = 0; at + 4 <= bytes.byteLength;) {
    const n = bytes.readUInt32BE(at);
    batches.push(decodeJournalBatch(new Uint8Array(bytes.subarray(at + 4, at + 4 + n)), batches.length));
    at += 4 + n;
  }
  return batches;
}

describe('a journaled live run through a server restart', () => {
  it("stores only its own batches, numbered in order, and the restart's edges on the run's clock", async () => {
    // Each process warms up with a file journal of its own, on the connection the run then uses,
    // and closes it. The warm-up's runtimes once went on listening to that connection: at the
    // server's restart each journaled the drop, at its own clock's time and under its own batch
    // numbers, through the closed journal's descriptor, which the run's journal file had taken.
    // A restart's replay then skipped the run's batches whose numbers those had taken, lost those
    // turns, and armed a timer already handled (gridemu fuzz --live, seed 12: "job ... ended on
    // grid big but was not running").
    const { out, s } = await runLiveLines([
      'name: journal-restart',
      'seed: 2',
      'sites: [{ id: s1, cpus: 64 }, { id: s2, cpus: 64 }]',
      'workload:',
      '  - { site: s1, synthetic: { jobs: 60 } }',
      '  - { site: s2, synthetic: { jobs: 60 }, shift_h: 1 }',
      'local: { policy: easy }',
      'meta: { scheme: k-distributed, k: 2 }',
      // The first job is submitted at 103 s; the simulator's run ends at about 71,600 s.
      'faults: { nats_restart: [{ at_s: 20000, down_s: 2000 }] }',
      'live: { speedup: 5000, journal: true }',
    ]);
    expect(readCheck(out).ok).toBe(true);
    expect(s.faults.nats_restarts).toEqual({ asked: 1, applied: 1 });
    const files = readdirSync(join(out, 'journal')).filter((f) => f.endsWith('.journal'));
    expect(files.sort()).toEqual(['s1.1.journal', 's2.1.journal']);
    for (const file of files) {
      const batches = journalBatches(join(out, 'journal', file));
      expect(
        batches.map((b) => b.seq),
        file,
      ).toEqual(batches.map((_, i) => i + 1));
      const edges = batches.flatMap((b) => b.entries).filter((e) => e.k === 'bus_outage');
      // Cut off once and back once, within the run's emulated time.
      expect(
        edges.map((e) => e.edge),
        file,
      ).toEqual(['cut', 'back']);
      for (const e of edges) {
        expect(e.at_s, file).toBeGreaterThanOrEqual(19_000);
        expect(e.at_s, file).toBeLessThanOrEqual(s.live.emulated_s);
      }
    }
  }, 180_000);
});
