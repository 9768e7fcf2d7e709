import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { closestName, didYouMean } from '@gridemu/model';
import { parseCommandArgs } from '../command-args.js';
import {
  archiveUrl,
  fetchTrace,
  PWA_BASE_URL,
  resolveTrace,
  traceDirectory,
  traceInfo,
  type FetchResult,
  type TraceFormat,
  type TraceInfo,
} from '@gridemu/workload';
import { DEFAULT_GUARD_SHARE } from '@gridemu/live';
import { formatDuration } from '../live/run-length.js';
import { EXIT_OK, UsageError } from '../exit-codes.js';
import { makeOutputFolder } from '../output-folder.js';
import { ProgressBar } from '../progress.js';

export const TRACE_HELP = `Usage: gridemu trace info FILE [--skip N] [--jobs N] [--speedup S] [--format F] [--json]
                       [--lenient]
       gridemu trace fetch NAME [--dir DIR] [--base-url URL] [--force]

info   jobs, time span, processors, offered load and median run of a trace: SWF (.swf, .swf.gz),
       GWF (.gwf) or Batsim's workload JSON (.json), by its name or --format swf|gwf|batsim, as a
       workload source's swf:, gwf: or batsim: reads it. FILE may be a path or a bare archive
       name found in the trace directory.
       --skip and --jobs describe the slice a workload source of the same skip and jobs reads;
       --speedup S says how long its submissions last live at S, and what one hop and a timer's
       lag may take before gridemu run's fidelity guard warns of the median run.
fetch  downloads NAME (e.g. KTH-SP2-1996-2.1-cln.swf.gz) from the Parallel Workloads Archive
       into the trace directory (GRIDEMU_TRACE_DIR, default ~/.cache/gridemu/traces) and checks
       that it reads as SWF. --base-url (or GRIDEMU_PWA_URL) points at a mirror. A trace already
       there is left as it is; --force downloads it again.`;

const FORMAT_NAMES: Record<TraceFormat, string> = {
  swf: 'SWF',
  gwf: 'GWF',
  batsim: 'Batsim JSON',
};

/** --format, or the file's name: .gwf is GWF, .json Batsim's workload JSON (either may end in .gz). */
function traceFormat(given: string | undefined, file: string): TraceFormat {
  if (given !== undefined) {
    if (given === 'swf' || given === 'gwf' || given === 'batsim') return given;
    throw new UsageError(
      `--format must be swf, gwf or batsim, got "${given}"${didYouMean(closestName(given, ['swf', 'gwf', 'batsim']))}`,
    );
  }
  if (/\.gwf(\.gz)?$/i.test(file)) return 'gwf';
  if (/\.json(\.gz)?$/i.test(file)) return 'batsim';
  return 'swf';
}

export async function traceCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '-h' || sub === '--help') {
    console.log(TRACE_HELP);
    return sub === undefined ? 2 : EXIT_OK;
  }
  if (sub !== 'info' && sub !== 'fetch') {
    throw new UsageError(
      `unknown trace command "${sub}"${didYouMean(closestName(sub, ['info', 'fetch']))}\n\n${TRACE_HELP}`,
    );
  }
  const { values, positionals } = parseCommandArgs('trace', {
    args: rest,
    allowPositionals: true,
    options: {
      json: { type: 'boolean' },
      lenient: { type: 'boolean' },
      skip: { type: 'string' },
      format: { type: 'string' },
      jobs: { type: 'string' },
      speedup: { type: 'string' },
      dir: { type: 'string' },
      'base-url': { type: 'string' },
      force: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(TRACE_HELP);
    return EXIT_OK;
  }
  if (positionals.length !== 1) throw new UsageError(`trace ${sub} takes one argument\n\n${TRACE_HELP}`);
  const arg = positionals[0]!;
  switch (sub) {
    case 'info': {
      const count = (name: 'skip' | 'jobs', least: number) => {
        const given = values[name];
        if (given === undefined) return undefined;
        const n = Number(given);
        if (!Number.isInteger(n) || n < least)
          throw new UsageError(`--${name} must be an integer of ${least} or more, got "${given}"`);
        return n;
      };
      const skip = count('skip', 0);
      const jobs = count('jobs', 1);
      const speedup = values.speedup === undefined ? undefined : Number(values.speedup);
      if (speedup !== undefined && !(speedup > 0))
        throw new UsageError(`--speedup must be a positive number, got "${values.speedup}"`);
      const file = resolveTrace(arg, undefined);
      const format = traceFormat(values.format, file);
      if (format === 'batsim' && values.lenient)
        throw new UsageError('--lenient applies only to line-based traces (swf, gwf), not to Batsim JSON');
      const info = await traceInfo(
        file,
        values.lenient === true,
        {
          ...(skip !== undefined ? { skip } : {}),
          ...(jobs !== undefined ? { jobs } : {}),
        },
        format,
      );
      if (info.records === 0) throw new UsageError(`${info.file}: no jobs after skipping ${info.slice.skip}`);
      const live = speedup === undefined ? undefined : liveBudget(info, speedup);
      if (values.json) {
        console.log(JSON.stringify(live ? { ...info, live } : info, null, 2));
        return EXIT_OK;
      }
      const days = info.span_s / 86400;
      const { skip: skipped, jobs: asked } = info.slice;
      const short = asked !== undefined && info.records < asked;
      const where =
        skipped > 0 ? `after skipping ${skipped}` : short ? 'the whole trace' : `the trace's first ${asked}`;
      const sliced =
        skipped > 0 || asked !== undefined
          ? ` (${where}${short ? `; fewer than the ${asked} asked for, which a workload source would refuse` : ''})`
          : '';
      console.log(
        [
          `file            ${info.file} (${FORMAT_NAMES[info.format]})`,
          `jobs            ${info.records}${sliced}`,
          `span            ${info.span_s} s (${days.toFixed(1)} days), submits ${info.firstSubmit_s} .. ${info.lastSubmit_s}`,
          `processors      ${info.machineProcs} (${info.machineProcsFrom === 'widest job' ? "the widest job's: the file does not give the machine's size" : `widest job ${info.maxProcsUsed}`})`,
          info.offeredLoad === null
            ? `offered load    undefined: every submission at one time (a span of 0 s)`
            : `offered load    ${(info.offeredLoad * 100).toFixed(1)}% of the machine over the span`,
          `median run      ${info.medianRun_s} s`,
          ...(live
            ? [
                `live wall time  ${formatDuration(live.submissions_wall_s)} for the submissions at speed-up ${live.speedup}`,
                `guard budget    ${live.guard_ms.toFixed(1)} wall ms for one hop or a timer's lag: ` +
                  `${(DEFAULT_GUARD_SHARE * 100).toFixed(0)}% of the median run at speed-up ${live.speedup}`,
              ]
            : []),
          `anomalies       run<=0: ${info.anomalies.runtimeNotPositive}, no requested time: ${info.anomalies.requestedTimeMissing}, ` +
            `run>requested: ${info.anomalies.runtimeOverRequested}, processors unknown: ${info.anomalies.processorsUnknown}`,
          ...(info.malformedLines > 0 ? [`malformed lines ${info.malformedLines} (skipped)`] : []),
        ].join('\n'),
      );
      return EXIT_OK;
    }
    case 'fetch': {
      const dir = values.dir ?? traceDirectory();
      const base = values['base-url'] ?? process.env['GRIDEMU_PWA_URL'] ?? PWA_BASE_URL;
      // Checked before anything is said: a name the archive cannot hold is bad input (exit 2), and
      // so is a folder that cannot be made.
      const url = archiveUrl(arg, base);
      makeOutputFolder(dir, values.dir !== undefined ? '--dir' : 'the trace folder');
      // A trace there came from an earlier fetch, which installs only what read as SWF to its
      // last line, or was put there by hand: either way it is not replaced unasked.
      const there = join(dir, arg);
      if (existsSync(there) && values.force !== true) {
        console.log(`${there}: already there, left as it is (--force downloads it again)`);
        return EXIT_OK;
      }
      console.error(`fetching ${url} into ${dir} ...`);
      // A large log (MetaCentrum's is 58 MB) takes a while: a bar on a terminal, a line every 10 s
      // in a log.
      const bar = new ProgressBar(`fetching ${arg}`, process.stderr, Boolean(process.stderr.isTTY), 10_000);
      let r: FetchResult;
      try {
        r = await fetchTrace(arg, dir, base, (bytes, total) => {
          if (total !== undefined) bar.update(Math.round(bytes / 1024), Math.round(total / 1024), 'kB');
        });
      } finally {
        // Cleared on a failure too, so that the error starts a line of its own.
        bar.done();
      }
      console.log(`${r.path}: ${r.records} jobs, ${r.bytes} bytes from ${r.url}`);
      return EXIT_OK;
    }
  }
}

/**
 * What a live run of the slice at `speedup` gives: how long its submissions last in wall time,
 * and the wall milliseconds a hop or a timer's lag may take before the fidelity guard's share of
 * the median run is spent (the scheme's own timeouts and periods may be shorter still).
 */
function liveBudget(info: TraceInfo, speedup: number) {
  return {
    speedup,
    submissions_wall_s: info.span_s / speedup,
    guard_ms: (DEFAULT_GUARD_SHARE * info.medianRun_s * 1000) / speedup,
  };
}
