import { readCsvTable } from '@gridemu/metrics';

/** One row of jobs.csv, the fields a report draws from. */
export interface ReportJob {
  readonly id: string;
  readonly submit_s: number;
  readonly start_s: number | undefined;
  readonly finish_s: number | undefined;
  readonly procs: number;
  readonly origin: string;
  readonly site: string;
  readonly state: string;
}

/** A line on a time axis: x in emulated hours since the first submission. */
export interface TimeSeries {
  readonly name: string;
  readonly points: readonly { readonly x: number; readonly y: number }[];
}

/** The faults of summary.json's spec, as intervals on the time axis (hours since the first submission). */
export interface FaultBar {
  readonly row: string;
  readonly from_h: number;
  readonly to_h: number;
  readonly kind: 'crash' | 'partition' | 'nats_restart';
}

const HOUR_S = 3600;

/** Reads jobs.csv; a row that is not one is an error naming its line. */
export function readJobsCsv(text: string, file: string): ReportJob[] {
  const table = readCsvTable(text, file);
  const c = {
    id: table.column('job_id'),
    submit: table.column('submission_time'),
    start: table.column('starting_time'),
    finish: table.column('finish_time'),
    procs: table.column('requested_number_of_resources'),
    origin: table.column('origin_site'),
    site: table.column('exec_site'),
    state: table.column('final_state'),
  };
  // A job that never started has no start or finish time.
  const optional = (row: number, column: number) =>
    table.rows[row]![column] === '' ? undefined : table.number(row, column);
  return table.rows.map((f, i) => ({
    id: f[c.id]!,
    submit_s: table.number(i, c.submit),
    start_s: optional(i, c.start),
    finish_s: optional(i, c.finish),
    procs: table.number(i, c.procs),
    origin: f[c.origin]!,
    site: f[c.site]!,
    state: f[c.state]!,
  }));
}

/** The run's span: first submission to last finish (or submission), in emulated seconds. */
export function spanOf(jobs: readonly ReportJob[]): { from_s: number; to_s: number } {
  let from_s = Number.POSITIVE_INFINITY;
  let to_s = Number.NEGATIVE_INFINITY;
  for (const j of jobs) {
    from_s = Math.min(from_s, j.submit_s);
    to_s = Math.max(to_s, j.finish_s ?? j.start_s ?? j.submit_s);
  }
  return Number.isFinite(from_s) ? { from_s, to_s: Math.max(to_s, from_s + 1) } : { from_s: 0, to_s: 1 };
}

/**
 * A per-site quantity averaged over each of `bins` equal slices of the span: every interval adds
 * `weight` for the part of the slice it covers. Utilization (processors over capacity) and queue
 * length (jobs waiting) are both this.
 */
function binned(
  span: { from_s: number; to_s: number },
  bins: number,
  intervals: readonly { key: string; from_s: number; to_s: number; weight: number }[],
  keys: readonly string[],
  scale: (key: string) => number,
): TimeSeries[] {
  const width = (span.to_s - span.from_s) / bins;
  const sums = new Map(keys.map((k) => [k, new Float64Array(bins)]));
  for (const iv of intervals) {
    const acc = sums.get(iv.key);
    if (!acc || !(iv.to_s > iv.from_s)) continue;
    const first = Math.max(0, Math.floor((iv.from_s - span.from_s) / width));
    const last = Math.min(bins - 1, Math.floor((iv.to_s - span.from_s) / width));
    for (let b = first; b <= last; b++) {
      const lo = span.from_s + b * width;
      const overlap = Math.min(iv.to_s, lo + width) - Math.max(iv.from_s, lo);
      if (overlap > 0) acc[b]! += (iv.weight * overlap) / width;
    }
  }
  return keys.map((k) => ({
    name: k,
    points: [...sums.get(k)!].map((v, b) => ({ x: round(((b + 0.5) * width) / HOUR_S), y: round(v / scale(k)) })),
  }));
}

/** Busy processors over each site's processors, per slice of the run (1 = full). */
export function utilizationOverTime(
  jobs: readonly ReportJob[],
  cpus: ReadonlyMap<string, number>,
  bins = 200,
): TimeSeries[] {
  const span = spanOf(jobs);
  const ran = jobs.filter((j) => j.start_s !== undefined && j.finish_s !== undefined && cpus.has(j.site));
  return binned(
    span,
    bins,
    ran.map((j) => ({ key: j.site, from_s: j.start_s!, to_s: j.finish_s!, weight: j.procs })),
    [...cpus.keys()],
    (k) => cpus.get(k)!,
  );
}

/** Jobs waiting, per site that ran them (or their origin, if never started), averaged per slice. */
export function queueOverTime(jobs: readonly ReportJob[], sites: readonly string[], bins = 200): TimeSeries[] {
  const span = spanOf(jobs);
  return binned(
    span,
    bins,
    jobs.map((j) => ({
      key: j.site !== '' ? j.site : j.origin,
      from_s: j.submit_s,
      to_s: j.start_s ?? span.to_s,
      weight: 1,
    })),
    sites,
    () => 1,
  );
}

/** Wait-time bins a user reads at a glance: a second to days. */
const WAIT_BINS: readonly [string, number][] = [
  ['< 1 s', 1],
  ['1–10 s', 10],
  ['10 s–1 min', 60],
  ['1–5 min', 300],
  ['5–15 min', 900],
  ['15 min–1 h', 3600],
  ['1–3 h', 3 * 3600],
  ['3–12 h', 12 * 3600],
  ['12 h–1 d', 86_400],
  ['1–3 d', 3 * 86_400],
  ['≥ 3 d', Number.POSITIVE_INFINITY],
];

/** How many started jobs waited how long. */
export function waitHistogram(jobs: readonly ReportJob[]): { labels: string[]; counts: number[] } {
  const counts = WAIT_BINS.map(() => 0);
  for (const j of jobs) {
    if (j.start_s === undefined) continue;
    const wait = j.start_s - j.submit_s;
    counts[WAIT_BINS.findIndex(([, upper]) => wait < upper)]!++;
  }
  return { labels: WAIT_BINS.map(([l]) => l), counts };
}

/**
 * Where a bin of the run's clock, [start_s, end_s), is drawn on the report's time axis (emulated
 * hours since the first submission): the middle of its part from the first submission on. The
 * bins are whole hours or windows of the clock, so the first one usually began before the first
 * submission, and its plain middle could fall before 0 and stretch the axis to a round -500 h.
 */
export function binMiddle_h(start_s: number, end_s: number, from_s: number): number {
  return ((Math.max(start_s, from_s) + end_s) / 2 - from_s) / HOUR_S;
}

/** summary.json's messages per emulated hour, on the report's time axis. */
export function messagesOverTime(perHour: Readonly<Record<string, number>> | undefined, from_s: number): TimeSeries {
  const points = Object.entries(perHour ?? {})
    .map(([h, n]) => ({ x: round(binMiddle_h(Number(h) * HOUR_S, (Number(h) + 1) * HOUR_S, from_s)), y: n }))
    .sort((a, b) => a.x - b.x);
  return { name: 'messages per emulated hour', points };
}

interface SpecFaults {
  readonly crash?: readonly { readonly process: string; readonly at_s: number; readonly down_s: number }[];
  readonly partition?: readonly { readonly sites: readonly string[]; readonly from_s: number; readonly to_s: number }[];
  readonly nats_restart?: readonly { readonly at_s: number; readonly down_s: number }[];
}

/** Every injected fault as a bar: a crashed process's downtime, a partition, a server restart. */
export function faultBars(faults: SpecFaults | undefined, from_s: number): FaultBar[] {
  const h = (s: number) => round((s - from_s) / HOUR_S);
  return [
    ...(faults?.crash ?? []).map((c) => ({
      row: `${c.process} down`,
      from_h: h(c.at_s),
      to_h: h(c.at_s + c.down_s),
      kind: 'crash' as const,
    })),
    ...(faults?.partition ?? []).map((p) => ({
      row: `${p.sites.join(', ')} cut off`,
      from_h: h(p.from_s),
      to_h: h(p.to_s),
      kind: 'partition' as const,
    })),
    ...(faults?.nats_restart ?? []).map((r) => ({
      row: 'nats-server down',
      from_h: h(r.at_s),
      to_h: h(r.at_s + r.down_s),
      kind: 'nats_restart' as const,
    })),
  ];
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
