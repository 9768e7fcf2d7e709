import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closestName, didYouMean, UsageError } from '@gridemu/model';

/**
 * node:util's parseArgs for `gridemu <command>`, whose own message for a mistyped option tells how
 * to pass a positional argument that starts with a dash: here the error names the option the user
 * most likely meant and where the command's options are listed.
 */
export function parseCommandArgs<T extends ParseArgsConfig>(
  command: string,
  config: T,
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    const typed = /^Unknown option '([^']+)'/.exec((err as Error).message)?.[1];
    if ((err as NodeJS.ErrnoException).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || typed === undefined) throw err;
    const meant = typed.startsWith('--') ? closestName(typed.slice(2), Object.keys(config.options ?? {})) : undefined;
    throw new UsageError(
      `unknown option ${typed} for gridemu ${command}${didYouMean(meant === undefined ? undefined : `--${meant}`)}` +
        ` (gridemu ${command} --help lists its options)`,
    );
  }
}

/** Where a live run keeps its processes' journals (`gridemu run --journal-store`). */
export type JournalStoreOption = 'file' | 'jetstream';

/** `--journal-store`'s value checked, as run, sweep --live and fuzz --live read it (undefined if not given). */
export function journalStoreOption(value: string | undefined): JournalStoreOption | undefined {
  if (value === undefined || value === 'file' || value === 'jetstream') return value;
  throw new UsageError(`--journal-store must be file or jetstream, got "${value}"`);
}
