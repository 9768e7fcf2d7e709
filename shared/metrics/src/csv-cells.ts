import { writeSync } from 'node:fs';
import { formatNumber } from './format.js';

/**
 * Where the cells of a CSV row go, one row defined once for both: a string (jobsCsvRow, for tests
 * and in-memory checks) or the bytes of a file (CsvFileWriter). A row's cells are separated by
 * commas; `end()` closes the row.
 */
export interface CsvCells {
  /** A text cell, quoted if it holds a quote, comma or line break. */
  text(v: string): void;
  /** A number cell (formatNumber); empty when unknown. */
  num(v: number | undefined): void;
  end(): void;
}

/** Quotes a text field that needs it (numbers never do). */
export function csvField(v: string): string {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c === 34 || c === 44 || c === 10 || c === 13) return `"${v.replace(/"/g, '""')}"`;
  }
  return v;
}

/** The cells of one row, as a string without its line ending. */
export class CsvRowString implements CsvCells {
  private cells: string[] = [];
  private row = '';

  text(v: string): void {
    this.cells.push(csvField(v));
  }

  num(v: number | undefined): void {
    this.cells.push(v === undefined ? '' : formatNumber(v));
  }

  end(): void {
    this.row = this.cells.join(',');
    this.cells = [];
  }

  /** The last row ended. */
  take(): string {
    return this.row;
  }
}

const BUFFER_BYTES = 1 << 20;

/**
 * CSV rows written straight into bytes and out to a file descriptor a buffer at a time. Why: a full
 * archive trace's jobs.csv is tens of thousands of rows; built as strings, each row was a rope of
 * dozens of pieces and the file a rope of those, which garbage collection and writing then had to
 * walk (about an eighth of `gridemu simulate`'s time on the full KTH-SP2 trace). Here a
 * whole number is written digit by digit and plain ASCII text byte by byte; anything else goes
 * through formatNumber or UTF-8 encoding, so the file is the same as the string rows.
 */
export class CsvFileWriter implements CsvCells {
  private readonly buf = Buffer.allocUnsafe(BUFFER_BYTES);
  private pos = 0;
  private first = true;

  constructor(private readonly fd: number) {}

  /** Text written as it is (a header line). */
  line(text: string): void {
    this.bytes(text);
    this.byte(10);
  }

  text(v: string): void {
    this.separate();
    // The fast path: short plain ASCII that needs no quotes.
    const n = v.length;
    if (n <= 256) {
      this.room(n);
      const buf = this.buf;
      let pos = this.pos;
      let i = 0;
      for (; i < n; i++) {
        const c = v.charCodeAt(i);
        if (c >= 128 || c === 34 || c === 44 || c === 10 || c === 13) break;
        buf[pos++] = c;
      }
      if (i === n) {
        this.pos = pos;
        return;
      }
    }
    this.bytes(csvField(v));
  }

  num(v: number | undefined): void {
    this.separate();
    if (v === undefined) return;
    if (Number.isSafeInteger(v)) this.integer(v);
    else this.bytes(formatNumber(v));
  }

  end(): void {
    this.byte(10);
    this.first = true;
  }

  /** Writes what is buffered; call once after the last row. */
  flush(): void {
    let done = 0;
    while (done < this.pos) done += writeSync(this.fd, this.buf, done, this.pos - done);
    this.pos = 0;
  }

  private separate(): void {
    if (this.first) this.first = false;
    else this.byte(44);
  }

  /** A safe integer's decimal digits, as String() writes them. */
  private integer(v: number): void {
    this.room(17);
    const buf = this.buf;
    if (v < 0) {
      buf[this.pos++] = 45;
      v = -v;
    }
    let digits = 1;
    for (let x = v; x >= 10; x = Math.floor(x / 10)) digits++;
    let at = this.pos + digits;
    this.pos = at;
    do {
      buf[--at] = 48 + (v % 10);
      v = Math.floor(v / 10);
    } while (v > 0);
  }

  private byte(b: number): void {
    this.room(1);
    this.buf[this.pos++] = b;
  }

  /** Any string, UTF-8 encoded. */
  private bytes(s: string): void {
    const length = Buffer.byteLength(s, 'utf8');
    if (length > BUFFER_BYTES) {
      this.flush();
      const encoded = Buffer.from(s, 'utf8');
      let done = 0;
      while (done < encoded.length) done += writeSync(this.fd, encoded, done, encoded.length - done);
      return;
    }
    this.room(length);
    this.pos += this.buf.write(s, this.pos, 'utf8');
  }

  private room(bytes: number): void {
    if (this.pos + bytes > BUFFER_BYTES) this.flush();
  }
}
