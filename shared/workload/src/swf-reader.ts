import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { parseSwfLine, SwfFormatError, type SwfHeader, type SwfRecord } from './swf-record.js';

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
  let lineNo = 0;
  for await (const text of lines(await openTrace(file), file)) {
    lineNo++;
    const trimmed = text.trim();
    if (trimmed === '') continue;
    if (trimmed.startsWith(';')) {
      const m = /^;\s*([A-Za-z][\w ]*?)\s*:\s*(.*)$/.exec(trimmed);
      if (m && options.header && !options.header.fields.has(m[1]!)) options.header.fields.set(m[1]!, m[2]!.trim());
      continue;
    }
    let record: SwfRecord;
    try {
      record = parseSwfLine(trimmed, lineNo);
    } catch (err) {
      const e = new SwfFormatError(file, lineNo, (err as Error).message, { cause: err });
      if (!options.lenient) throw e;
      options.onMalformed?.(e);
      continue;
    }
    yield record;
  }
}

async function* lines(stream: Readable, file: string): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  try {
    for await (const chunk of stream) {
      const text = rest + decoder.write(chunk as Buffer);
      const parts = text.split('\n');
      rest = parts.pop()!;
      yield* parts;
    }
  } catch (err) {
    throw new SwfFormatError(file, 0, `cannot read the trace: ${(err as Error).message}`, { cause: err });
  }
  rest += decoder.end();
  if (rest !== '') yield rest;
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
  if (magic[0] !== 0x1f || magic[1] !== 0x8b) return raw;
  const gunzip = createGunzip();
  raw.on('error', (e) => gunzip.destroy(e));
  return raw.pipe(gunzip);
}
