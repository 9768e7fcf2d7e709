import type { MetricsSink } from '@gridemu/runtime';

/** Upper edges, in emulated seconds, of the buckets a decision's view age is counted in. */
export const VIEW_AGE_EDGES_S = [
  0.001,
  0.002,
  0.005,
  0.01,
  0.02,
  0.05,
  0.1,
  0.2,
  0.5,
  1,
  2,
  5,
  10,
  20,
  30,
  60,
  120,
  300,
  600,
  1800,
  3600,
  Infinity,
];

const PREFIX = 'gruber.view_age_s';

/**
 * Counts one decision's view age as counters (a sum, a count and a bucket), so decision points in
 * several processes add up like every other counter, for summary.json.
 */
export function countViewAge(metrics: MetricsSink, age_s: number): void {
  // Live, also a Prometheus histogram (gridemu_gruber_view_age_seconds); the simulator ignores it.
  metrics.observe('gruber.view_age_s', age_s);
  metrics.count(`${PREFIX}.sum`, age_s);
  metrics.count(`${PREFIX}.count`);
  const edge = VIEW_AGE_EDGES_S.find((e) => age_s <= e)!;
  metrics.count(`${PREFIX}.le.${edge}`);
}

/** Mean, and the 95th percentile as the upper edge of the bucket it falls in. */
export function viewAgeStats(counters: Readonly<Record<string, number>>): {
  decisions: number;
  mean_s: number | null;
  p95_s: number | null;
} {
  const n = counters[`${PREFIX}.count`] ?? 0;
  if (n === 0) return { decisions: 0, mean_s: null, p95_s: null };
  let seen = 0;
  let p95: number | null = null;
  for (const e of VIEW_AGE_EDGES_S) {
    seen += counters[`${PREFIX}.le.${e}`] ?? 0;
    if (seen >= 0.95 * n) {
      p95 = Number.isFinite(e) ? e : null;
      break;
    }
  }
  return { decisions: n, mean_s: (counters[`${PREFIX}.sum`] ?? 0) / n, p95_s: p95 };
}
