import { InputError } from '@gridemu/model';

/** Bad JSON input (a Batsim workload, a WfFormat instance): the file and where in it, a JSON path or a line. */
export class JsonFormatError extends InputError {
  constructor(
    readonly file: string,
    readonly where: string,
    readonly reason: string,
  ) {
    super(`${file}: ${where}: ${reason}`);
    this.name = 'JsonFormatError';
  }
}

/** JSON.parse, with a syntax error reported at its line of `file`. */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const m = /position (\d+)/.exec((err as Error).message);
    throw new JsonFormatError(
      file,
      m ? `line ${text.slice(0, Number(m[1])).split('\n').length}` : 'the JSON',
      `not valid JSON (${(err as Error).message})`,
    );
  }
}
