import type { ReportChart } from './report-html.js';
import {
  faultBars,
  messagesOverTime,
  queueOverTime,
  spanOf,
  utilizationOverTime,
  waitHistogram,
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
  readonly live?: {
    /** Why the run was stopped before its end: its figures cover only what finished before. */
    readonly aborted?: string;
    /** The fidelity guard's verdict from what the run measured: each warning a line. */
    readonly fidelity?: { readonly measured?: { readonly warnings?: readonly string[] } };
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
const HOURS_AXIS = { type: 'linear', title: { display: true, text: 'emulated hours since the first submission' } };

function lines(series: readonly TimeSeries[], yTitle: string, yMax?: number): object {
  return {
    type: 'line',
    data: {
      datasets: series.map((s, i) => ({
        label: s.name,
        data: s.points,
        borderColor: PALETTE[i % PALETTE.length],
        backgroundColor: PALETTE[i % PALETTE.length],
        pointRadius: 0,
        borderWidth: 1.5,
      })),
    },
    options: {
      scales: {
        x: HOURS_AXIS,
        y: { beginAtZero: true, ...(yMax !== undefined ? { max: yMax } : {}), title: { display: true, text: yTitle } },
      },
    },
  };
}

/** The charts of one run's report (item 4). */
export function runCharts(summary: ReportSummary, jobs: readonly ReportJob[]): ReportChart[] {
  const cpus = new Map(summary.spec.sites.map((s) => [s.id, s.cpus]));
  const sites = [...cpus.keys()];
  const span = spanOf(jobs);
  const waits = waitHistogram(jobs);
  const categories = Object.entries(summary.categories ?? {}).filter(([, c]) => c.jobs > 0);
  const faults = faultBars(summary.spec.faults, span.from_s);
  const rows = faults.length > 0 ? [...new Set(faults.map((f) => f.row))] : ['no faults injected'];
  const kinds = [
    ['crash', 'process down', '#c2453d'],
    ['partition', 'cut off', '#d9822b'],
    ['nats_restart', 'nats-server down', '#8a63b8'],
  ] as const;
  return [
    {
      id: 'utilization',
      title: 'Utilization over time, per site',
      caption: "Busy processors over the site's processors, averaged over each 1/200 of the run.",
      config: lines(utilizationOverTime(jobs, cpus), 'utilization', 1),
    },
    {
      id: 'queue',
      title: 'Queue length over time, per site',
      caption:
        'Jobs submitted and not yet started, counted at the site that ran them (or their origin), averaged over each 1/200 of the run.',
      config: lines(queueOverTime(jobs, sites), 'jobs waiting'),
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
      config: lines([messagesOverTime(summary.messages.per_hour, span.from_s)], 'messages per hour'),
    },
    {
      id: 'faults',
      title: 'Faults on the time axis',
      caption:
        faults.length > 0
          ? `Each crash's downtime, each partition and each server restart the experiment injected${summary.faults ? `; ${summary.faults.lost_runs} runs were lost` : ''}.`
          : 'The experiment injected no faults.',
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
          scales: { x: { ...HOURS_AXIS, min: 0, max: Math.ceil((span.to_s - span.from_s) / 3600) } },
        },
      },
    },
  ];
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
    ...(s.check ? [['gridemu check', s.check.ok ? 'passed' : 'BROKEN'] as [string, string]] : []),
    // Each crash of a live run: how long the process was down, and its restart's catching up.
    ...(s.live?.rejoins ?? []).map(
      (r) =>
        [
          `${r.process} restarted (incarnation ${r.incarnation})`,
          `down from ${r.down_from_s.toFixed(0)} s to ${r.rejoined_s.toFixed(0)} s; caught up ${r.catch_up_wall_s.toFixed(2)} s wall (${r.catch_up_emulated_s.toFixed(0)} emulated s) after its restart was due`,
        ] as [string, string],
    ),
  ];
}
