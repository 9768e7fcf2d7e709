/**
 * Something wrong with what the user gave us (an experiment file, a `--set`, a trace, the command
 * line), as opposed to a broken invariant. Commands print its message as it is, one line where it
 * can be, and exit with code 2; the underlying error, if any, is kept as `cause` (STYLE.md 9).
 */
export class InputError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InputError';
  }
}

/** A `--set path=value` (or a sweep's `--vary`) that cannot be read or applied. */
export class OverrideError extends InputError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OverrideError';
  }
}

/** A command line that cannot be read: a missing or malformed option. Commands print their help after it. */
export class UsageError extends InputError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UsageError';
  }
}

/**
 * Something outside gridemu that a command needs is not there (a download's server cannot be
 * reached or has no such file), and the message says all of it: commands print the message alone
 * and exit with code 1, the underlying error kept as `cause`.
 */
export class UnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UnavailableError';
  }
}
