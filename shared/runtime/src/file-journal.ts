import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  renameSync,
  writeSync,
  writevSync,
} from 'node:fs';
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
 * reads again, and its output never left. A restart standing by (standBy) may read the newest
 * file before that, without a fence (follow), and replay it as it grows.
 */
export class FileJournal implements Journal {
  /** An append is one write(2): stored once it returns (see Journal.synchronous). */
  readonly synchronous = true;
  /** Set by takeOver(): this incarnation's number, its file, and the fence a newer one would create. */
  private held: { readonly incarnation: number; readonly fd: number; readonly nextFence: string } | undefined;
  /** What a restart replays that follow() did not return. */
  private unread: readonly Uint8Array[] = [];
  /**
   * Standing by: the file follow() reads, and the bytes of whole records it has returned (the
   * file is append-only, so those bytes stay where they are), and how many records they hold.
   */
  private followedFile: number | undefined;
  private followedBytes = 0;
  private followedRecords = 0;
  /** A newer file did not begin with what was followed: following stopped, takeOver() will say so. */
  private lost = false;
  /** close() has run: the descriptor is no longer this journal's. */
  private closed = false;

  private constructor(
    private readonly dir: string,
    private readonly location: string,
  ) {}

  /**
   * Opens `location`'s journal in `dir`. `fresh`: the process starting the run (earlier files of
   * the location are an error: a results folder reused without clearing it); else a restart.
   */
  static open(dir: string, location: string, fresh: boolean): FileJournal {
    const journal = FileJournal.standBy(dir, location);
    journal.takeOver(fresh);
    return journal;
  }

  /**
   * A restart standing by while its predecessor still runs (docs/faults.md, "Restarts are on
   * time"): it may follow() the journal, and takes it over (takeOver) once the predecessor is dead.
   */
  static standBy(dir: string, location: string): FileJournal {
    mkdirSync(dir, { recursive: true });
    return new FileJournal(dir, location);
  }

  /** Which start of the process this is; undefined while it stands by. */
  get incarnation(): number | undefined {
    return this.held?.incarnation;
  }

  /**
   * Standing by: the whole records the newest journal file gained since the last call, read
   * without a fence while its incarnation still writes it, so that a restart has only the last
   * few to replay once it takes over. A record being written is left for the next call. A newer
   * incarnation's file (a restart nobody planned) is followed on from the same record.
   */
  follow(): Uint8Array[] {
    if (this.held) throw new Error('assertion: a journal taken over is not followed');
    const newest = numbered(this.dir, this.location, 'journal');
    if (newest === 0 || this.lost) return [];
    if (this.followedFile !== undefined && newest !== this.followedFile) {
      // A newer incarnation's file: each start copies the last whole file before it appends, so
      // it goes on from where the one followed stopped, as long as it begins with what was read.
      if (this.divergingRecord(readFileSync(pathOf(this.dir, this.location, newest, 'journal'))) >= 0) {
        this.lost = true;
        return [];
      }
    }
    this.followedFile = newest;
    const fd = openSync(pathOf(this.dir, this.location, newest, 'journal'), 'r');
    let data: Buffer;
    try {
      const size = fstatSync(fd).size;
      data = Buffer.allocUnsafe(Math.max(0, size - this.followedBytes));
      let got = 0;
      while (got < data.byteLength) {
        const n = readSync(fd, data, got, data.byteLength - got, this.followedBytes + got);
        if (n === 0) break;
        got += n;
      }
      data = data.subarray(0, got);
    } finally {
      closeSync(fd);
    }
    const { records, bytes } = wholeRecords(data);
    this.followedBytes += bytes;
    this.followedRecords += records.length;
    return records;
  }

  /**
   * Takes the journal over: creates this incarnation's fence, one higher than any before
   * (exclusively: two racing starts cannot take one number), then reads the newest whole journal
   * file and copies it into this incarnation's own, which takes its name only once complete.
   * What follow() returned must be where that file begins: it was replayed already.
   */
  takeOver(fresh = false): void {
    if (this.held) throw new Error('assertion: a journal is taken over once');
    const { dir, location } = this;
    const fences = numbered(dir, location, 'fence');
    if (fresh && fences > 0)
      throw new Error(`${dir} already holds ${location}'s journal of an earlier run: start the run in an empty folder`);
    const incarnation = fences + 1;
    // 'wx': a second process racing for the same number fails here, before it reads or writes anything.
    closeSync(openSync(pathOf(dir, location, incarnation, 'fence'), 'wx'));
    const newest = numbered(dir, location, 'journal');
    const data = newest > 0 ? readFileSync(pathOf(dir, location, newest, 'journal')) : Buffer.alloc(0);
    // The file followed is append-only, so it still begins with what follow() read; another one
    // (a restart nobody planned came between) must begin with it too, as each copies the last.
    if (newest !== this.followedFile) {
      const diverged = this.divergingRecord(data);
      if (diverged >= 0)
        throw new Error(
          `${location}'s journal in ${dir} (incarnation ${newest}'s file) no longer begins with the ${this.followedRecords} records this standby replayed while following incarnation ${this.followedFile}'s: record ${diverged + 1} differs or is gone`,
        );
    }
    // What follow() did not return: the whole records past the bytes it read.
    const rest = wholeRecords(data.subarray(this.followedBytes));
    const file = pathOf(dir, location, incarnation, 'journal');
    const fd = openSync(`${file}.partial`, 'w');
    // The whole records as they lie in the file, in one write.
    writeAll(fd, data.subarray(0, this.followedBytes + rest.bytes));
    renameSync(`${file}.partial`, file);
    this.held = { incarnation, fd, nextFence: pathOf(dir, location, incarnation + 1, 'fence') };
    this.unread = rest.records;
  }

  /**
   * The first of the records follow() returned that `data` (another journal file) does not begin
   * with, from the followed file's own bytes (-1: none, or nothing followed).
   */
  private divergingRecord(data: Buffer): number {
    if (this.followedFile === undefined || this.followedBytes === 0) return -1;
    const followed = readFileSync(pathOf(this.dir, this.location, this.followedFile, 'journal')).subarray(
      0,
      this.followedBytes,
    );
    if (data.byteLength >= this.followedBytes && followed.equals(data.subarray(0, this.followedBytes))) return -1;
    const [mine, theirs] = [wholeRecords(followed).records, wholeRecords(data).records];
    const i = mine.findIndex((r, k) => theirs[k] === undefined || !Buffer.from(r).equals(theirs[k]!));
    return i >= 0 ? i : 0;
  }

  append(batch: Uint8Array, _seq: number): Promise<void> {
    const held = this.held;
    if (!held) return Promise.reject(new Error('assertion: an append to a journal not taken over'));
    // Its descriptor may be another file's by now: the next file opened takes the lowest free one.
    if (this.closed)
      return Promise.reject(new Error(`assertion: an append to ${this.location}'s journal after it was closed`));
    writeRecord(held.fd, batch);
    // After the write, before the output: a newer incarnation that has not yet read the file will read this.
    if (existsSync(held.nextFence))
      return Promise.reject(
        new JournalRefusedError(
          `incarnation ${held.incarnation}'s journal append was refused: a newer incarnation of ${this.location} has taken the journal over`,
        ),
      );
    return Promise.resolve();
  }

  /** What the restart replays: the records stored before it took over that follow() did not return. */
  readAll(): Promise<Uint8Array[]> {
    if (!this.held) return Promise.reject(new Error('assertion: a journal read before it is taken over'));
    return Promise.resolve([...this.unread]);
  }

  close(): void {
    if (this.held && !this.closed) closeSync(this.held.fd);
    this.closed = true;
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

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.byteLength;) done += writeSync(fd, bytes, done);
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

/**
 * The whole records at the start of `data`, and the bytes they take: a torn last one (the host
 * failed mid-write, or a standby read a file while its record was being written) is left out.
 */
function wholeRecords(data: Buffer): { records: Uint8Array[]; bytes: number } {
  const records: Uint8Array[] = [];
  let at = 0;
  while (at + LENGTH_BYTES <= data.byteLength) {
    const n = data.readUInt32BE(at);
    if (at + LENGTH_BYTES + n > data.byteLength) break;
    records.push(new Uint8Array(data.subarray(at + LENGTH_BYTES, at + LENGTH_BYTES + n)));
    at += LENGTH_BYTES + n;
  }
  return { records, bytes: at };
}
