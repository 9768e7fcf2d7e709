import { appendFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JournalRefusedError } from '../src/index.js';
import { FileJournal } from '../src/live.js';

const bytes = (...xs: number[]) => new Uint8Array(xs);

describe('FileJournal', () => {
  it('a restart reads what the last incarnation stored, and from then on the older one is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gridemu-file-journal-'));
    const first = FileJournal.open(dir, 's1', true);
    expect(first.incarnation).toBe(1);
    await first.append(bytes(1), 1);
    await first.append(bytes(2, 2), 2);
    expect(await first.readAll()).toEqual([]);

    const second = FileJournal.open(dir, 's1', false);
    expect(second.incarnation).toBe(2);
    expect(await second.readAll()).toEqual([bytes(1), bytes(2, 2)]);
    // The first still runs (a replaced container): its next append is refused, its output never leaves.
    await expect(first.append(bytes(3), 3)).rejects.toBeInstanceOf(JournalRefusedError);
    await second.append(bytes(4), 3);

    const third = FileJournal.open(dir, 's1', false);
    expect(third.incarnation).toBe(3);
    // What the refused append wrote went to a file nobody reads again.
    expect(await third.readAll()).toEqual([bytes(1), bytes(2, 2), bytes(4)]);
    expect(readdirSync(dir).sort()).toEqual([
      's1.1.fence',
      's1.1.journal',
      's1.2.fence',
      's1.2.journal',
      's1.3.fence',
      's1.3.journal',
    ]);
    for (const j of [first, second, third]) j.close();
  });

  it('closed, refuses an append rather than writing into the file that took its descriptor', async () => {
    // A warm-up's journal, closed, then the run's opened: the lowest free descriptor is the same.
    const warmUp = FileJournal.open(mkdtempSync(join(tmpdir(), 'gridemu-file-journal-')), 'warm-up', true);
    await warmUp.append(bytes(9), 1);
    warmUp.close();
    const dir = mkdtempSync(join(tmpdir(), 'gridemu-file-journal-'));
    const run = FileJournal.open(dir, 's1', true);
    await run.append(bytes(1), 1);
    await expect(warmUp.append(bytes(6, 6), 304)).rejects.toThrow(
      "assertion: an append to warm-up's journal after it was closed",
    );
    await run.append(bytes(2), 2);
    run.close();
    const restart = FileJournal.open(dir, 's1', false);
    expect(await restart.readAll()).toEqual([bytes(1), bytes(2)]);
    restart.close();
  });

  it('leaves out a torn last record, and refuses a fresh start over an earlier run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gridemu-file-journal-'));
    const j = FileJournal.open(dir, 's2', true);
    await j.append(bytes(7, 7, 7), 1);
    j.close();
    // A length that promises 9 bytes, and 2 of them: the host failed mid-write.
    appendFileSync(join(dir, 's2.1.journal'), Buffer.from([0, 0, 0, 9, 1, 2]));
    const again = FileJournal.open(dir, 's2', false);
    expect(await again.readAll()).toEqual([bytes(7, 7, 7)]);
    again.close();
    expect(() => FileJournal.open(dir, 's2', true)).toThrow(/already holds s2's journal of an earlier run/);
  });

  it('a start killed before its copy was whole is passed over: the next reads the last whole file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gridemu-file-journal-'));
    const j = FileJournal.open(dir, 's3', true);
    await j.append(bytes(5), 1);
    // Incarnation 2 took its fence and died copying: its file never got its name.
    appendFileSync(join(dir, 's3.2.fence'), '');
    appendFileSync(join(dir, 's3.2.journal.partial'), Buffer.from([0, 0, 0, 1]));
    const third = FileJournal.open(dir, 's3', false);
    expect(third.incarnation).toBe(3);
    expect(await third.readAll()).toEqual([bytes(5)]);
    // And the first, still running, is refused by any newer fence.
    await expect(j.append(bytes(6), 2)).rejects.toBeInstanceOf(JournalRefusedError);
  });

  it('a standby follows the record as its predecessor writes it, then replays only the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gridemu-file-journal-'));
    const standby = FileJournal.standBy(dir, 's4');
    // Before the first incarnation has a file: nothing to follow.
    expect(standby.follow()).toEqual([]);
    const first = FileJournal.open(dir, 's4', true);
    await first.append(bytes(1), 1);
    expect(standby.follow()).toEqual([bytes(1)]);
    await first.append(bytes(9, 9), 2);
    expect(standby.follow()).toEqual([bytes(9, 9)]);
    expect(standby.follow()).toEqual([]);
    await first.append(bytes(3), 3);
    expect(standby.incarnation).toBeUndefined();
    await expect(standby.append(bytes(0), 1)).rejects.toThrow(/not taken over/);

    // The predecessor dies after one more append; the standby takes over and reads only that.
    standby.takeOver();
    expect(standby.incarnation).toBe(2);
    expect(await standby.readAll()).toEqual([bytes(3)]);
    await standby.append(bytes(4), 4);
    const third = FileJournal.open(dir, 's4', false);
    expect(await third.readAll()).toEqual([bytes(1), bytes(9, 9), bytes(3), bytes(4)]);
    for (const j of [first, standby, third]) j.close();
  });

  it('a standby goes on into a newer file that begins with what it followed, and refuses to take over one that does not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gridemu-file-journal-'));
    const first = FileJournal.open(dir, 's5', true);
    await first.append(bytes(1), 1);
    const standby = FileJournal.standBy(dir, 's5');
    expect(standby.follow()).toEqual([bytes(1)]);
    // A restart nobody planned: incarnation 2 copies incarnation 1's file, then appends.
    const second = FileJournal.open(dir, 's5', false);
    await second.append(bytes(2), 2);
    expect(standby.follow()).toEqual([bytes(2)]);
    standby.takeOver();
    expect(standby.incarnation).toBe(3);
    expect(await standby.readAll()).toEqual([]);

    // A file that does not begin with what a standby followed: it cannot take that over.
    const other = mkdtempSync(join(tmpdir(), 'gridemu-file-journal-'));
    const a = FileJournal.open(other, 's6', true);
    await a.append(bytes(1), 1);
    const lost = FileJournal.standBy(other, 's6');
    expect(lost.follow()).toEqual([bytes(1)]);
    a.close();
    appendFileSync(join(other, 's6.2.fence'), '');
    appendFileSync(join(other, 's6.2.journal'), Buffer.from([0, 0, 0, 1, 7]));
    expect(lost.follow()).toEqual([]);
    expect(() => lost.takeOver()).toThrow(/no longer begins with the 1 records this standby replayed/);
    for (const j of [first, second, standby]) j.close();
  });

  it('a standby leaves a record half written for its next call', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gridemu-file-journal-'));
    const standby = FileJournal.standBy(dir, 's7');
    appendFileSync(join(dir, 's7.1.fence'), '');
    appendFileSync(join(dir, 's7.1.journal'), Buffer.from([0, 0, 0, 1, 5, 0, 0, 0, 2, 9]));
    expect(standby.follow()).toEqual([bytes(5)]);
    expect(standby.follow()).toEqual([]);
    appendFileSync(join(dir, 's7.1.journal'), Buffer.from([9]));
    expect(standby.follow()).toEqual([bytes(9, 9)]);
  });
});
