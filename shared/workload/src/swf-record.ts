import { InputError } from '@gridemu/model';

/** One data line of a Standard Workload Format trace (Parallel Workloads Archive; -1 = unknown). */
export interface SwfRecord {
  readonly jobNumber: number;
  readonly submit: number;
  readonly wait: number;
  readonly run: number;
  readonly allocatedProcs: number;
  readonly avgCpu: number;
  readonly usedMemory: number;
  readonly requestedProcs: number;
  readonly requestedTime: number;
  readonly requestedMemory: number;
  readonly status: number;
  readonly user: number;
  readonly group: number;
  readonly executable: number;
  readonly queue: number;
  readonly partition: number;
  readonly precedingJob: number;
  readonly thinkTime: number;
  /** 1-based line in the file, for error messages. */
  readonly line: number;
}

/** Header comments of interest (`; MaxProcs: 100`). */
export interface SwfHeader {
  readonly fields: Map<string, string>;
}

export const SWF_FIELD_COUNT = 18;

/** A line that is not SWF: names the file and line. */
export class SwfFormatError extends InputError {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}:${line}: ${reason}`, options);
    this.name = 'SwfFormatError';
  }
}

/** Field boundaries of the line being parsed (one line at a time: the reader is synchronous per chunk). */
const starts = new Int32Array(SWF_FIELD_COUNT + 1);
const ends = new Int32Array(SWF_FIELD_COUNT + 1);
// A plain array: small integers stay unboxed (a Float64Array would box each value read out of it).
const values: number[] = new Array<number>(SWF_FIELD_COUNT).fill(0);

/**
 * A plain decimal (`-1`, `3600`, `12.5`) read from its characters without making a string; NaN
 * for anything else. Integers are exact; a fraction is parsed by Number from its text, as before.
 */
function plainNumber(text: string, from: number, to: number): number {
  let i = from;
  const negative = text.charCodeAt(i) === 45;
  if (negative || text.charCodeAt(i) === 43) i++;
  if (i >= to) return Number.NaN;
  let v = 0;
  for (; i < to; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) break;
    v = v * 10 + d;
  }
  if (i === to) return v <= Number.MAX_SAFE_INTEGER ? (negative ? -v : v) : Number.NaN;
  return Number.NaN;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 11 || c === 12;
}

/**
 * Parses one non-comment line; throws a plain message (the reader adds file and line). It scans
 * the fields by hand rather than splitting on a regular expression: a full archive trace has
 * hundreds of thousands of lines.
 */
export function parseSwfLine(text: string, line: number): SwfRecord {
  let fields = 0;
  for (let i = 0; i < text.length; ) {
    while (i < text.length && isBlank(text.charCodeAt(i))) i++;
    if (i >= text.length) break;
    const start = i;
    while (i < text.length && !isBlank(text.charCodeAt(i))) i++;
    if (fields <= SWF_FIELD_COUNT) {
      starts[fields] = start;
      ends[fields] = i;
    }
    fields++;
  }
  if (fields !== SWF_FIELD_COUNT) throw new Error(`expected ${SWF_FIELD_COUNT} fields, found ${fields}`);
  for (let k = 0; k < SWF_FIELD_COUNT; k++) {
    let v = plainNumber(text, starts[k]!, ends[k]!);
    if (Number.isNaN(v)) {
      // Not a plain decimal (an exponent, say): let Number decide, and say which field if it cannot.
      const s = text.slice(starts[k], ends[k]);
      v = Number(s);
      if (!Number.isFinite(v)) throw new Error(`field ${k + 1} is not a number: ${JSON.stringify(s)}`);
    }
    values[k] = v;
  }
  const n = values;
  return {
    jobNumber: n[0]!, submit: n[1]!, wait: n[2]!, run: n[3]!, allocatedProcs: n[4]!, avgCpu: n[5]!,
    usedMemory: n[6]!, requestedProcs: n[7]!, requestedTime: n[8]!, requestedMemory: n[9]!, status: n[10]!,
    user: n[11]!, group: n[12]!, executable: n[13]!, queue: n[14]!, partition: n[15]!, precedingJob: n[16]!,
    thinkTime: n[17]!, line,
  };
}
