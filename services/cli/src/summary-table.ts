import type { RunSummary } from '@gridemu/metrics';

function fmt(n: number, digits = 2): string {
  if (Math.abs(n) >= 1e6) return n.toExponential(3);
  return n.toFixed(digits);
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ')).join('\n');
}

/** The end-of-run table: overall metrics, then per origin site and per job category. */
export function renderSummary(s: RunSummary): string {
  const j = s.jobs;
  const head = [
    `${s.name}: ${s.scheme} / ${s.local_policy}, seed ${s.seed}`,
    `jobs ${j.submitted} submitted, ${j.completed} completed, ${j.rejected} rejected${
      j.rejected > 0 ? ` (${Object.entries(j.rejected_by_reason).map(([k, v]) => `${k}: ${v}`).join(', ')})` : ''
    }, ${j.unfinished} unfinished`,
    `makespan ${fmt(s.makespan_s, 0)} s, utilization ${fmt(s.utilization.overall * 100, 1)}%, messages ${s.messages.total} (${fmt(s.messages.per_job)} per job), wall ${fmt(s.wall_time_s, 2)} s`,
    '',
  ];
  const header = ['', 'jobs', 'mean wait s', 'mean turnaround s', 'mean slowdown', 'mean bsld(10s)'];
  const rows: string[][] = [header, ['all', String(j.completed), fmt(s.mean_wait_s), fmt(s.mean_turnaround_s), fmt(s.mean_slowdown), fmt(s.mean_bounded_slowdown)]];
  for (const [site, g] of Object.entries(s.by_origin_site)) {
    rows.push([`from ${site}`, String(g.jobs), fmt(g.mean_wait_s), fmt(g.mean_turnaround_s), fmt(g.mean_slowdown), fmt(g.mean_bounded_slowdown)]);
  }
  for (const [cat, g] of Object.entries(s.categories)) {
    rows.push([cat.replace(/_/g, ' '), String(g.jobs), fmt(g.mean_wait_s), fmt(g.mean_turnaround_s), fmt(g.mean_slowdown), fmt(g.mean_bounded_slowdown)]);
  }
  return head.join('\n') + table(rows) + '\n';
}
