import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { InputError, namesStartingWith } from '@gridemu/model';
import { archiveLogsLike } from './archive-logs.js';
import { isArchiveLogName } from './trace-fetch.js';

/** Where bare trace names are looked up: GRIDEMU_TRACE_DIR, else a per-user cache folder. */
export function traceDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env['GRIDEMU_TRACE_DIR'];
  if (configured) return resolve(configured);
  const cache = env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
  return join(cache, 'gridemu', 'traces');
}

export class TraceNotFoundError extends InputError {
  constructor(
    readonly trace: string,
    readonly lookedIn: readonly string[],
    readonly bareName: boolean,
    /** Files in the folders looked in whose names begin as the trace's does: what it likely meant. */
    readonly similar: readonly string[] = [],
  ) {
    // The same log, compressed or not: nothing to download, only the name to change.
    const sameLog = similar.find((s) => s === `${trace}.gz` || `${s}.gz` === trace);
    super(
      `trace "${trace}" not found; looked for:\n` +
        lookedIn.map((p) => `  ${p}`).join('\n') +
        (similar.length === 0 ? '' : `\nFound there with a name like it: ${similar.join(', ')}`) +
        (sameLog !== undefined
          ? `\nName it ${sameLog}: that is the same log${sameLog.endsWith('.gz') ? ', compressed (gridemu reads a .gz trace as it is)' : ', not compressed'}.`
          : !bareName
            ? ''
            : isArchiveLogName(trace)
              ? `\nDownload it into the trace directory with:  gridemu trace fetch ${trace}\n` +
                `or point GRIDEMU_TRACE_DIR at a folder that has it.`
              : `\nIt is not a Parallel Workloads Archive log, which is all gridemu trace fetch downloads:\n` +
                `copy it into the trace directory (${dirname(lookedIn[lookedIn.length - 1]!)}) or point GRIDEMU_TRACE_DIR at a folder that has it.` +
                archiveLogsNote(trace)),
    );
    this.name = 'TraceNotFoundError';
  }
}

/** For a shortened archive name (`SDSC-BLUE.swf.gz`): the archive's logs it likely meant. */
function archiveLogsNote(trace: string): string {
  const like = archiveLogsLike(trace.split('.')[0]!);
  if (like.length === 0) return '';
  return (
    `\nThe archive's logs named like it: ${like.join(', ')}; download one with gridemu trace fetch NAME, ` +
    `then name it in full.`
  );
}

/**
 * Resolves a trace as the experiment file names it: an absolute path; a path relative to the
 * experiment file; or a bare archive file name, looked up beside the experiment file and then in
 * the trace directory.
 */
export function resolveTrace(
  trace: string,
  specFile: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (isAbsolute(trace)) {
    if (existsSync(trace)) return trace;
    throw new TraceNotFoundError(trace, [trace], false);
  }
  const base = specFile ? dirname(resolve(specFile)) : process.cwd();
  const relative = resolve(base, trace);
  const bare = !trace.includes('/') && !trace.includes('\\');
  const candidates = bare ? [relative, join(traceDirectory(env), trace)] : [relative];
  for (const c of candidates) if (existsSync(c)) return c;
  throw new TraceNotFoundError(trace, candidates, bare, bare ? namesLike(trace, candidates.map(dirname)) : []);
}

/**
 * Names in `folders` that begin with the trace's name up to its first dot, whatever the case
 * (`KTH-SP2.swf.gz` or `kth-sp2` finds `KTH-SP2-1996-2.1-cln.swf.gz`). Experiment files, which sit
 * beside the one naming the trace, are not traces. A folder that cannot be read is passed over.
 */
function namesLike(trace: string, folders: readonly string[]): string[] {
  const candidates = new Set<string>();
  for (const folder of new Set(folders)) {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      continue;
    }
    for (const name of names) if (name !== trace && !/\.ya?ml$/i.test(name)) candidates.add(name);
  }
  return namesStartingWith(trace.split('.')[0]!, [...candidates].sort());
}
