/**
 * A log line a restarted process writes again (LiveRecovery): its predecessor stored the turn that
 * said it, and may have died before writing it. Marked `"replayed":true`, after the line's own fields.
 */
export function replayedLine(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.assign({}, fields, { replayed: true });
}

/**
 * For a reader of a live run's logs: whether a line repeats one read before, a copy a restart wrote
 * again of a line its predecessor had written after all. Lines are the same when all their fields
 * but the wall time (`time`) and the mark are; a replayed line nobody wrote before counts.
 */
export class ReplayedLineFilter {
  private readonly seen = new Set<string>();

  repeats(line: Readonly<Record<string, unknown>>): boolean {
    const { time: _time, replayed, ...rest } = line;
    const key = JSON.stringify(rest);
    if (replayed === true && this.seen.has(key)) return true;
    this.seen.add(key);
    return false;
  }
}
