import { parseCommandArgs } from '../command-args.js';
import { parseOverrides } from '@gridemu/model';
import { loadExperiment } from '@gridemu/schemes';
import { EXIT_OK, UsageError } from '../exit-codes.js';

export const VALIDATE_HELP = `Usage: gridemu validate SPEC [--set path=value]...

Checks an experiment file (after overrides) and prints it with defaults filled in, as JSON.
Exits 2 and names every bad field, with its line, if the file is invalid.`;

export function validateCommand(argv: string[]): number {
  const { values, positionals } = parseCommandArgs('validate', {
    args: argv,
    allowPositionals: true,
    options: { set: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(VALIDATE_HELP);
    return EXIT_OK;
  }
  if (positionals.length !== 1) throw new UsageError(`validate takes one experiment file\n\n${VALIDATE_HELP}`);
  const { spec } = loadExperiment(positionals[0]!, parseOverrides(values.set ?? []));
  console.log(JSON.stringify(spec, null, 2));
  console.error(`${positionals[0]}: valid`);
  return EXIT_OK;
}
