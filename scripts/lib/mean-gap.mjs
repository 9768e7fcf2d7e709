import { meanWithInterval } from '@gridemu/metrics';

/**
 * Runs' [live, replay] pairs: the mean relative gap (live − replay) / replay with its 90% interval
 * (Student's t), and what that interval says of issue 15's "within 10% of its replay". One pair has
 * no interval, so it can only be within or outside on the mean.
 */
export function meanGap(pairs, share = 0.1) {
  const gaps = meanWithInterval(pairs.map(([live, replay]) => (live - replay) / replay));
  const lo = gaps.mean - gaps.half_width;
  const hi = gaps.mean + gaps.half_width;
  const pc = `${Math.round(share * 100)}%`;
  const verdict =
    lo >= -share && hi <= share
      ? `within ${pc}, the whole interval inside it`
      : Math.abs(gaps.mean) <= share
        ? `within ${pc} on the mean, though the interval is wider than that: more runs would narrow it`
        : hi < -share || lo > share
          ? `outside ${pc}, the whole interval outside it`
          : `outside ${pc} on the mean, the interval reaching inside it`;
  return { n: gaps.n, mean: gaps.mean, lo, hi, verdict };
}
