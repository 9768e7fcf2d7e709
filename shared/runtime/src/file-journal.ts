import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, writevSync } from 'node:fs';
import { join } from 'node:path';
import { JournalRefusedError, type Journal } from './journal.js';

/** Each record: its length (4 bytes, big-endian), then its bytes. */
const LENGTH_BYTES = 4;

/**
 * A process's journal in a local append-only file, one per incarnation: DIR/<location>.<n>.journal.
 * An append is one write(2) and returns once the kernel has it, without fsync: it survives the
 * process (SIGKILL, a crash, a container restarted on the same volume), not the host losing power
 * or a pod moved to another node, for which JetStreamJournal is the choice (docs/faults.md).
 *
 * One incarnation at a time. Each start first creates its fence, DIR/<location>.<n>.fence, one
 * higher than any before (exclusively: two racing starts cannot take one number). Only then does a
 * restart read the newest whole journal file, and copy what it read into its own file, which takes
 * its name only once complete (so a start killed while copying leaves nothing a later one would
 * read). An older incarnation checks, after each write and before its output may leave, that no
 * newer fence exists; once one does, its append is refused (JournalRefusedError). What it wrote
 * before the fence was read and copied by the newer one; what it wrote after went to a file nobody
 * reads again, and its output never left.
 */
export class FileJournal implements Journal {
  /** An append is one write(2): stored once it returns (see Journal.synchronous). */
  readonly synchronous = true;
  /** The fence a newer incarnation would create: checked after every append. */
  private readonly nextFence: string;

  private constructor(
    dir: string,
    private readonly location: string,
    readonly incarnation: number,
    private readonly fd: number,
    private readonly replay: readonly Uint8Array[],
  ) {
    this.nextFence = pathOf(dir, location, incarnation + 1, 'fence');
  }

  /**
   * Opens `location`'s journal in `dir`. `fresh`: the process starting the run (earlier files of
   * the location are an error: a results folder reused without clearing it); else a restart.
   */
  static open(dir: string, location: string, fresh: boolean): FileJournal {
    mkdirSync(dir, { recursive: true });
    const fences = numbered(dir, location, 'fence');
    if (fresh && fences > 0)
      throw new Error(`${dir} already holds ${location}'s journal of an earlier run: start the run in an empty folder`);
    const incarnation = fences + 1;
    // 'wx': a second process racing for the same number fails here, before it reads or writes anything.
    closeSync(openSync(pathOf(dir, location, incarnation, 'fence'), 'wx'));
    const newest = numbered(dir, location, 'journal');
    const replay = newest > 0 ? readRecords(pathOf(dir, location, newest, 'journal')) : [];
    const file = pathOf(dir, location, incarnation, 'journal');
    const fd = openSync(`${file}.partial`, 'w');
    for (const r of replay) writeRecord(fd, r);
    renameSync(`${file}.partial`, file);
    return new FileJournal(dir, location, incarnation, fd, replay);
  }

  append(batch: Uint8Array, _seq: number): Promise<void> {
    writeRecord(this.fd, batch);
    // After the write, before the output: a newer incarnation that has not yet read the file will read this.
    if (existsSync(this.nextFence))
      return Promise.reject(
        new JournalRefusedError(
          `incarnation ${this.incarnation}'s journal append was refused: a newer incarnation of ${this.location} has taken the journal over`,
        ),
      );
    return Promise.resolve();
  }

  readAll(): Promise<Uint8Array[]> {
    return Promise.resolve([...this.replay]);
  }

  close(): void {
    closeSync(this.fd);
  }
}

function pathOf(dir: string, location: string, incarnation: number, kind: 'fence' | 'journal'): string {
  return join(dir, `${location}.${incarnation}.${kind}`);
}

/** The highest incarnation with a file of `kind` in `dir` (0: none). */
function numbered(dir: string, location: string, kind: 'fence' | 'journal'): number {
  const pattern = new RegExp(`^${location.replace(/[^A-Za-z0-9_-]/g, '')}\\.(\\d+)\\.${kind}$`);
  let newest = 0;
  for (const f of readdirSync(dir)) {
    const m = pattern.exec(f);
    if (m) newest = Math.max(newest, Number(m[1]));
  }
  return newest;
}

function writeRecord(fd: number, bytes: Uint8Array): void {
  const length = Buffer.allocUnsafe(LENGTH_BYTES);
  length.writeUInt32BE(bytes.byteLength, 0);
  // One writev(2) for the whole record: a process killed between two writes cannot leave half of one.
  let done = writevSync(fd, [length, bytes]);
  // A short write (a full disk, a signal) leaves the rest to write.
  while (done < LENGTH_BYTES) done += writevSync(fd, [length.subarray(done), bytes]);
  while (done < LENGTH_BYTES + bytes.byteLength) done += writevSync(fd, [bytes.subarray(done - LENGTH_BYTES)]);
}

/** The whole records of a journal file; a torn last one (the host failed mid-write) is left out. */
function readRecords(file: string): Uint8Array[] {
  const data = readFileSync(file);
  const out: Uint8Array[] = [];
  let at = 0;
  while (at + LENGTH_BYTES <= data.byteLength) {
    const n = data.readUInt32BE(at);
    if (at + LENGTH_BYTES + n > data.byteLength) break;
    out.push(new Uint8Array(data.subarray(at + LENGTH_BYTES, at + LENGTH_BYTES + n)));
    at += LENGTH_BYTES + n;
  }
  return out;
}
