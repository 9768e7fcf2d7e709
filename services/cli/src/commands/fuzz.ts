import { resolve } from 'node:path';
import { journalStoreOption, parseCommandArgs, type JournalStoreOption } from '../command-args.js';
import { checkRun, jobsCsvText } from '@gridemu/metrics';
import { runEpoch_s } from '@gridemu/model';
import { INSTALL_HINT, natsServerBinary } from '@gridemu/nats-server';
import { simulate } from '@gridemu/schemes';
import { ChildRuns } from '../child-runs.js';
import { EXIT_FAILED, EXIT_OK, UsageError } from '../exit-codes.js';
import { allRuns, assertNoJobAtTwoSites } from '../fuzz/fault-invariants.js';
import {
  faultCount,
  liveFuzzSpec,
  liveFuzzSpeedup,
  liveSeedPaths,
  runLiveSeed,
  LIVE_FUZZ_WALL_S,
} from '../fuzz/live-seed.js';
import { fuzzExperiment } from '../fuzz/random-spec.js';
import { makeOutputFolder } from '../output-folder.js';
import { ProgressBar } from '../progress.js';

export const FUZZ_HELP = `Usage: gridemu fuzz [--seeds N] [--from S] | --seed S
       gridemu fuzz --live [--seeds N] [--from S] [--out DIR] [--timeout S] [--keep]
                    [--journal-store S]
       gridemu fuzz --live --seed S [--out DIR] [--timeout S] [--journal-store S]

Runs random small experiments in the simulator (any scheme of any family, a few sites, random
latency, jitter and timeouts; for the schemes that survive faults, random crashes, partitions and
message loss), one per seed, starting at S (default 1). After every delivery, no job may run at
two sites at once, and the actors' own assertions must hold (a broken one stops the run); at the
end the run must pass gridemu check's invariants, every run of a job (lost ones included) apart.
A run must also end, as every simulation must: once its last submission and fault are past, no
job may go without an outcome for 30 emulated days (or ten times its longest job, or 50 times
its scheme's mean outage). A failure prints the seed and exits 1; --seed S reruns that one seed
and prints its experiment file.

With --live each seed's experiment, once it has passed in the simulator, also runs as gridemu run
runs it: its own nats-server, a process per site, its faults applied by killing and starting
processes, cutting links and restarting the server. What only a live run has is then checked:
the journal, exactly-once delivery, restarts that catch up, the transport. The run must end, and
its check (check.json) pass. Each seed runs at the speed-up that makes the simulator's run of it
last about ${LIVE_FUZZ_WALL_S} s of wall time (10 to 60 s a seed with the processes' start-up
and restarts).

Options:
  --seeds N     how many seeds (default 100; with --live, 10)
  --from S      the first seed (default 1)
  --seed S      one seed, verbosely (with --live, the run's own messages and progress shown)
  --live        run each seed live too, one at a time
  --out DIR     with --live: where each seed's experiment file and results folder go (default
                results/fuzz-live); a passed seed's are removed unless --keep
  --timeout S   with --live: a seed's run that has not ended after S wall seconds fails (default
                120)
  --keep        with --live: keep every seed's experiment file and results, not only a failed one's
  --journal-store S
                with --live: file or jetstream, where the journals of the seeds with crashes or
                server restarts go (gridemu run --journal-store; default file)`;

/** One seed in the simulator: its experiment, how long its run lasted, and what went wrong if anything did. */
async function simulateSeed(
  seed: number,
): Promise<{ experiment?: Awaited<ReturnType<typeof fuzzExperiment>>; emulated_s: number; failure?: string }> {
  try {
    const experiment = await fuzzExperiment(seed);
    const { spec, jobs } = experiment;
    // simulate() ends a run that would never end (StalledRunError), naming the jobs left.
    const result = simulate(spec, jobs, { afterDelivery: assertNoJobAtTwoSites });
    const broken = checkRun({
      jobsCsv: jobsCsvText(result.records),
      submitted: result.records.length,
      cpus: new Map(spec.sites.map((s) => [s.id, s.cpus])),
      runs: allRuns(result.records),
    }).filter((r) => !r.ok);
    const emulated_s = jobs.length === 0 ? 0 : result.end_s - runEpoch_s(jobs);
    return broken.length === 0
      ? { experiment, emulated_s }
      : { experiment, emulated_s, failure: broken.map((r) => `${r.name}: ${r.detail}`).join('\n  ') };
  } catch (err) {
    return { emulated_s: 0, failure: err instanceof Error ? err.message : String(err) };
  }
}

/** One seed: undefined if it passed, else what went wrong. */
export async function fuzzSeed(seed: number): Promise<string | undefined> {
  return (await simulateSeed(seed)).failure;
}

export async function fuzzCommand(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs('fuzz', {
    args: argv,
    options: {
      seeds: { type: 'string' },
      from: { type: 'string' },
      seed: { type: 'string' },
      live: { type: 'boolean' },
      out: { type: 'string' },
      timeout: { type: 'string' },
      keep: { type: 'boolean' },
      'journal-store': { type: 'string' },
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
  if (!values.live) {
    const stray = (['out', 'timeout', 'keep', 'journal-store'] as const).find((o) => values[o] !== undefined);
    if (stray) throw new UsageError(`fuzz: --${stray} is an option of --live: add --live, or leave it out`);
  } else {
    return fuzzLive({
      journalStore: journalStoreOption(values['journal-store']),
      seed: values.seed === undefined ? undefined : whole(values.seed, 'seed', 1),
      from: whole(values.from, 'from', 1),
      seeds: whole(values.seeds, 'seeds', 10),
      out: resolve(values.out ?? 'results/fuzz-live'),
      timeout_s: whole(values.timeout, 'timeout', 120),
      keep: values.keep === true,
    });
  }
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

/**
 * The seeds run live, one at a time, each first in the simulator (a seed that fails there is the
 * simulator fuzz's failure, and is said as one). Stops at the first failure, as the simulator's
 * fuzz does; its folder keeps the experiment file, the results and every process's log.
 */
async function fuzzLive(o: {
  readonly seed: number | undefined;
  readonly from: number;
  readonly seeds: number;
  readonly out: string;
  readonly timeout_s: number;
  readonly keep: boolean;
  readonly journalStore: JournalStoreOption | undefined;
}): Promise<number> {
  if (!natsServerBinary()) {
    console.error(`gridemu fuzz --live: ${INSTALL_HINT}`);
    return EXIT_FAILED;
  }
  makeOutputFolder(o.out, '--out');
  const one = o.seed !== undefined;
  const first = o.seed ?? o.from;
  const count = one ? 1 : o.seeds;
  const children = new ChildRuns('fuzz');
  const unwatch = children.stopOnSignals();
  const started = Date.now();
  try {
    for (let seed = first; seed < first + count; seed++) {
      const sim = await simulateSeed(seed);
      if (sim.failure !== undefined || !sim.experiment) {
        console.error(
          `gridemu fuzz: seed ${seed} failed in the simulator:\n  ${sim.failure}\nreproduce with: gridemu fuzz --seed ${seed}`,
        );
        return EXIT_FAILED;
      }
      const { text, spec } = sim.experiment;
      const speedup = liveFuzzSpeedup(sim.emulated_s);
      if (one) console.log(liveFuzzSpec(text, speedup));
      const what = `seed ${seed} (${spec.meta.scheme}, ${spec.sites.length} site${spec.sites.length === 1 ? '' : 's'}, ${faultCount(spec.faults)}, speed-up ${speedup})`;
      console.error(`[${seed - first + 1}/${count}] ${what}: running live`);
      const t0 = Date.now();
      const outcome = await runLiveSeed(
        text,
        speedup,
        {
          ...liveSeedPaths(o.out, seed),
          timeout_s: o.timeout_s,
          shown: one,
          keep: o.keep || one,
          ...(o.journalStore ? { journalStore: o.journalStore } : {}),
        },
        children,
      );
      if (children.stopped) {
        console.error(
          `gridemu fuzz --live: stopped by ${children.stopped} at seed ${seed}; ${seed - first} seed${seed - first === 1 ? '' : 's'} passed before it`,
        );
        return EXIT_FAILED;
      }
      if ('failure' in outcome) {
        console.error(
          `gridemu fuzz --live: seed ${seed} passed in the simulator and failed live:\n  ${outcome.failure}\nreproduce with: gridemu fuzz --live --seed ${seed}${o.journalStore ? ` --journal-store ${o.journalStore}` : ''}`,
        );
        return EXIT_FAILED;
      }
      const wall = `${((Date.now() - t0) / 1000).toFixed(1)} s`;
      console.error(
        `[${seed - first + 1}/${count}] ${what}: passed (${outcome.applied ? `${outcome.applied}; ` : ''}${wall})`,
      );
    }
  } finally {
    unwatch();
  }
  console.log(
    one
      ? `seed ${first}: passed live; its results in ${liveSeedPaths(o.out, first).out}`
      : `${count} seed${count === 1 ? '' : 's'} passed live (${first}..${first + count - 1}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return EXIT_OK;
}
