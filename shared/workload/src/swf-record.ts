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
  /** `line` 0: the file as a whole (it cannot be read), named without a line. */
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(line > 0 ? `${file}:${line}: ${reason}` : `${file}: ${reason}`, options);
    this.name = 'SwfFormatError';
  }
}

// A plain array: small integers stay unboxed (a Float64Array would box each value read out of it).
const values: number[] = new Array<number>(SWF_FIELD_COUNT).fill(0);

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 11 || c === 12;
}

/**
 * Parses the non-comment line `bytes[start, end)`; throws a plain message (the reader adds file
 * and line). One pass over the bytes reads each field's digits as it finds the field, without
 * making a string of the line or of a field: a full archive trace has hundreds of thousands of
 * lines, and decoding them to text first cost more than parsing them. A field that is not
 * a plain integer (a fraction, an exponent) is handed to Number from its text.
 */
export function parseSwfBytes(bytes: Buffer, start: number, end: number, line: number): SwfRecord {
  let fields = 0;
  let i = start;
  // The field count is checked first: a short line says so, whatever its fields hold.
  let notANumber: string | undefined;
  for (;;) {
    while (i < end && isBlank(bytes[i]!)) i++;
    if (i >= end) break;
    const first = i;
    let c = bytes[i]!;
    const negative = c === 45;
    if (negative || c === 43) c = ++i < end ? bytes[i]! : 32;
    let v = 0;
    let digits = 0;
    while (c >= 48 && c <= 57) {
      v = v * 10 + (c - 48);
      digits++;
      c = ++i < end ? bytes[i]! : 32;
    }
    if (digits === 0 || !isBlank(c) || v > Number.MAX_SAFE_INTEGER) {
      // Not a plain integer: let Number decide, and say which field if it cannot.
      while (i < end && !isBlank(bytes[i]!)) i++;
      const s = bytes.toString('utf8', first, i);
      v = Number(s);
      if (!Number.isFinite(v)) notANumber ??= `field ${fields + 1} is not a number: ${JSON.stringify(s)}`;
    } else if (negative) v = -v;
    if (fields < SWF_FIELD_COUNT) values[fields] = v;
    fields++;
  }
  if (fields !== SWF_FIELD_COUNT) throw new Error(`expected ${SWF_FIELD_COUNT} fields, found ${fields}`);
  if (notANumber !== undefined) throw new Error(notANumber);
  const n = values;
  return {
    jobNumber: n[0]!,
    submit: n[1]!,
    wait: n[2]!,
    run: n[3]!,
    allocatedProcs: n[4]!,
    avgCpu: n[5]!,
    usedMemory: n[6]!,
    requestedProcs: n[7]!,
    requestedTime: n[8]!,
    requestedMemory: n[9]!,
    status: n[10]!,
    user: n[11]!,
    group: n[12]!,
    executable: n[13]!,
    queue: n[14]!,
    partition: n[15]!,
    precedingJob: n[16]!,
    thinkTime: n[17]!,
    line,
  };
}
