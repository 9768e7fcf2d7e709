import { InputError, UnavailableError } from '@gridemu/model';
import { EXIT_BAD_INPUT, EXIT_FAILED } from './exit-codes.js';

/**
 * Says why a command failed and returns its exit code: bad input (an experiment file, a trace, an
 * option) is one line and exit 2; anything else is a bug or a broken run, with its stack, exit 1.
 */
export function reportFailure(err: unknown): number {
  if (
    err instanceof InputError ||
    // node:util's parseArgs: an unknown option, an option without its value, a stray argument.
    (err instanceof Error && String((err as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS_'))
  ) {
    console.error(`gridemu: ${err.message}`);
    return EXIT_BAD_INPUT;
  }
  if (err instanceof UnavailableError) {
    console.error(`gridemu: ${err.message}`);
    return EXIT_FAILED;
  }
  console.error(`gridemu: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return EXIT_FAILED;
}
