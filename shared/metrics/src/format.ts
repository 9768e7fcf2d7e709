/** Numbers as they go into CSV and JSON: integers as they are, others to 6 decimals, no trailing zeros. */
export function formatNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  const fixed = n.toFixed(6);
  // Drop trailing zeros, then a bare point (a hand loop: this runs for every cell of jobs.csv).
  let end = fixed.length;
  while (end > 0 && fixed.charCodeAt(end - 1) === 48) end--;
  if (end > 0 && fixed.charCodeAt(end - 1) === 46) end--;
  return end === fixed.length ? fixed : fixed.slice(0, end);
}

export function roundNumber(n: number, digits = 6): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
