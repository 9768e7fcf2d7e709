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

/** Parses one non-comment line; throws a plain message (the reader adds file and line). */
export function parseSwfLine(text: string, line: number): SwfRecord {
  const f = text.trim().split(/\s+/);
  if (f.length !== SWF_FIELD_COUNT) throw new Error(`expected ${SWF_FIELD_COUNT} fields, found ${f.length}`);
  const n = f.map((s, i) => {
    const v = Number(s);
    if (s === '' || !Number.isFinite(v)) throw new Error(`field ${i + 1} is not a number: ${JSON.stringify(s)}`);
    return v;
  });
  return {
    jobNumber: n[0]!, submit: n[1]!, wait: n[2]!, run: n[3]!, allocatedProcs: n[4]!, avgCpu: n[5]!,
    usedMemory: n[6]!, requestedProcs: n[7]!, requestedTime: n[8]!, requestedMemory: n[9]!, status: n[10]!,
    user: n[11]!, group: n[12]!, executable: n[13]!, queue: n[14]!, partition: n[15]!, precedingJob: n[16]!,
    thinkTime: n[17]!, line,
  };
}
