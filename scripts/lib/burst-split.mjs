import { readFileSync } from 'node:fs';
import { boundedSlowdown, splitCsvLine } from '@gridemu/metrics';

/**
 * A run's mean bounded slowdown split at a submission time, from its jobs.csv: over the jobs
 * submitted before `until_s` (the start's burst, in the chaos table) and over the rest; null for a
 * side with no finished job. A job not finished (no waiting or execution time) is left out.
 */
export function burstSplit(jobsCsv, until_s) {
  const [header, ...lines] = readFileSync(jobsCsv, 'utf8').trim().split('\n');
  const columns = splitCsvLine(header);
  const at = (name) => {
    const i = columns.indexOf(name);
    if (i < 0) throw new Error(`${jobsCsv}:1: no ${name} column`);
    return i;
  };
  const [submit, wait, run] = ['submission_time', 'waiting_time', 'execution_time'].map(at);
  const sums = { burst: [0, 0], later: [0, 0] };
  for (const line of lines) {
    const f = splitCsvLine(line);
    const [w, r] = [Number(f[wait]), Number(f[run])];
    if (f[wait] === '' || f[run] === '' || !Number.isFinite(w) || !Number.isFinite(r)) continue;
    const side = sums[Number(f[submit]) < until_s ? 'burst' : 'later'];
    side[0] += boundedSlowdown(w + r, r);
    side[1]++;
  }
  const mean = ([sum, n]) => (n > 0 ? sum / n : null);
  return { burst: mean(sums.burst), later: mean(sums.later) };
}
