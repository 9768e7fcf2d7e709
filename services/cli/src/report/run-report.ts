import { MIN_TIMERS_IN_WINDOW, shortestTimescale } from '@gridemu/live';
import { describeCode, formatNumber, type Provenance } from '@gridemu/metrics';
import { HoursAxis } from './hours-axis.js';
import { delayOverTime, timerLagOverTime, type ReportNetwork } from './live-series.js';
import type { ReportChart } from './report-html.js';
import {
  faultBars,
  messagesOverTime,
  queueOverTime,
  spanOf,
  utilizationOverTime,
  waitHistogram,
  type FaultBar,
  type ReportJob,
  type TimeSeries,
} from './run-series.js';

/** What a run report reads from summary.json (simulate or run). */
export interface ReportSummary {
  readonly name: string;
  readonly mode: string;
  readonly scheme: string;
  readonly local_policy?: string;
  readonly jobs: {
    readonly submitted: number;
    readonly completed: number;
    readonly rejected: number;
    readonly unfinished?: number;
  };
  readonly mean_wait_s: number;
  readonly mean_bounded_slowdown: number;
  readonly utilization: { readonly overall: number; readonly per_site: Record<string, number> };
  readonly makespan_s: number;
  readonly categories?: Record<
    string,
    { readonly jobs: number; readonly mean_slowdown: number; readonly mean_bounded_slowdown: number }
  >;
  readonly messages: { readonly total: number; readonly per_hour?: Record<string, number> };
  readonly spec: {
    readonly sites: readonly { readonly id: string; readonly cpus: number }[];
    readonly faults?: Parameters<typeof faultBars>[0];
  };
  readonly faults?: { readonly lost_runs: number };
  /** From DIR/check.json, which gridemu run writes beside the summary. */
  readonly check?: { readonly ok: boolean };
  /** What made the run (summary.json from 2026-12-06 on). */
  readonly provenance?: Provenance;
  readonly jobs_sha256?: string;
  readonly live?: {
    readonly speedup?: number;
    readonly run_wall_s?: number;
    readonly emulated_s?: number;
    /** One-way delay of the messages between processes, wall ms. */
    readonly latency_ms?: { readonly count: number; readonly mean_ms: number; readonly p95_ms: number };
    readonly emulated_latency_mean_s?: number;
    readonly timer_lag_ms?: { readonly mean_ms: number; readonly p95_ms: number };
    /** Why the run was stopped before its end: its figures cover only what finished before. */
    readonly aborted?: string;
    /** The fidelity guard's verdict from what the run measured: each warning a line. */
    readonly fidelity?: {
      readonly timescales?: Readonly<Record<string, number>>;
      readonly measured?: {
        readonly warnings?: readonly string[];
        readonly hop_s?: number;
        readonly timer_lag_s?: number;
        readonly share?: number;
        readonly backlog?: { readonly judged_beyond_ms: number };
      };
    };
    readonly rejoins?: readonly {
      readonly process: string;
      readonly incarnation: number;
      readonly down_from_s: number;
      readonly rejoined_s: number;
      readonly catch_up_wall_s: number;
      readonly catch_up_emulated_s: number;
    }[];
  };
}

const PALETTE = [
  '#4a7ab5',
  '#d9822b',
  '#3f9a5b',
  '#c2453d',
  '#8a63b8',
  '#8c6d46',
  '#d463a8',
  '#6f6f6f',
  '#b5b33a',
  '#2fb0c2',
];
/** A measured figure in a sentence: two decimals at most. */
const shown = (x: number) => formatNumber(Math.round(x * 100) / 100);

/** A level drawn across the chart, dashed: a limit the lines are judged against. */
interface Level {
  readonly label: string;
  readonly y: number;
  readonly to_h: number;
}

function lines(hours: HoursAxis, series: readonly TimeSeries[], yTitle: string, yMax?: number, level?: Level): object {
  return {
    type: 'line',
    data: {
      datasets: [
        ...series.map((s, i) => ({
          label: s.name,
          data: s.points,
          borderColor: PALETTE[i % PALETTE.length],
          backgroundColor: PALETTE[i % PALETTE.length],
          pointRadius: 0,
          borderWidth: 1.5,
        })),
        ...(level
          ? [
              {
                label: level.label,
                data: [
                  { x: 0, y: level.y },
                  { x: level.to_h, y: level.y },
                ],
                borderColor: '#222',
                backgroundColor: '#222',
                borderDash: [6, 4],
                pointRadius: 0,
                borderWidth: 1,
              },
            ]
          : []),
      ],
    },
    options: {
      scales: {
        x: hours.covering(series),
        y: { beginAtZero: true, ...(yMax !== undefined ? { max: yMax } : {}), title: { display: true, text: yTitle } },
      },
    },
  };
}

/** The charts of one run's report (item 4); a live run's with its network.json adds what it measured of itself. */
export function runCharts(summary: ReportSummary, jobs: readonly ReportJob[], network?: ReportNetwork): ReportChart[] {
  const cpus = new Map(summary.spec.sites.map((s) => [s.id, s.cpus]));
  const sites = [...cpus.keys()];
  const span = spanOf(jobs);
  const waits = waitHistogram(jobs);
  const categories = Object.entries(summary.categories ?? {}).filter(([, c]) => c.jobs > 0);
  const faults = faultBars(summary.spec.faults, span.from_s);
  const hours = new HoursAxis((span.to_s - span.from_s) / 3600);
  // Jobs that hold no processors of their own (paper 003's tasks share a CR, paper 000's tasks run
  // as many grid jobs) leave jobs.csv without what made the sites busy: the summary's utilization
  // comes from the scheme's counters, over the whole run only.
  const holdProcessors = jobs.some((j) => j.procs > 0);
  return [
    ...(holdProcessors
      ? [
          {
            id: 'utilization',
            title: 'Utilization over time, per site',
            caption: "Busy processors over the site's processors, averaged over each 1/200 of the run.",
            config: lines(hours, utilizationOverTime(jobs, cpus), 'utilization', 1),
          },
        ]
      : []),
    {
      id: 'queue',
      title: 'Queue length over time, per site',
      caption:
        'Jobs submitted and not yet started, counted at the site that ran them (or their origin), averaged over each 1/200 of the run.',
      config: lines(hours, queueOverTime(jobs, sites), 'jobs waiting'),
    },
    {
      id: 'waits',
      title: 'Wait-time distribution',
      caption: `How long the ${waits.counts.reduce((a, b) => a + b, 0)} started jobs waited between submission and start.`,
      config: {
        type: 'bar',
        data: { labels: waits.labels, datasets: [{ label: 'jobs', data: waits.counts, backgroundColor: PALETTE[0] }] },
        options: { scales: { y: { beginAtZero: true, title: { display: true, text: 'jobs' } } } },
      },
    },
    {
      id: 'slowdown',
      title: 'Slowdown by job category',
      caption:
        'Mean slowdown and mean bounded slowdown (10 s) of each category of job (narrow or wide, short or long).',
      config: {
        type: 'bar',
        data: {
          labels: categories.map(([name, c]) => `${name.replace(/_/g, ' ')} (${c.jobs})`),
          datasets: [
            { label: 'mean slowdown', data: categories.map(([, c]) => c.mean_slowdown), backgroundColor: PALETTE[0] },
            {
              label: 'mean bounded slowdown',
              data: categories.map(([, c]) => c.mean_bounded_slowdown),
              backgroundColor: PALETTE[1],
            },
          ],
        },
        options: { scales: { y: { beginAtZero: true, title: { display: true, text: 'slowdown' } } } },
      },
    },
    {
      id: 'messages',
      title: 'Messages over time',
      caption: `Protocol messages sent in each emulated hour, ${summary.messages.total} in all.`,
      config: lines(hours, [messagesOverTime(summary.messages.per_hour, span.from_s)], 'messages per hour'),
    },
    ...liveCharts(summary, network, span, sites, hours),
    // A run without faults says so in its table (runFacts) rather than with an empty chart.
    ...(faults.length > 0 ? [faultsChart(summary, faults, hours)] : []),
  ];
}

/** Each crash's downtime, partition and server restart as a bar on the time axis, a row per process or link. */
function faultsChart(summary: ReportSummary, faults: readonly FaultBar[], hours: HoursAxis): ReportChart {
  const rows = [...new Set(faults.map((f) => f.row))];
  const kinds = [
    ['crash', 'process down', '#c2453d'],
    ['partition', 'cut off', '#d9822b'],
    ['nats_restart', 'nats-server down', '#8a63b8'],
  ] as const;
  return {
    id: 'faults',
    title: 'Faults on the time axis',
    caption: `Each crash's downtime, each partition and each server restart the experiment injected${summary.faults ? `; ${summary.faults.lost_runs} runs were lost` : ''}.`,
    config: {
      type: 'bar',
      data: {
        labels: rows,
        // A floating bar per fault: dataset k of a kind holds each row's k-th fault of that kind.
        datasets: kinds.flatMap(([kind, label, color]) => {
          const perRow = rows.map((row) => faults.filter((x) => x.kind === kind && x.row === row));
          const depth = Math.max(1, ...perRow.map((f) => f.length));
          return Array.from({ length: depth }, (_, k) => ({
            label,
            backgroundColor: color,
            data: perRow.map((f) => (f[k] ? [f[k].from_h, f[k].to_h] : null)),
            barPercentage: 0.6,
            grouped: false,
          }));
        }),
      },
      options: {
        indexAxis: 'y',
        plugins: { legend: { uniqueLabels: true } },
        scales: { x: hours.covering([]) },
      },
    },
  };
}

/**
 * A live run's timers and messages over its time, from its network.json: where the run fell behind
 * its clock, if it did, on the same hours as its utilization and queues.
 */
function liveCharts(
  summary: ReportSummary,
  network: ReportNetwork | undefined,
  span: { from_s: number; to_s: number },
  sites: readonly string[],
  hours: HoursAxis,
): ReportChart[] {
  const speedup = summary.live?.speedup;
  const mailbox = network?.mailbox;
  if (speedup === undefined || !mailbox) return [];
  const to_h = (span.to_s - span.from_s) / 3600;
  const charts: ReportChart[] = [];
  const timers = mailbox.timer_fire_timeline;
  if (timers) {
    const limit = guardLimit(summary);
    charts.push({
      id: 'timer-lag',
      title: 'Timer lag over time, per process',
      caption:
        `How late each process's timers reached their mailbox, in emulated seconds (wall ms × ${speedup}), ` +
        `averaged over each window of ${timers.bin_s} emulated s that held at least ${MIN_TIMERS_IN_WINDOW} timers.` +
        (limit
          ? ` The fidelity guard warns of a window above the dashed line (${limit.says}): the jobs submitted in it measured the processes' backlog, not the scheme.`
          : ''),
      config: lines(
        hours,
        timerLagOverTime(timers, speedup, span.from_s, sites),
        'emulated s late',
        undefined,
        limit && { label: "the guard's limit", y: limit.y_s, to_h },
      ),
    });
    charts.push({
      id: 'timer-lag-p95',
      title: 'Timer lag over time, 95th percentile, per process',
      caption:
        'The same windows, the lateness that one timer in twenty exceeded: a small mean can hide the timeouts and periods ' +
        'that fired late enough to change what the scheme did. The guard judges the means, so its limit is not drawn here. ' +
        'From log-spaced buckets, within about 2% of the exact figure; in a window of fewer than twenty timers, its latest.',
      config: lines(hours, timerLagOverTime(timers, speedup, span.from_s, sites, 'p95'), 'emulated s late'),
    });
  }
  const arrived = mailbox.arrived_timeline;
  if (arrived)
    charts.push(
      {
        id: 'delay',
        title: 'One-way delay over time, per receiving process',
        caption:
          "Mean time from the sending actor to the receiving process's mailbox of the messages between processes " +
          `(the spec's link latency included), in emulated seconds, over each window of ${arrived.bin_s} emulated s of when they were sent.`,
        config: lines(hours, delayOverTime(arrived, speedup, span.from_s, sites), 'emulated s'),
      },
      {
        id: 'delay-p95',
        title: 'One-way delay over time, 95th percentile, per receiving process',
        caption:
          "The same messages, the delay that one in twenty of each window exceeded: a mean near the links' latency can hide " +
          "the messages that waited behind a busy process long enough to miss a scheme's timeout. " +
          'From log-spaced buckets, within about 2% of the exact figure; in a window of fewer than twenty messages, its longest delay.',
        config: lines(hours, delayOverTime(arrived, speedup, span.from_s, sites, 'p95'), 'emulated s'),
      },
    );
  return charts;
}

/**
 * The lateness beyond which the guard calls a window behind, in emulated seconds: its share of the
 * scheme's shortest timescale, over the run's own mean lateness when that mean was already past it
 * (judgeBacklog).
 */
function guardLimit(summary: ReportSummary): { y_s: number; says: string } | undefined {
  const fidelity = summary.live?.fidelity;
  const share = fidelity?.measured?.share;
  const shortest = shortestTimescale(fidelity?.timescales ?? {});
  const speedup = summary.live?.speedup;
  if (share === undefined || !shortest || speedup === undefined) return undefined;
  const beyond_s = ((fidelity?.measured?.backlog?.judged_beyond_ms ?? 0) * speedup) / 1000;
  const part = `${shown(share * 100)}% of ${shortest.name}, ${shown(shortest.seconds)} s`;
  return {
    y_s: share * shortest.seconds + beyond_s,
    says: beyond_s > 0 ? `the run's own mean lateness, ${shown(beyond_s)} emulated s, and ${part} over it` : part,
  };
}

/** What a live run measured of itself, for the table at the top of its report. */
function liveFacts(live: ReportSummary['live']): [string, string][] {
  if (live?.speedup === undefined) return [];
  const facts: [string, string][] = [];
  if (live.run_wall_s !== undefined && live.emulated_s !== undefined)
    facts.push([
      'live run',
      `speed-up ${live.speedup}: ${live.run_wall_s.toFixed(1)} s wall for ${live.emulated_s.toFixed(0)} emulated s`,
    ]);
  const l = live.latency_ms;
  if (l)
    facts.push([
      'one-way latency seen',
      l.count > 0
        ? `mean ${shown(l.mean_ms)} wall ms (${shown(live.emulated_latency_mean_s ?? 0)} emulated s), p95 ${shown(l.p95_ms)} ms, over ${l.count} messages between processes`
        : 'no messages between processes',
    ]);
  if (live.timer_lag_ms)
    facts.push([
      'timer lag',
      `mean ${shown(live.timer_lag_ms.mean_ms)} wall ms, p95 ${shown(live.timer_lag_ms.p95_ms)} ms`,
    ]);
  const m = live.fidelity?.measured;
  if (m) {
    const warnings = m.warnings?.length ?? 0;
    const shortest = shortestTimescale(live.fidelity?.timescales ?? {});
    facts.push([
      'fidelity guard',
      warnings > 0
        ? `${warnings} warning${warnings === 1 ? '' : 's'}, at the top of this table`
        : `quiet: one hop ${shown(m.hop_s ?? 0)} emulated s, timer lag ${shown(m.timer_lag_s ?? 0)} s, small against the scheme's timeouts and periods${shortest ? ` (the shortest: ${shortest.name}, ${shown(shortest.seconds)} s)` : ''}`,
    ]);
  }
  return facts;
}

/** The table at the top of a run's report. */
export function runFacts(s: ReportSummary): [string, string][] {
  const unfinished = s.jobs.unfinished ?? 0;
  return [
    // First, so that nobody reads an aborted or unfaithful run's figures as the scheme's.
    ...(s.live?.aborted !== undefined
      ? [
          ['ABORTED', `${s.live.aborted}: the figures below cover only the jobs that ended before it`] as [
            string,
            string,
          ],
        ]
      : []),
    ...(s.live?.fidelity?.measured?.warnings ?? []).map((w) => ['FIDELITY WARNING', w] as [string, string]),
    ['experiment', `${s.name} (${s.mode})`],
    ['scheme', `${s.scheme}${s.local_policy ? ` / ${s.local_policy}` : ''}`],
    [
      'jobs',
      `${s.jobs.submitted} submitted, ${s.jobs.completed} completed, ${s.jobs.rejected} rejected${unfinished > 0 ? `, ${unfinished} unfinished` : ''}`,
    ],
    ['mean wait', `${s.mean_wait_s.toFixed(1)} s`],
    ['mean bounded slowdown', s.mean_bounded_slowdown.toFixed(2)],
    [
      'utilization',
      `${(s.utilization.overall * 100).toFixed(1)}% (${Object.entries(s.utilization.per_site)
        .map(([site, u]) => `${site} ${(u * 100).toFixed(1)}%`)
        .join(', ')})`,
    ],
    ['makespan', `${s.makespan_s.toFixed(0)} s`],
    ['messages', String(s.messages.total)],
    ...(faultBars(s.spec.faults, 0).length === 0 ? [['faults', 'none injected'] as [string, string]] : []),
    ...(s.check ? [['gridemu check', s.check.ok ? 'passed' : 'BROKEN'] as [string, string]] : []),
    ...liveFacts(s.live),
    // Each crash of a live run: how long the process was down, and its restart's catching up.
    ...(s.live?.rejoins ?? []).map(
      (r) =>
        [
          `${r.process} restarted (incarnation ${r.incarnation})`,
          `down from ${r.down_from_s.toFixed(0)} s to ${r.rejoined_s.toFixed(0)} s; caught up ${r.catch_up_wall_s.toFixed(2)} s wall (${r.catch_up_emulated_s.toFixed(0)} emulated s) after its restart was due`,
        ] as [string, string],
    ),
    ...(s.jobs_sha256 !== undefined
      ? [['jobs submitted, SHA-256', `${s.jobs_sha256} (the same in every run of these jobs)`] as [string, string]]
      : []),
    ...(s.provenance ? [['made by', madeBy(s.provenance)] as [string, string]] : []),
  ];
}

/** The provenance row: the code and the machine a published number can be traced back to. */
export function madeBy(p: Provenance): string {
  return `${describeCode(p)}, Node ${p.node}, ${p.platform}, ${p.cpu} x${p.cores}`;
}
