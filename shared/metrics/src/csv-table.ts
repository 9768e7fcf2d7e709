import { InputError } from '@gridemu/model';

/** A results CSV (jobs.csv) read back: its header and rows, each row as many fields as the header. */
export interface CsvTable {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** The file's line number of each row, for errors. */
  readonly lineOf: readonly number[];
  /** The index of a column; a file without it is bad input, named with the file. */
  column(name: string): number;
  /** A row's field as a finite number; anything else is bad input naming the file, line and column. */
  number(row: number, column: number): number;
}

/**
 * Reads a CSV that gridemu wrote. A row whose field count is not the header's (a file cut short
 * by a killed process or a full disk, or not gridemu's) is an error naming the file and line: read
 * as it stands, its missing fields would be empty, and an empty start time reads as a job that
 * never started.
 */
export function readCsvTable(text: string, file: string): CsvTable {
  const lines = text.split('\n');
  const header = splitCsvLine((lines[0] ?? '').replace(/\r$/, ''));
  const rows: string[][] = [];
  const lineOf: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    if (line === '') continue;
    const fields = splitCsvLine(line);
    if (fields.length !== header.length)
      throw new InputError(`${file}:${i + 1}: ${fields.length} fields, the header has ${header.length}`);
    rows.push(fields);
    lineOf.push(i + 1);
  }
  return {
    header,
    rows,
    lineOf,
    column(name) {
      const i = header.indexOf(name);
      if (i < 0) throw new InputError(`${file}:1: no column "${name}" in the header`);
      return i;
    },
    number(row, column) {
      const raw = rows[row]![column]!;
      const v = raw === '' ? NaN : Number(raw);
      if (!Number.isFinite(v))
        throw new InputError(`${file}:${lineOf[row]}: ${header[column]} "${raw}" is not a number`);
      return v;
    },
  };
}

/** The fields of one CSV line: commas split them, double quotes hold commas and quotes (""). */
export function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(field);
      field = '';
    } else field += ch;
  }
  out.push(field);
  return out;
}
