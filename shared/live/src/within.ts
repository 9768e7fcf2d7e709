/** Waits for `p`, or `ms`, whichever comes first (a server that is gone never answers a flush). */
export async function within(ms: number, p: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
