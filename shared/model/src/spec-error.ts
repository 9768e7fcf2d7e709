import { InputError } from './input-error.js';

/** One thing wrong with an experiment file, named by its field path (`sites[2].cpus`). */
export interface SpecIssue {
  readonly path: string;
  readonly message: string;
  /** 1-based line in the file, when the field (or its parent) is there. */
  readonly line?: number;
}

/** An experiment file that cannot be run. The CLI prints every issue and exits with code 2. */
export class SpecError extends InputError {
  constructor(
    readonly file: string,
    readonly issues: readonly SpecIssue[],
  ) {
    super(
      `invalid experiment file ${file}:\n` +
        issues
          .map((i) => `  ${i.line !== undefined ? `${file}:${i.line}: ` : ''}${i.path || '(top level)'}: ${i.message}`)
          .join('\n'),
    );
    this.name = 'SpecError';
  }
}
