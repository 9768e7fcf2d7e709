import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip, gunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { parseSwfLine, SwfFormatError, type SwfHeader, type SwfRecord } from './swf-record.js';

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
    parse: parseSwfLine,
    onComment: (text) => {
      const m = /^;\s*([A-Za-z][\w ]*?)\s*:\s*(.*)$/.exec(text.trim());
      if (m && options.header && !options.header.fields.has(m[1]!)) options.header.fields.set(m[1]!, m[2]!.trim());
    },
  });
}

/** A line-based trace format (SWF, GWF): the character that starts a comment line, and how a data line parses. */
export interface LineFormat {
  readonly comment: number;
  parse(text: string, line: number): SwfRecord;
  onComment?(text: string): void;
}

/**
 * The records of a line-based trace, a batch per chunk read. A bad line becomes a SwfFormatError
 * naming the file and line; in lenient mode it is skipped and counted instead.
 */
export async function* readRecordBatches(file: string, options: SwfReadOptions, format: LineFormat): AsyncGenerator<SwfRecord[]> {
  let lineNo = 0;
  for await (const lines of lineBatches(file)) {
    const records: SwfRecord[] = [];
    for (const text of lines) {
      lineNo++;
      // The first visible character says what the line is, without trimming a copy of it.
      let first = 0;
      while (first < text.length && text.charCodeAt(first) <= 32) first++;
      if (first === text.length) continue;
      if (text.charCodeAt(first) === format.comment) {
        format.onComment?.(text);
        continue;
      }
      try {
        records.push(format.parse(text, lineNo));
      } catch (err) {
        const e = new SwfFormatError(file, lineNo, (err as Error).message, { cause: err });
        if (!options.lenient) throw e;
        options.onMalformed?.(e);
      }
    }
    if (records.length > 0) yield records;
  }
}

/** Files up to this size are read whole (one read, one gunzip); larger ones are streamed. */
const WHOLE_FILE_BYTES = 8 << 20;
const LINES_PER_BATCH = 8192;

/** The text's lines in batches: per chunk when streamed (the last line of a chunk waits for the next). */
async function* lineBatches(file: string): AsyncGenerator<string[]> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (err) {
    throw new SwfFormatError(file, 0, `cannot read the trace: ${(err as Error).message}`, { cause: err });
  }
  if (size <= WHOLE_FILE_BYTES) {
    // Most archive traces: a whole read is one await instead of hundreds of stream chunks.
    let text: string;
    try {
      const bytes = await readFile(file);
      // Big output chunks: zlib's default 16 KiB makes a trace's few MB of text a hundred thread-pool round trips.
      text = (isGzip(bytes) ? await gunzipAsync(bytes, { chunkSize: 4 << 20 }) : bytes).toString('utf8');
    } catch (err) {
      throw new SwfFormatError(file, 0, `cannot read the trace: ${(err as Error).message}`, { cause: err });
    }
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    for (let i = 0; i < lines.length; i += LINES_PER_BATCH) yield lines.slice(i, i + LINES_PER_BATCH);
    return;
  }
  const decoder = new StringDecoder('utf8');
  let rest = '';
  try {
    for await (const chunk of await openTrace(file)) {
      const text = rest + decoder.write(chunk as Buffer);
      const parts = text.split('\n');
      rest = parts.pop()!;
      yield parts;
    }
  } catch (err) {
    throw new SwfFormatError(file, 0, `cannot read the trace: ${(err as Error).message}`, { cause: err });
  }
  rest += decoder.end();
  if (rest !== '') yield [rest];
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
