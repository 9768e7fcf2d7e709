import { createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InputError, UnavailableError } from '@gridemu/model';
import { archiveLogFolder, archiveLogsHint } from './archive-logs.js';
import { readSwf } from './swf-reader.js';

export const PWA_BASE_URL = 'https://www.cs.huji.ac.il/labs/parallel/workload';

/** An archive log's name: its machine, then the year it starts (KTH-SP2-1996-2.1-cln.swf.gz). */
const ARCHIVE_LOG_NAME = /^(.+?)-((?:19|20)\d\d)(?:-|\.|$)/;

/** Whether `gridemu trace fetch` can download `name` (a Parallel Workloads Archive log). */
export function isArchiveLogName(name: string): boolean {
  return ARCHIVE_LOG_NAME.test(name);
}

/**
 * The archive keeps each log under `l_<machine>/`: KTH-SP2-1996-2.1-cln.swf.gz lives in
 * l_kth_sp2, SDSC-BLUE-2000-4.2-cln.swf.gz in l_sdsc_blue, LCG-2005-1.swf.gz in l_lcg; the few
 * logs that break this rule (OSC-Clust in l_osc) are listed in archive-logs.ts.
 */
export function archiveFolder(name: string): string {
  const m = ARCHIVE_LOG_NAME.exec(name);
  if (!m)
    throw new InputError(
      `"${name}" does not look like a Parallel Workloads Archive log name (e.g. KTH-SP2-1996-2.1-cln.swf.gz)` +
        (archiveLogsHint(name) ||
          ': gridemu trace fetch downloads only those; copy any other trace into the trace directory'),
    );
  return archiveLogFolder(m[1]!, m[2]!);
}

/**
 * Where the archive serves `name`, checked first: a path or a name that is no archive log is bad
 * input (exit 2), told before anything is said to be fetched.
 */
export function archiveUrl(name: string, baseUrl = PWA_BASE_URL): string {
  if (name.includes('/') || name.includes('\\'))
    throw new InputError(`give a bare archive file name, not a path: ${name}`);
  return `${baseUrl.replace(/\/$/, '')}/${archiveFolder(name)}/${name}`;
}

export interface FetchResult {
  readonly path: string;
  readonly url: string;
  readonly bytes: number;
  readonly records: number;
}

/** How far a download has come: bytes so far, and the size the server gave (undefined if none). */
export type FetchProgress = (bytes: number, total: number | undefined) => void;

/**
 * Downloads a trace from the archive into `dir`, checks that it reads as SWF to the last line,
 * and only then moves it into place, so a broken download never poses as a trace.
 */
export async function fetchTrace(
  name: string,
  dir: string,
  baseUrl = PWA_BASE_URL,
  onProgress?: FetchProgress,
): Promise<FetchResult> {
  const url = archiveUrl(name, baseUrl);
  mkdirSync(dir, { recursive: true });
  const target = join(dir, name);
  const partial = `${target}.part-${process.pid}`;
  // What to do when the archive cannot be had from here.
  const otherwise = `a mirror: --base-url or GRIDEMU_PWA_URL; or copy the file into ${dir}`;
  try {
    let res: Response;
    try {
      res = await fetch(url);
    } catch (err) {
      // fetch says only "fetch failed"; why (refused, no such host, a reset) is its cause.
      const why = ((err as Error).cause as Error | undefined)?.message ?? (err as Error).message;
      throw new UnavailableError(`cannot download ${url}: ${why} (${otherwise})`, { cause: err });
    }
    // A name the archive does not have is most often a shortened or mistyped one: say which it has.
    if (res.status === 404)
      throw new UnavailableError(
        `cannot download ${url}: HTTP 404 ${res.statusText}${archiveLogsHint(name)} (${otherwise})`,
      );
    if (!res.ok || !res.body)
      throw new UnavailableError(`cannot download ${url}: HTTP ${res.status} ${res.statusText} (${otherwise})`);
    let bytes = 0;
    const body = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
    const length = Number(res.headers.get('content-length'));
    const total = Number.isFinite(length) && length > 0 ? length : undefined;
    body.on('data', (c: Buffer) => {
      bytes += c.length;
      onProgress?.(bytes, total);
    });
    await pipeline(body, createWriteStream(partial));
    let records = 0;
    for await (const _ of readSwf(partial)) records++;
    if (records === 0) throw new Error(`${url} holds no SWF job records`);
    renameSync(partial, target);
    return { path: target, url, bytes, records };
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
}
