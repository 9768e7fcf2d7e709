import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { JsonFormatError, parseJsonText } from './json-input.js';
import type { SwfRecord } from './swf-record.js';

/**
 * Batsim's workload JSON (`nb_res`; `jobs`, each with `id`, `subtime`, `res`, `walltime` and
 * `profile`; `profiles` by name), read so that a workload written for Batsim runs here unchanged.
 * A job's run time is its profile's: `delay` profiles give it directly; other profile types model
 * computation and communication that gridemu does not, and are refused by name. `walltime` is the
 * requested time (absent or -1: unknown). Ids must be whole numbers (or strings of digits): they
 * become the job's number, as in SWF. A gzipped file is read as well.
 */
export async function readBatsimWorkload(file: string): Promise<{ records: SwfRecord[]; nb_res?: number }> {
  const bytes = await readFile(file);
  const text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
  const doc = parseJsonText(text, file);
  const fail = (where: string, reason: string): never => {
    throw new JsonFormatError(file, where, reason);
  };
  if (!isObject(doc)) return fail('(top level)', 'must be an object with jobs and profiles');
  const jobs = doc['jobs'];
  if (!Array.isArray(jobs)) return fail('jobs', 'must be a list of jobs');
  const profiles = doc['profiles'];
  if (!isObject(profiles)) return fail('profiles', 'must be an object of profiles by name');
  const nb_res = doc['nb_res'];
  if (nb_res !== undefined && !(typeof nb_res === 'number' && Number.isInteger(nb_res) && nb_res > 0))
    fail('nb_res', 'must be a positive whole number');
  const seen = new Set<number>();
  const records = jobs.map((j: unknown, i: number): SwfRecord => {
    const at = `jobs[${i}]`;
    if (!isObject(j)) return fail(at, 'must be an object');
    const idRaw = j['id'];
    const id =
      typeof idRaw === 'number' ? idRaw : typeof idRaw === 'string' && /^\d+$/.test(idRaw) ? Number(idRaw) : NaN;
    if (!Number.isInteger(id) || id < 0)
      fail(`${at}.id`, `must be a whole number or a string of digits, got ${JSON.stringify(idRaw)}`);
    if (seen.has(id)) fail(`${at}.id`, `id ${id} appears twice`);
    seen.add(id);
    const number = (key: string, required: boolean): number => {
      const v = j[key];
      if (v === undefined && !required) return -1;
      if (typeof v !== 'number' || !Number.isFinite(v))
        return fail(`${at}.${key}`, `must be a number, got ${JSON.stringify(v)}`);
      return v;
    };
    const subtime = number('subtime', true);
    if (subtime < 0) fail(`${at}.subtime`, 'must not be negative');
    const res = number('res', true);
    if (!Number.isInteger(res) || res < 1) fail(`${at}.res`, 'must be a positive whole number');
    const walltime = number('walltime', false);
    const name = j['profile'];
    if (typeof name !== 'string') return fail(`${at}.profile`, 'must name a profile');
    const profile = profiles[name];
    if (!isObject(profile)) return fail(`${at}.profile`, `no profile "${name}" in profiles`);
    if (profile['type'] !== 'delay')
      fail(`profiles.${name}.type`, `"${String(profile['type'])}" gives no run time; gridemu runs delay profiles only`);
    const delay = profile['delay'];
    if (typeof delay !== 'number' || !Number.isFinite(delay) || delay < 0)
      fail(`profiles.${name}.delay`, `must be a non-negative number, got ${JSON.stringify(delay)}`);
    return {
      jobNumber: id,
      submit: subtime,
      wait: -1,
      run: delay as number,
      allocatedProcs: res,
      avgCpu: -1,
      usedMemory: -1,
      requestedProcs: res,
      requestedTime: walltime > 0 ? walltime : -1,
      requestedMemory: -1,
      status: -1,
      user: -1,
      group: -1,
      executable: -1,
      queue: -1,
      partition: -1,
      precedingJob: -1,
      thinkTime: -1,
      line: i + 1,
    };
  });
  // Batsim replays jobs by submit time; ties keep the file's order (sort is stable).
  records.sort((a, b) => a.submit - b.submit);
  return { records, ...(typeof nb_res === 'number' ? { nb_res } : {}) };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
