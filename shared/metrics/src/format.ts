/** Numbers as they go into CSV and JSON: integers as they are, others to 6 decimals, no trailing zeros. */
export function formatNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return n.toFixed(6).replace(/0+$/, '').replace(/\.$/, '');
}

export function roundNumber(n: number, digits = 6): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
