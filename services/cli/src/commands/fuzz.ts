import { parseCommandArgs } from '../command-args.js';
import { checkRun, jobsCsvText } from '@gridemu/metrics';
import { simulate } from '@gridemu/schemes';
import { EXIT_FAILED, EXIT_OK, UsageError } from '../exit-codes.js';
import { allRuns, assertNoJobAtTwoSites } from '../fuzz/fault-invariants.js';
import { fuzzExperiment } from '../fuzz/random-spec.js';
import { ProgressBar } from '../progress.js';

export const FUZZ_HELP = `Usage: gridemu fuzz [--seeds N] [--from S] | --seed S

Runs random small experiments in the simulator (any scheme of any family, a few sites, random
latency, jitter and timeouts; for the schemes that survive faults, random crashes, partitions and
message loss), one per seed, starting at S (default 1). After every delivery, no job may run at
two sites at once, and the actors' own assertions must hold (a broken one stops the run); at the
end the run must pass gridemu check's invariants, every run of a job (lost ones included) apart.
A failure prints the seed and exits 1; --seed S reruns that one seed and prints its experiment
file.

Options:
  --seeds N   how many seeds (default 100)
  --from S    the first seed (default 1)
  --seed S    one seed, verbosely`;

/** One seed: undefined if it passed, else what went wrong. */
export async function fuzzSeed(seed: number): Promise<string | undefined> {
  try {
    const { spec, jobs } = await fuzzExperiment(seed);
    const result = simulate(spec, jobs, { afterDelivery: assertNoJobAtTwoSites });
    const broken = checkRun({
      jobsCsv: jobsCsvText(result.records),
      submitted: result.records.length,
      cpus: new Map(spec.sites.map((s) => [s.id, s.cpus])),
      runs: allRuns(result.records),
    }).filter((r) => !r.ok);
    return broken.length === 0 ? undefined : broken.map((r) => `${r.name}: ${r.detail}`).join('\n  ');
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

export async function fuzzCommand(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('fuzz', {
    args: argv,
    options: {
      seeds: { type: 'string' },
      from: { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(FUZZ_HELP);
    return EXIT_OK;
  }
  const whole = (v: string | undefined, name: string, fallback: number) => {
    const n = v === undefined ? fallback : Number(v);
    if (!(Number.isInteger(n) && n >= 1))
      throw new UsageError(`--${name} must be a positive whole number (got "${v}")`);
    return n;
  };
  if (values.seed !== undefined) {
    const seed = whole(values.seed, 'seed', 1);
    console.log((await fuzzExperiment(seed)).text);
    const failure = await fuzzSeed(seed);
    console.log(failure === undefined ? `\nseed ${seed}: passed` : `\nseed ${seed}: FAILED\n  ${failure}`);
    return failure === undefined ? EXIT_OK : EXIT_FAILED;
  }
  const from = whole(values.from, 'from', 1);
  const seeds = whole(values.seeds, 'seeds', 100);
  const started = Date.now();
  // Off a terminal (a CI log, a file), a plain line every 30 s: 5,000 seeds take minutes.
  const bar = new ProgressBar('fuzz', process.stderr, Boolean(process.stderr.isTTY), 30_000);
  for (let seed = from; seed < from + seeds; seed++) {
    const failure = await fuzzSeed(seed);
    if (failure !== undefined) {
      bar.done();
      console.error(`gridemu fuzz: seed ${seed} failed:\n  ${failure}\nreproduce with: gridemu fuzz --seed ${seed}`);
      return EXIT_FAILED;
    }
    bar.update(seed - from + 1, seeds, `seed ${seed}`);
  }
  bar.done();
  console.log(
    `${seeds} seeds passed (${from}..${from + seeds - 1}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return EXIT_OK;
}
