/** Resident memory of this process in MiB. */
export function rss_mb(): number {
  return Math.round((process.memoryUsage.rss() / 2 ** 20) * 10) / 10;
}

/** CPU seconds (user + system) this process has used. */
export function cpu_s(): number {
  const u = process.cpuUsage();
  return Math.round((u.user + u.system) / 1000) / 1000;
}

/** CPU seconds this process has used since cpu_s() read `from_s`. */
export function cpuSince(from_s: number): number {
  return Math.round((cpu_s() - from_s) * 1000) / 1000;
}

export function sortedRecord(m: ReadonlyMap<string, number>): Record<string, number> {
  return Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : 1)));
}
