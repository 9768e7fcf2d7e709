/** Wall-clock milliseconds with sub-millisecond resolution, comparable between processes on one host. */
export function wallNow_ms(): number {
  return performance.timeOrigin + performance.now();
}
