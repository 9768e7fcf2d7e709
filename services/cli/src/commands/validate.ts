import { parseCommandArgs } from '../command-args.js';
import { parseOverrides, runEpoch_s } from '@gridemu/model';
import { loadExperiment, loadExperimentWorkload } from '@gridemu/schemes';
import { EXIT_OK, UsageError } from '../exit-codes.js';
import { workloadWarnings } from '../workload-warnings.js';

export const VALIDATE_HELP = `Usage: gridemu validate SPEC [--set path=value]... [--file-only] [--lenient]

Checks an experiment file (after overrides), reads its workload as a run would (finds and reads
every trace, checks the fault times against the first submission), and prints the file with
defaults filled in, as JSON. Exits 2 where a run of it would stop: it names every bad field with
its line, a trace it cannot find or read, or a trace's malformed line.

Options:
  --set path=value   an override, as run and simulate take it
  --file-only        check the file alone, without reading its workload (for a spec whose traces
                     are on another machine): fault times are then not checked
  --lenient          skip and count malformed trace lines, as run and simulate do with it`;

export async function validateCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('validate', {
    args: argv,
    allowPositionals: true,
    options: {
      set: { type: 'string', multiple: true },
      'file-only': { type: 'boolean' },
      lenient: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(VALIDATE_HELP);
    return EXIT_OK;
  }
  if (positionals.length !== 1) throw new UsageError(`validate takes one experiment file\n\n${VALIDATE_HELP}`);
  const file = positionals[0]!;
  const { spec, locate } = loadExperiment(file, parseOverrides(values.set ?? []));
  if (values['file-only']) {
    console.log(JSON.stringify(spec, null, 2));
    console.error(`${file}: valid (the file alone: its workload was not read)`);
    return EXIT_OK;
  }
  // What simulate and run check once they have read the traces: a spec that passes here starts.
  const workload = await loadExperimentWorkload(spec, {
    specFile: file,
    lenient: values.lenient === true,
    locateIssues: locate,
  });
  console.log(JSON.stringify(spec, null, 2));
  for (const w of workloadWarnings(workload.sources)) console.error(`gridemu: ${w}`);
  const sources = workload.sources.length;
  console.error(
    `${file}: valid; its workload: ${workload.jobs.length} jobs from ${sources} source${sources === 1 ? '' : 's'}, ` +
      `the first submitted at ${runEpoch_s(workload.jobs)} s`,
  );
  return EXIT_OK;
}
