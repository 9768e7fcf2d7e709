import type { RunSummary } from '@gridemu/metrics';

export function fmt(n: number | null | undefined, digits = 2): string {
  // summary.json read back has null where a metric had no jobs to average over.
  if (n === null || n === undefined || Number.isNaN(n)) return '-';
  if (Math.abs(n) >= 1e6) return n.toExponential(3);
  return n.toFixed(digits);
}

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows
    .map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '))
    .join('\n');
}

/** The end-of-run table: overall metrics, then per origin site and per job category. */
export function renderSummary(s: RunSummary): string {
  const j = s.jobs;
  const head = [
    `${s.name}: ${s.scheme} / ${s.local_policy}, seed ${s.seed}`,
    `jobs ${j.submitted} submitted, ${j.completed} completed, ${j.rejected} rejected${
      j.rejected > 0
        ? ` (${Object.entries(j.rejected_by_reason)
            .map(([k, v]) => `${k}: ${v}`)
            .join(', ')})`
        : ''
    }${
      j.failed > 0
        ? `, ${j.failed} failed (${Object.entries(j.failed_by_reason)
            .map(([k, v]) => `${k}: ${v}`)
            .join(', ')})`
        : ''
    }, ${j.unfinished} unfinished`,
    `makespan ${fmt(s.makespan_s, 0)} s, utilization ${fmt(s.utilization.overall * 100, 1)}%, messages ${s.messages.total} (${fmt(s.messages.per_job)} per job), wall ${fmt(s.wall_time_s, 2)} s`,
    '',
  ];
  const header = ['', 'jobs', 'mean wait s', 'mean turnaround s', 'mean slowdown', 'mean bsld(10s)'];
  const rows: string[][] = [
    header,
    [
      'all',
      String(j.completed),
      fmt(s.mean_wait_s),
      fmt(s.mean_turnaround_s),
      fmt(s.mean_slowdown),
      fmt(s.mean_bounded_slowdown),
    ],
  ];
  for (const [site, g] of Object.entries(s.by_origin_site)) {
    rows.push([
      `from ${site}`,
      String(g.jobs),
      fmt(g.mean_wait_s),
      fmt(g.mean_turnaround_s),
      fmt(g.mean_slowdown),
      fmt(g.mean_bounded_slowdown),
    ]);
  }
  for (const [cat, g] of Object.entries(s.categories)) {
    rows.push([
      cat.replace(/_/g, ' '),
      String(g.jobs),
      fmt(g.mean_wait_s),
      fmt(g.mean_turnaround_s),
      fmt(g.mean_slowdown),
      fmt(g.mean_bounded_slowdown),
    ]);
  }
  return head.join('\n') + table(rows) + '\n';
}

interface LatencyLine {
  count: number;
  mean_ms: number;
  p50_ms: number;
  p95_ms: number;
  max_ms: number;
}

/** What a live run adds: latency seen on the wire, timer lag, and the processes' memory. */
export function renderLiveSummary(s: RunSummary): string {
  const live = s.live as
    | {
        speedup: number;
        run_wall_s: number;
        aborted?: string;
        missing_reports?: string[];
        latency_ms: LatencyLine & { links: Record<string, LatencyLine> };
        emulated_latency_mean_s: number;
        timer_lag_ms: LatencyLine;
        processes: Record<string, { pid: number; rss_mb?: number; peak_rss_mb?: number; cpu_s?: number }>;
        rejoins?: {
          process: string;
          down_from_s: number;
          rejoined_s: number;
          catch_up_wall_s: number;
          catch_up_emulated_s: number;
        }[];
        fidelity?: {
          before: { warnings: string[] };
          measured?: { hop_s: number; timer_lag_s: number; warnings: string[]; recommended_speedup?: number };
        };
      }
    | undefined;
  if (!live) return '';
  const l = live.latency_ms;
  const missing = live.missing_reports ?? [];
  const lines = [
    '',
    `live: speed-up ${live.speedup}, ${fmt(live.run_wall_s, 1)} s wall${live.aborted ? `, ABORTED: ${live.aborted}` : ''}`,
    ...(missing.length > 0
      ? [
          `no report from ${missing.join(', ')}${live.aborted ? ' (an aborted run asks for none)' : ''}: ` +
            `the messages and latency counted above and below leave out what ${missing.length === 1 ? 'it' : 'they'} sent and received`,
        ]
      : []),
    l.count > 0
      ? `one-way latency seen: mean ${fmt(l.mean_ms)} ms, p50 ${fmt(l.p50_ms)}, p95 ${fmt(l.p95_ms)}, max ${fmt(l.max_ms)} over ${l.count} cross-site messages (${fmt(live.emulated_latency_mean_s)} emulated s each)`
      : `one-way latency seen: no cross-site messages${missing.length > 0 ? ' reported' : ''}`,
    `timer lag: mean ${fmt(live.timer_lag_ms.mean_ms)} ms, p95 ${fmt(live.timer_lag_ms.p95_ms)}, max ${fmt(live.timer_lag_ms.max_ms)}`,
    ...fidelityLines(live.fidelity),
    ...(live.rejoins ?? []).map(
      (r) =>
        `${r.process} down ${fmt(r.down_from_s, 0)}-${fmt(r.rejoined_s, 0)} s; caught up ${fmt(r.catch_up_wall_s)} s wall (${fmt(r.catch_up_emulated_s, 0)} emulated s) after its restart was due`,
    ),
    '',
  ];
  const rows: string[][] = [['process', 'pid', 'rss MiB', 'peak MiB', 'cpu s']];
  for (const [name, p] of Object.entries(live.processes)) {
    rows.push([
      name,
      String(p.pid),
      p.rss_mb === undefined ? '-' : fmt(p.rss_mb, 1),
      p.peak_rss_mb === undefined ? '-' : fmt(p.peak_rss_mb, 1),
      p.cpu_s === undefined ? '-' : fmt(p.cpu_s, 1),
    ]);
  }
  return lines.join('\n') + table(rows) + '\n';
}

/** The fidelity guard's verdict: quiet when the speed-up keeps hops and lags small. */
function fidelityLines(
  f:
    | { before: { warnings: string[] }; measured?: { hop_s: number; timer_lag_s: number; warnings: string[] } }
    | undefined,
): string[] {
  if (!f) return [];
  const m = f.measured;
  const warnings = m ? m.warnings : f.before.warnings;
  if (warnings.length === 0)
    return [
      m
        ? `fidelity: one hop ${fmt(m.hop_s)} emulated s, timer lag ${fmt(m.timer_lag_s)} s: small against the scheme's timeouts and periods`
        : 'fidelity: within bounds',
    ];
  return [
    '',
    `FIDELITY WARNING (${m ? 'measured in the run' : 'estimated before the run'}):`,
    ...warnings.map((w) => `  - ${w}`),
  ];
}
