/** Counts by message type, then link `from->to`, then window number: `state()`'s shape. */
export type WindowCountState = Record<string, Record<string, Record<string, number>>>;

/**
 * How many messages of each type each window of a link's timeline held (MailboxTimeline's
 * `counts_by_type`). A timeline scores a window against the link's whole traffic; a type whose
 * messages crowd into the slow windows (claims in a claim storm) drew its own slow tail there once
 * more, so a replay scores each type against the windows its own messages were in (MailboxModel).
 */
export class WindowCounts {
  private readonly byType = new Map<string, Map<string, Map<string, number>>>();

  add(type: string, link: string, window: string, n = 1): void {
    const windows = this.windowsOf(type, link);
    windows.set(window, (windows.get(window) ?? 0) + n);
  }

  /** The counts of `type` on `link` by window, which a caller may add to (LinkMeter keeps them at hand). */
  windowsOf(type: string, link: string): Map<string, number> {
    let links = this.byType.get(type);
    if (!links) this.byType.set(type, (links = new Map()));
    let windows = links.get(link);
    if (!windows) links.set(link, (windows = new Map()));
    return windows;
  }

  /** Adds another process's counts (a member report's). */
  merge(state: WindowCountState): void {
    for (const [type, links] of Object.entries(state))
      for (const [link, windows] of Object.entries(links))
        for (const [w, n] of Object.entries(windows)) this.add(type, link, w, n);
  }

  /** Every count, each level in key order (windows by number). */
  state(): WindowCountState {
    const sorted = <V>(m: Map<string, V>, byNumber = false) =>
      [...m].sort(([a], [b]) => (byNumber ? Number(a) - Number(b) : a < b ? -1 : 1));
    return Object.fromEntries(
      sorted(this.byType).map(([type, links]) => [
        type,
        Object.fromEntries(sorted(links).map(([link, windows]) => [link, Object.fromEntries(sorted(windows, true))])),
      ]),
    );
  }
}
