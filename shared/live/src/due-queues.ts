/** A frame on its way: when it may leave (performance.now() ms), and its bytes. */
interface Pending {
  readonly due_ms: number;
  readonly bytes: Buffer;
}

/**
 * Frames waiting on their way through a delay proxy, one queue per key (a link, a sender): each
 * leaves at its due time, and never before the one queued on its key before it, as TCP never
 * reorders a connection.
 */
export class DueQueues {
  private readonly queues = new Map<string, Pending[]>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly lastDue = new Map<string, number>();

  constructor(private readonly send: (bytes: Buffer) => void) {}

  /** Queues `bytes` on `key` to leave `wait_ms` after `now_ms`, and no earlier than what `key` queued before. */
  push(key: string, wait_ms: number, bytes: Buffer, now_ms = performance.now()): void {
    const due = Math.max(now_ms + wait_ms, this.lastDue.get(key) ?? 0);
    this.lastDue.set(key, due);
    let q = this.queues.get(key);
    if (!q) this.queues.set(key, (q = []));
    q.push({ due_ms: due, bytes });
    if (!this.timers.has(key))
      this.timers.set(
        key,
        setTimeout(() => this.flush(key), Math.ceil(due - now_ms)),
      );
  }

  /** Whether a frame still waits on `key`. */
  waiting(key: string): boolean {
    return (this.queues.get(key)?.length ?? 0) > 0;
  }

  /** Stops every timer: what waits is dropped with its connection. */
  clear(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private flush(key: string): void {
    this.timers.delete(key);
    const q = this.queues.get(key)!;
    const now = performance.now();
    while (q.length > 0 && q[0]!.due_ms <= now) this.send(q.shift()!.bytes);
    // libuv measures timers from the loop's cached time, so they can fire early: re-arm, never send early.
    if (q.length > 0)
      this.timers.set(
        key,
        setTimeout(() => this.flush(key), Math.max(1, Math.ceil(q[0]!.due_ms - now))),
      );
  }
}
