import { closestName, didYouMean } from '@gridemu/model';
import { EXIT_BAD_INPUT, EXIT_OK, UsageError } from './exit-codes.js';
import { reportFailure } from './exit-status.js';

const HELP = `gridemu: emulate and simulate multi-site grid scheduling

Usage: gridemu <command> [options]

Commands:
  run SPEC          run live: a process per site over NATS, real latency, compressed time
  simulate SPEC     run in the deterministic simulator; write jobs.csv and summary.json
  sweep SPEC        simulate every combination of --vary values in parallel (--live: run each over
                    NATS, one at a time); one table and a chart
  compare A B       metric and per-job start differences of two results folders, or the means and
                    t-tests of two folders of seeds; --tolerance fails past a limit
  check DIR         check a results folder against the invariants: one row per job, none run twice,
                    no site over capacity, none lost; exit 1 if any is broken
  report DIR        one self-contained HTML file of charts for a results folder or a sweep folder
  fuzz              random small experiments in the simulator, checked against the invariants
  delay-proxy SPEC  one location's delay proxy as a process of its own (a sidecar in compose or k8s)
  credentials SPEC  NATS users and permissions for a compose or Kubernetes deployment of a run
  validate SPEC     check an experiment file and the traces it reads; print it with defaults
  trace info FILE   jobs, span, processors and offered load of a trace (SWF, GWF, Batsim JSON)
  trace fetch NAME  download a trace from the Parallel Workloads Archive

Run "gridemu <command> --help" for a command's options.

Usage of the main one: gridemu simulate SPEC [--out DIR] [--set path=value]... [--lenient] [--quiet]`;

/** Runs one gridemu command line and returns its exit code; a failure is reported, never thrown. */
export async function runCli(argv: string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (err) {
    return reportFailure(err);
  }
}

async function dispatch(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      console.log(HELP);
      return command === undefined ? EXIT_BAD_INPUT : EXIT_OK;
    // Each command is loaded when asked for, so `simulate` never loads NATS, pino or prom-client.
    case 'simulate':
      return (await import('./commands/simulate.js')).simulateCommand(rest);
    case 'run':
      return (await import('./commands/run.js')).runCommand(rest);
    case 'sweep':
      return (await import('./commands/sweep.js')).sweepCommand(rest);
    case 'compare':
      return (await import('./commands/compare.js')).compareCommand(rest);
    case 'fuzz':
      return (await import('./commands/fuzz.js')).fuzzCommand(rest);
    case 'check':
      return (await import('./commands/check.js')).checkCommand(rest);
    case 'report':
      return (await import('./commands/report.js')).reportCommand(rest);
    case 'delay-proxy':
      return (await import('./commands/delay-proxy.js')).delayProxyCommand(rest);
    case 'credentials':
      return (await import('./commands/credentials.js')).credentialsCommand(rest);
    case 'validate':
      return (await import('./commands/validate.js')).validateCommand(rest);
    case 'trace':
      return (await import('./commands/trace.js')).traceCommand(rest);
    default:
      throw new UsageError(`unknown command "${command}"${commandMeant(command)}\n\n${HELP}`);
  }
}

/** The command a mistyped one most likely meant, from those the help lists. */
function commandMeant(typed: string): string {
  const commands = [...HELP.matchAll(/^ {2}([a-z-]+) /gm)].map((m) => m[1]!);
  return didYouMean(closestName(typed, commands));
}
