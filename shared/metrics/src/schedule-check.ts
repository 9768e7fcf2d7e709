import { readCsvTable, type CsvTable } from './csv-table.js';
import { JOBS_CSV_COLUMNS } from './jobs-csv.js';

/** One executed job as jobs.csv has it: where, when, on which processor ids. */
export interface ExecutedJob {
  readonly jobId: string;
  readonly site: string;
  readonly procs: number;
  readonly start_s: number;
  readonly finish_s: number;
  /** Processor ids in Batsim's interval-set notation ("0-3 8"). */
  readonly resources: string;
}

export interface CapacityViolation {
  readonly site: string;
  readonly cpus: number;
  readonly busy: number;
  readonly at_s: number;
  /** The jobs running at that instant. */
  readonly jobs: readonly string[];
}

export interface ProcessorOverlap {
  readonly site: string;
  readonly processor: number;
  readonly jobs: readonly [string, string];
  readonly from_s: number;
  readonly to_s: number;
}

/** The verdict on a run's schedule as recorded in jobs.csv: can it have happened? */
export interface ScheduleCheck {
  readonly ok: boolean;
  readonly jobs_checked: number;
  /** The worst instant of each site that went over its CPU count. */
  readonly over_capacity: readonly CapacityViolation[];
  /** Two jobs on one processor id at once (the first MAX_LISTED). */
  readonly processor_overlaps: readonly ProcessorOverlap[];
  readonly processor_overlaps_total: number;
  /** Rows whose times or processor ids cannot be right: an end before the start, ids not matching the request, ids outside the site. */
  readonly malformed: readonly string[];
}

const MAX_LISTED = 20;

/**
 * Checks that a schedule is physically possible: no site ever runs more processors than it has, no
 * processor id holds two jobs at once, and each job holds as many ids as it asked for. A job's
 * interval is [start, finish): one ending at t and another starting at t on the same ids is fine.
 */
export function checkSchedule(jobs: readonly ExecutedJob[], cpus: ReadonlyMap<string, number>): ScheduleCheck {
  const over: CapacityViolation[] = [];
  const overlaps: ProcessorOverlap[] = [];
  let overlapsTotal = 0;
  const malformed: string[] = [];
  const bySite = new Map<string, ExecutedJob[]>();
  for (const j of jobs) {
    const list = bySite.get(j.site) ?? [];
    if (list.length === 0) bySite.set(j.site, list);
    list.push(j);
  }
  for (const [site, list] of [...bySite].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const capacity = cpus.get(site);
    const perProcessor = new Map<number, ExecutedJob[]>();
    for (const j of list) {
      const ids = parseIntervalSet(j.resources);
      const problem =
        ids === undefined
          ? `processor ids "${j.resources}" are not an interval set`
          : j.finish_s < j.start_s
            ? `finishes (${j.finish_s}) before it starts (${j.start_s})`
            : ids.length !== j.procs
              ? `holds ${ids.length} processor ids but asked for ${j.procs}`
              : capacity !== undefined && ids.some((id) => id < 0 || id >= capacity)
                ? `holds a processor id outside ${site}'s 0-${capacity - 1}`
                : undefined;
      if (problem !== undefined) {
        malformed.push(`${j.jobId} at ${site}: ${problem}`);
        continue;
      }
      for (const id of ids!) {
        const held = perProcessor.get(id) ?? [];
        if (held.length === 0) perProcessor.set(id, held);
        held.push(j);
      }
    }
    for (const [processor, held] of [...perProcessor].sort(([a], [b]) => a - b)) {
      held.sort((a, b) => a.start_s - b.start_s || a.finish_s - b.finish_s);
      for (let i = 1; i < held.length; i++) {
        const prev = held[i - 1]!;
        const next = held[i]!;
        if (next.start_s >= prev.finish_s || next.start_s === next.finish_s || prev.start_s === prev.finish_s) continue;
        overlapsTotal++;
        if (overlaps.length < MAX_LISTED) {
          overlaps.push({
            site,
            processor,
            jobs: [prev.jobId, next.jobId],
            from_s: next.start_s,
            to_s: Math.min(prev.finish_s, next.finish_s),
          });
        }
      }
    }
    if (capacity !== undefined) {
      const worst = peakUse(list);
      if (worst && worst.busy > capacity) over.push({ site, cpus: capacity, ...worst });
    }
  }
  return {
    ok: over.length === 0 && overlapsTotal === 0 && malformed.length === 0,
    jobs_checked: jobs.length,
    over_capacity: over,
    processor_overlaps: overlaps,
    processor_overlaps_total: overlapsTotal,
    malformed: malformed.slice(0, MAX_LISTED),
  };
}

/** The instant a site's jobs held the most processors, and which jobs they were; ends come before starts at one time. */
function peakUse(jobs: readonly ExecutedJob[]): { busy: number; at_s: number; jobs: string[] } | undefined {
  const events: [number, number, ExecutedJob][] = [];
  for (const j of jobs) {
    if (j.finish_s <= j.start_s) continue;
    events.push([j.start_s, j.procs, j], [j.finish_s, -j.procs, j]);
  }
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let busy = 0;
  let best: { busy: number; at_s: number; index: number } | undefined;
  events.forEach(([t, d], index) => {
    busy += d;
    if (best === undefined || busy > best.busy) best = { busy, at_s: t, index };
  });
  if (best === undefined) return undefined;
  const peak = best;
  const running = new Set<ExecutedJob>();
  for (let i = 0; i <= peak.index; i++) {
    const [, d, j] = events[i]!;
    if (d > 0) running.add(j);
    else running.delete(j);
  }
  return { busy: peak.busy, at_s: peak.at_s, jobs: [...running].map((j) => j.jobId).slice(0, MAX_LISTED) };
}

/** "0-3 8" → [0, 1, 2, 3, 8]; undefined if it is not that notation. */
export function parseIntervalSet(text: string): number[] | undefined {
  const ids: number[] = [];
  for (const part of text.split(' ')) {
    if (part === '') continue;
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) return undefined;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from) return undefined;
    for (let id = from; id <= to; id++) ids.push(id);
  }
  return ids;
}

/** The executed jobs of a jobs.csv text (rows that never started are left out). */
export function executedJobsFromCsv(text: string, file = 'jobs.csv'): ExecutedJob[] {
  return executedJobs(readCsvTable(text, file));
}

/** The executed jobs of a jobs.csv already read (rows that never started are left out). */
export function executedJobs(table: CsvTable): ExecutedJob[] {
  const col = (name: (typeof JOBS_CSV_COLUMNS)[number]) => table.column(name);
  const c = {
    id: col('job_id'),
    procs: col('requested_number_of_resources'),
    start: col('starting_time'),
    finish: col('finish_time'),
    res: col('allocated_resources'),
    site: col('exec_site'),
  };
  const out: ExecutedJob[] = [];
  table.rows.forEach((f, i) => {
    if (f[c.start] === '' || f[c.finish] === '') return;
    out.push({
      jobId: f[c.id]!,
      site: f[c.site]!,
      procs: table.number(i, c.procs),
      start_s: table.number(i, c.start),
      finish_s: table.number(i, c.finish),
      resources: f[c.res]!,
    });
  });
  return out;
}

/** One line per broken invariant, naming the jobs: for a failing run's message. */
export function describeScheduleCheck(c: ScheduleCheck): string[] {
  return [
    ...c.over_capacity.map(
      (v) => `site ${v.site} runs ${v.busy} of ${v.cpus} processors at ${v.at_s} s (jobs ${v.jobs.join(', ')})`,
    ),
    ...c.processor_overlaps.map(
      (o) =>
        `processor ${o.processor} of ${o.site} holds ${o.jobs[0]} and ${o.jobs[1]} at once, ${o.from_s}-${o.to_s} s`,
    ),
    ...(c.processor_overlaps_total > c.processor_overlaps.length
      ? [`... ${c.processor_overlaps_total - c.processor_overlaps.length} more processor overlaps`]
      : []),
    ...c.malformed,
  ];
}
