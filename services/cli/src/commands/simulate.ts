import { existsSync, readFileSync } from 'node:fs';
import { parseCommandArgs } from '../command-args.js';
import { join, resolve } from 'node:path';
import {
  buildRunSummary,
  runProvenance,
  writeResults,
  writeSummary,
  writeProtocolTrace,
  type RunSummary,
} from '@gridemu/metrics';
import { parseOverrides, type ExperimentSpec, type LoadedSpec } from '@gridemu/model';
import {
  loadExperiment,
  loadExperimentWorkload,
  schemeSummaryInput,
  simulate,
  StalledRunError,
} from '@gridemu/schemes';
import { jobsSha256 } from '@gridemu/workload';
import { MeasuredNetwork, SimulationError } from '@gridemu/runtime';
import { EXIT_FAILED, EXIT_OK, UsageError } from '../exit-codes.js';
import { makeOutputFolder } from '../output-folder.js';
import { abortedRunOf, clearRunOutputs } from '../results-folder.js';
import { ProgressBar } from '../progress.js';
import { replayedSpecNote } from '../replayed-spec-note.js';
import { sameJobsEveryRun } from '../seed-spread.js';
import { clearSeedsFolder, renderSeedMeans, seedFolder, writeSeedTables } from '../seed-tables.js';
import { renderSummary } from '../summary-table.js';
import { workloadWarnings } from '../workload-warnings.js';
import { flattenSummary } from '../sweep/metrics-table.js';

export const SIMULATE_HELP = `Usage: gridemu simulate SPEC [--out DIR] [--set path=value]... [--seeds N] [--summary-only]
                        [--network-from LIVE_DIR [--whole-delays]] [--lenient] [--quiet]

Runs the experiment file SPEC in the deterministic single-process simulator and writes
DIR/jobs.csv (one row per submitted job) and DIR/summary.json; with protocol_trace: true in SPEC,
also DIR/protocol-trace.csv (every protocol step of every job). The same SPEC and seed give a
byte-identical jobs.csv. What an earlier run wrote into DIR (a live run's logs and network.json
among it) is removed first, so that nothing there reads as this run's.

Options:
  --out DIR            where to write results (default: results/<name>)
  --set path=value     override a field of SPEC, e.g. --set network.latency_ms=10, or
                       --set sites[0].cpus=64
  --seeds N            run seeds S, S+1, ... S+N-1 (S: the spec's seed), each into DIR/seed-<s>/,
                       and write DIR/seeds.csv (a row per seed) and DIR/seeds.json (every metric's
                       mean with its 90% confidence interval, as paper 002 reports them)
  --network-from LIVE_DIR
                       replay the network a live run had (LIVE_DIR/network.json, written by gridemu
                       run), in emulated seconds at that run's speed-up: each message between
                       processes in two parts, as the run measured them: until it reached the
                       receiver's mailbox, drawn from its type's arrivals where the run's timeline
                       had them, then its wait there; kept in order for each job (not for every
                       message between two actors); a timer handled after what reached its mailbox
                       before it fired. Load reports between processes thinned by the run's bound
                       (live.report_interval_ms); its crashes and server restarts applied as they
                       happened there (network.json's crashes and outages) rather than as the spec
                       planned them. Then put the live run beside this one with
                       gridemu compare LIVE_DIR DIR. With --seeds N, the seeds vary the replay's
                       draws of the network only: the workload and every other draw stay those of
                       the run it replays. A network.json from before 2026-11-29 has no mailbox
                       split: it is replayed with whole delays, and a note says so. Give the
                       file and --set the run had: a note names each field the experiment differs
                       in from the run's (its summary.json's spec; name, faults and live aside)
  --whole-delays       with --network-from, draw each message's whole felt delay at once (hop, timer
                       lag and mailbox together) and keep every message between two actors in
                       order: the default replay before the mailbox split; in the six chaos
                       tables that compared the two it had as many rows within 10% of live or
                       fewer (docs/faults.md, "Chaos runs, measured against their replays")
  --summary-only       write summary.json alone, no jobs.csv nor protocol-trace.csv (what a sweep
                       with --summaries-only keeps; formatting a grid's every local job was a tenth
                       of a paper 002 run)
  --lenient            skip and count malformed trace lines instead of failing
  --quiet              print no summary table
  -h, --help           this help

Traces named by bare archive file name are looked up in GRIDEMU_TRACE_DIR.`;

export async function simulateCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('simulate', {
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      set: { type: 'string', multiple: true },
      lenient: { type: 'boolean' },
      quiet: { type: 'boolean' },
      seeds: { type: 'string' },
      'network-from': { type: 'string' },
      'whole-delays': { type: 'boolean' },
      'summary-only': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(SIMULATE_HELP);
    return EXIT_OK;
  }
  if (positionals.length !== 1) throw new UsageError(`simulate takes one experiment file\n\n${SIMULATE_HELP}`);
  const file = positionals[0]!;
  const sets = values.set ?? [];
  const seeds = values.seeds === undefined ? undefined : Number(values.seeds);
  if (seeds !== undefined && !(Number.isInteger(seeds) && seeds >= 1))
    throw new UsageError(`--seeds must be a positive integer (got "${values.seeds}")`);
  const experiment = loadExperiment(file, parseOverrides(sets));
  const loaded = experiment.spec;
  const out = resolve(values.out ?? `results/${loaded.name}`);
  if (values['whole-delays'] === true && values['network-from'] === undefined)
    throw new UsageError('--whole-delays replays a live run: give it with --network-from LIVE_DIR');
  if (values['network-from'] !== undefined && resolve(values['network-from']) === out)
    throw new UsageError(
      `--out ${out} is the live run --network-from replays: its results would be replaced by the replay's (give another --out)`,
    );
  const measured =
    values['network-from'] === undefined
      ? undefined
      : readMeasuredNetwork(values['network-from'], values['whole-delays'] === true);
  if (measured) {
    // Compared as summary.json holds it: JSON, overrides applied.
    const note = replayedSpecNote(values['network-from']!, JSON.parse(JSON.stringify(loaded)));
    if (note !== undefined) console.error(`gridemu: note: ${note}`);
  }
  // A replay of a live run applies its crashes and server restarts as they happened there.
  const spec = measured ? withAppliedFaults(loaded, measured.network) : loaded;
  const output = {
    lenient: values.lenient === true,
    summaryOnly: values['summary-only'] === true,
    locateIssues: experiment.locate,
  };
  if (seeds === undefined) {
    const summary = await simulateOnce(spec, file, sets, output, out, measured);
    if (!summary) return EXIT_FAILED;
    for (const w of workloadWarnings(summary.workload)) console.error(`gridemu: ${w}`);
    if (!values.quiet) {
      process.stdout.write(renderSummary(summary));
      const files = output.summaryOnly
        ? ['summary.json']
        : ['jobs.csv', 'summary.json', ...(spec.protocol_trace === true ? ['protocol-trace.csv'] : [])];
      console.log(`\nwrote ${files.map((f) => join(out, f)).join('\n      ')}`);
    }
    return EXIT_OK;
  }
  clearSeedsFolder(out);
  const rows: Record<string, number>[] = [];
  const digests: (string | undefined)[] = [];
  for (let k = 0; k < seeds; k++) {
    const seed = spec.seed + k;
    // A replay varies its network draws only: the live run it replays had the spec's seed.
    const summary = measured
      ? await simulateOnce(spec, file, sets, output, seedFolder(out, seed), {
          ...measured,
          networkSeed: seed,
        })
      : await simulateOnce({ ...spec, seed }, file, [...sets, `seed=${seed}`], output, seedFolder(out, seed));
    if (!summary) return EXIT_FAILED;
    digests.push(summary.jobs_sha256);
    // Every seed reads the same traces: their skipped lines are said once.
    if (k === 0) for (const w of workloadWarnings(summary.workload)) console.error(`gridemu: ${w}`);
    rows.push({ seed, ...flattenSummary(summary) });
    if (!values.quiet) console.log(`seed ${seed}: done (${k + 1}/${seeds})`);
  }
  const written = writeSeedTables(out, rows, sameJobsEveryRun(digests));
  if (!values.quiet)
    process.stdout.write(renderSeedMeans(written, spec.meta.scheme, { replay: measured !== undefined }));
  return EXIT_OK;
}

/** How simulateOnce reads its input and what it writes. */
interface SimulateOutput {
  readonly lenient: boolean;
  readonly summaryOnly: boolean;
  /** The experiment file's LoadedSpec.locate: a fault time the workload refuses is named by its line. */
  readonly locateIssues: LoadedSpec['locate'];
}

/**
 * One run: simulate, then DIR/jobs.csv and DIR/summary.json (summary.json alone with
 * `summaryOnly`); its summary, or undefined (after saying why) if an actor broke an invariant.
 */
async function simulateOnce(
  spec: ExperimentSpec,
  file: string,
  sets: readonly string[],
  { lenient, summaryOnly, locateIssues }: SimulateOutput,
  out: string,
  measured?: { source: string; network: MeasuredNetwork; networkSeed?: number },
): Promise<RunSummary | undefined> {
  const started = Date.now();
  const workload = await loadExperimentWorkload(spec, { specFile: file, lenient, locateIssues });
  // Made once the input has been read: a bad trace leaves no empty results folder behind.
  makeOutputFolder(out, '--out');
  clearRunOutputs(out);
  const bar = new ProgressBar(`simulate ${spec.name}`);
  let result;
  try {
    result = simulate(spec, workload.jobs, {
      ...(measured
        ? {
            measured: measured.network,
            ...(measured.networkSeed !== undefined ? { networkSeed: measured.networkSeed } : {}),
          }
        : {}),
      onProgress: (p) => bar.update(p.finished, p.total, `t=${Math.round(p.now_s)}s`),
    });
  } catch (err) {
    bar.done();
    if (!(err instanceof SimulationError || err instanceof StalledRunError)) throw err;
    // A broken invariant, or a run that would never end: say where, and how to get back to the
    // same instant (STYLE.md 7).
    const again = [...sets.filter((x) => !x.startsWith('seed=')), `seed=${spec.seed}`];
    console.error(
      `gridemu: ${err.message}\nreproduce with: gridemu simulate ${file} ${again.map((x) => `--set '${x}'`).join(' ')}`,
    );
    return undefined;
  }
  bar.done();
  const summary = buildRunSummary({
    spec,
    mode: 'simulate',
    records: result.records,
    execSites: result.execSites,
    messages: result.messages,
    counters: result.counters,
    workload: workload.sources,
    jobs_sha256: jobsSha256(workload.jobs),
    wall_s: (Date.now() - started) / 1000,
    provenance: runProvenance(),
    ...schemeSummaryInput(spec, result.counters, result.records),
  });
  // What was replayed, so the results say which network they assumed.
  const withNetwork = measured
    ? {
        ...summary,
        network_from: {
          dir: measured.source,
          ...(measured.networkSeed !== undefined ? { network_seed: measured.networkSeed } : {}),
          delays: measured.network.file.mailbox ? 'arrival, then mailbox wait' : 'whole felt delay',
          ...measured.network.describe(),
        },
      }
    : summary;
  if (summaryOnly) {
    writeSummary(out, withNetwork);
    return withNetwork;
  }
  writeResults(out, result.records, withNetwork);
  if (spec.protocol_trace === true) writeProtocolTrace(out, result.trace);
  return withNetwork;
}

/**
 * The spec with the faults its live run applied, as network.json recorded them: each crash from the
 * process's death to its catching up (start-up and replay included), and each server restart from
 * the first process cut off from the bus to the last one back. A network.json from before outages
 * were recorded leaves the spec's restarts as they are.
 */
function withAppliedFaults(spec: ExperimentSpec, network: MeasuredNetwork): ExperimentSpec {
  const span = (from_s: number, to_s: number) => ({ at_s: from_s, down_s: Math.max(to_s - from_s, 1e-6) });
  const crash = network.crashes.map((c) => ({ process: c.process, ...span(c.from_s, c.to_s) }));
  const nats_restart =
    network.outages.length > 0 ? network.outages.map((o) => span(o.from_s, o.to_s)) : spec.faults.nats_restart;
  return { ...spec, faults: { ...spec.faults, crash, nats_restart } };
}

/**
 * LIVE_DIR/network.json, or a one-line reason why it cannot be used; replayed with its mailbox
 * split unless asked for whole delays (`wholeDelays`) or the file is from before the split.
 */
function readMeasuredNetwork(dir: string, wholeDelays: boolean): { source: string; network: MeasuredNetwork } {
  const path = join(resolve(dir), 'network.json');
  if (!existsSync(path))
    throw new UsageError(`--network-from: ${path} not found; it takes the results folder of a gridemu run`);
  let network: MeasuredNetwork;
  try {
    network = MeasuredNetwork.parse(readFileSync(path, 'utf8'), path);
  } catch (e) {
    throw new UsageError(`--network-from: ${(e as Error).message}`);
  }
  const aborted = abortedRunOf(dir);
  if (aborted !== undefined)
    console.error(
      `gridemu: note: ${dir} is a run that was aborted (${aborted}): its delays were measured over part of the run, which the replay runs whole; compare the two over the jobs both finished only`,
    );
  if (!wholeDelays && !network.file.mailbox)
    console.error(
      `gridemu: note: ${path} has no mailbox split (a run from before 2026-11-29): replaying each message's whole felt delay, as --whole-delays does`,
    );
  return { source: resolve(dir), network: wholeDelays ? network.withoutMailboxes() : network };
}
