import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { createGunzip, gunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { parseSwfBytes, SwfFormatError, type SwfHeader, type SwfRecord } from './swf-record.js';

const gunzipAsync = promisify(gunzip);

export interface SwfReadOptions {
  /** Skip and count malformed lines instead of throwing SwfFormatError. */
  readonly lenient?: boolean;
  /** Called once per skipped line in lenient mode. */
  readonly onMalformed?: (err: SwfFormatError) => void;
  /** Filled with the header's `; Key: value` comments as they are read. */
  readonly header?: SwfHeader;
}

/**
 * Streams the records of an `.swf` or `.swf.gz` trace (gzip is recognised by its magic bytes),
 * one line at a time, so a million-line trace is never held as text.
 */
export async function* readSwf(file: string, options: SwfReadOptions = {}): AsyncGenerator<SwfRecord> {
  for await (const batch of readSwfBatches(file, options)) yield* batch;
}

/**
 * The same records, a batch per chunk read from the file: a caller that loads a whole trace pays
 * one await per chunk rather than one per line.
 */
export async function* readSwfBatches(file: string, options: SwfReadOptions = {}): AsyncGenerator<SwfRecord[]> {
  yield* readRecordBatches(file, options, {
    comment: 59 /* ; */,
    parse: parseSwfBytes,
    onComment: (text) => {
      const m = /^;\s*([A-Za-z][\w ]*?)\s*:\s*(.*)$/.exec(text.trim());
      if (m && options.header && !options.header.fields.has(m[1]!)) options.header.fields.set(m[1]!, m[2]!.trim());
    },
  });
}

/** A line-based trace format (SWF, GWF): the byte that starts a comment line, and how a data line parses. */
export interface LineFormat {
  readonly comment: number;
  /** The data line `bytes[start, end)`, its line ending excluded. */
  parse(bytes: Buffer, start: number, end: number, line: number): SwfRecord;
  onComment?(text: string): void;
}

/**
 * The records of a line-based trace, a batch per chunk read. A bad line becomes a SwfFormatError
 * naming the file and line; in lenient mode it is skipped and counted instead. Lines are found
 * and parsed in the bytes as read: only comments and bad fields are ever decoded to text.
 */
export async function* readRecordBatches(
  file: string,
  options: SwfReadOptions,
  format: LineFormat,
): AsyncGenerator<SwfRecord[]> {
  let lineNo = 0;
  for await (const bytes of lineChunks(file)) {
    const records: SwfRecord[] = [];
    const length = bytes.length;
    for (let from = 0; from < length;) {
      let end = bytes.indexOf(10 /* \n */, from);
      if (end < 0) end = length;
      const next = end + 1;
      lineNo++;
      // The first visible byte says what the line is.
      let first = from;
      while (first < end && bytes[first]! <= 32) first++;
      if (first < end) {
        if (bytes[first] === format.comment) format.onComment?.(bytes.toString('utf8', from, end));
        else {
          try {
            records.push(format.parse(bytes, first, end, lineNo));
          } catch (err) {
            const e = new SwfFormatError(file, lineNo, (err as Error).message, { cause: err });
            if (!options.lenient) throw e;
            options.onMalformed?.(e);
          }
        }
      }
      from = next;
    }
    if (records.length > 0) yield records;
  }
}

/** Files up to this size are read whole (one read, one gunzip); larger ones are streamed. */
const WHOLE_FILE_BYTES = 8 << 20;
/** About how much of a whole-read file is parsed per batch. */
const PIECE_BYTES = 1 << 20;

/**
 * The file's bytes, ungzipped, in chunks that each end at a line's end (or the file's): the
 * whole file at once when small, else per chunk streamed, a chunk's unfinished last line
 * waiting for the next. Lines are split on the byte 10, so a character of several bytes is
 * never cut in two.
 */
async function* lineChunks(file: string): AsyncGenerator<Buffer> {
  let size: number;
  try {
    const found = await stat(file);
    if (found.isDirectory()) throw new SwfFormatError(file, 0, 'is a folder, not a trace file');
    size = found.size;
  } catch (err) {
    if (err instanceof SwfFormatError) throw err;
    throw new SwfFormatError(file, 0, `cannot read the trace: ${(err as Error).message}`, { cause: err });
  }
  if (size <= WHOLE_FILE_BYTES) {
    // Most archive traces: a whole read is one await instead of hundreds of stream chunks.
    let bytes: Buffer;
    try {
      const read = await readFile(file);
      // Big output chunks: zlib's default 16 KiB makes a trace's few MB of text a hundred thread-pool round trips.
      bytes = isGzip(read) ? await gunzipAsync(read, { chunkSize: 4 << 20 }) : read;
    } catch (err) {
      throw new SwfFormatError(file, 0, `cannot read the trace: ${(err as Error).message}`, { cause: err });
    }
    // In pieces, so a source that takes the first few jobs of a trace parses little more than those.
    for (let from = 0; from < bytes.length;) {
      const cut = bytes.indexOf(10, Math.min(bytes.length, from + PIECE_BYTES));
      const end = cut < 0 ? bytes.length : cut + 1;
      yield bytes.subarray(from, end);
      from = end;
    }
    return;
  }
  let rest: Buffer = Buffer.alloc(0);
  try {
    for await (const chunk of await openTrace(file)) {
      const bytes = rest.length > 0 ? Buffer.concat([rest, chunk as Buffer]) : (chunk as Buffer);
      const cut = bytes.lastIndexOf(10) + 1;
      rest = bytes.subarray(cut);
      if (cut > 0) yield bytes.subarray(0, cut);
    }
  } catch (err) {
    throw new SwfFormatError(file, 0, `cannot read the trace: ${(err as Error).message}`, { cause: err });
  }
  if (rest.length > 0) yield rest;
}

function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b;
}

async function openTrace(file: string): Promise<Readable> {
  const fh = await open(file, 'r');
  const magic = Buffer.alloc(2);
  try {
    await fh.read(magic, 0, 2, 0);
  } finally {
    await fh.close();
  }
  const raw = createReadStream(file, { highWaterMark: 1 << 20 });
  if (!isGzip(magic)) return raw;
  const gunzip = createGunzip();
  raw.on('error', (e) => gunzip.destroy(e));
  return raw.pipe(gunzip);
}
